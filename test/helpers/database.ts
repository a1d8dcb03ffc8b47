import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';
import { openPg } from '../../src/db/pg-db.js';
import { seededSnapshot, seedFingerprint } from '../../src/db/open.js';
import { projectRoot } from '../../src/paths.js';

export const cacheDir = path.join(projectRoot, '.cache');
export const serverUrl = process.env.DATABASE_URL && process.env.DATABASE_URL.trim() !== '' ? process.env.DATABASE_URL.trim() : null;

export const templateName = (): string => `dictum_tpl_${seedFingerprint()}`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Makes sure the seeded starting point exists: a PGlite snapshot, or a template database. */
export async function prepareSeed(): Promise<void> {
  if (!serverUrl) {
    await seededSnapshot(cacheDir);
    return;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const name = templateName();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    const building = `${name}_build_${process.pid}`;
    await admin.query(`CREATE DATABASE "${building}"`);
    const db = await openPg({ connectionString: withDatabase(serverUrl, building), max: 2 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    // Old templates of earlier builds are no longer needed (unless several checkouts share this server).
    if (process.env.DICTUM_KEEP_TEMPLATES) return;
    const old = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'dictum_tpl_%' AND datname <> $1`, [name]);
    for (const r of old.rows) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}"`).catch(() => undefined);
  } finally {
    await admin.end();
  }
}

export interface FreshDatabase {
  /** DATABASE_URL for the server under test, or null for PGlite. */
  databaseUrl: string | null;
  dataDir: string;
  drop(): Promise<void>;
}

/** A database of its own for one test file, copied from the seeded starting point. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-test-'));
  if (!serverUrl) {
    return {
      databaseUrl: null,
      dataDir,
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `dictum_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`);
  } finally {
    await admin.end();
  }
  return {
    databaseUrl: withDatabase(serverUrl, name),
    dataDir,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const a = new pg.Client({ connectionString: serverUrl! });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}
