import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { projectRoot } from '../paths.js';
import { hashImportClosure, hashProjectFiles } from '../files-digest.js';
import { migrate } from './migrate.js';
import { lockDataDir } from './data-dir-lock.js';
import { untilDatabaseIsUp } from './wait-for-database.js';
import type { Db } from './types.js';
import { openPg, openPglite } from './drivers.js';

export interface OpenDatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  cacheDir: string;
  poolSize?: number;
  /** Embedded PGlite's shared_buffers in MB (see config). */
  pgliteSharedBuffersMb?: number;
  log?: Pick<Logger, 'info'> & Partial<Pick<Logger, 'warn'>>;
  /** How long to wait for a PostgreSQL server that is not up yet (DICTUM_DB_WAIT_SECONDS); 0 or unset: no wait. */
  waitMs?: number;
  /** Embedded only: the database lives in memory, from the seeded snapshot, and the data directory holds no database files. */
  pgliteInMemory?: boolean;
}

/**
 * Identifies the seeded database a build produces: the seed files, the code that turns them
 * into a schema, and the embedded engine's version. A cached snapshot is reused only when
 * all of them match.
 */
export function seedFingerprint(): string {
  const h = createHash('sha256');
  // What the seeded database depends on: the seed, the code that builds it, and the password hashing of the demo users.
  hashProjectFiles(h, ['seed', 'dist/src/db', 'dist/src/dictionary', 'dist/src/seed', 'dist/src/auth/passwords.js']);
  // Migrations call into the domain code (documents, processes, print, ...): all of it that they reach.
  hashImportClosure(h, 'dist/src/db/migrations/index.js');
  const pgliteVersion = JSON.parse(fs.readFileSync(path.join(projectRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
  h.update(String(pgliteVersion));
  return h.digest('hex').slice(0, 16);
}

export const hasPgliteData = (dataDir: string): boolean => fs.existsSync(path.join(dataDir, 'PG_VERSION'));


/** The seeded snapshot for this build, creating it once in a scratch directory when missing. */
export async function seededSnapshot(cacheDir: string, log?: Pick<Logger, 'info'>): Promise<Buffer> {
  const file = path.join(cacheDir, `seeded-${seedFingerprint()}.tar.gz`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  log?.info({ file }, 'building the seeded database snapshot');
  const db = await openPglite({});
  try {
    await migrate(db);
    const blob = await db.dump();
    const buf = Buffer.from(await blob.arrayBuffer());
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, buf);
    fs.renameSync(tmp, file);
    return buf;
  } finally {
    await db.close();
  }
}

/**
 * Opens the database: a PostgreSQL server when DATABASE_URL is set, else embedded PGlite in the
 * data directory. A new embedded database starts from the cached seeded snapshot; pending
 * migrations are applied either way.
 */
export async function openDatabase(o: OpenDatabaseOptions): Promise<Db> {
  if (o.databaseUrl) {
    const url = o.databaseUrl;
    const log = o.log?.warn ? (o.log as Pick<Logger, 'warn'>) : undefined;
    const db = await untilDatabaseIsUp(async () => {
      const pg = await openPg({ connectionString: url, max: o.poolSize });
      try {
        await pg.query('SELECT 1');
        return pg;
      } catch (e) {
        await pg.close().catch(() => undefined);
        throw e;
      }
    }, { waitMs: o.waitMs ?? 0, log });
    return migrated(db, o.log);
  }
  // One process at a time: a second PGlite on the same files would corrupt them.
  const unlock = await lockDataDir(o.dataDir);
  try {
    let loadDataDir: Blob | undefined;
    if (o.pgliteInMemory || !hasPgliteData(o.dataDir)) {
      const snapshot = await seededSnapshot(o.cacheDir, o.log);
      loadDataDir = new Blob([new Uint8Array(snapshot)]);
    }
    // In memory, the snapshot is unpacked into PGlite's memory file system instead of the folder's
    // thousand-odd files: a throwaway instance starts in a fraction of the time.
    const db = await openPglite({ dataDir: o.pgliteInMemory ? undefined : o.dataDir, loadDataDir, sharedBuffersMb: o.pgliteSharedBuffersMb });
    const close = db.close.bind(db);
    db.close = () => close().finally(unlock);
    return await migrated(db, o.log);
  } catch (e) {
    unlock();
    throw e;
  }
}

/** Applies the pending migrations to an open database; closes it when they fail. */
async function migrated(db: Db, log: OpenDatabaseOptions['log']): Promise<Db> {
  try {
    const applied = await migrate(db);
    if (applied.length) log?.info({ applied }, 'migrations applied');
    return db;
  } catch (e) {
    await db.close();
    throw e;
  }
}
