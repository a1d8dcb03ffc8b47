import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { freshDatabase } from '../../helpers/database.js';

const run = promisify(execFile);

/** Where the PostgreSQL 15 server binaries are expected. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Why the replica tests cannot run here, or null when they can. */
export function replicaTestsUnavailable(): string | null {
  if (!process.env.DATABASE_URL?.trim()) return 'needs DATABASE_URL: read replicas serve a PostgreSQL primary';
  if (!fs.existsSync(path.join(PG_BIN, 'initdb')) || !fs.existsSync(path.join(PG_BIN, 'pg_basebackup'))) return `needs the PostgreSQL 15 server binaries in ${PG_BIN}`;
  return null;
}

/** A server binary run as the postgres user (PostgreSQL refuses to run as root). */
async function pgTool(tool: string, args: string[]): Promise<string> {
  const bin = path.join(PG_BIN, tool);
  const { stdout } = asRoot ? await run('runuser', ['-u', 'postgres', '--', bin, ...args]) : await run(bin, args);
  return stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A folder the postgres user owns (when run as root), inside `parent`. */
function ownedFolder(parent: string, name: string): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  if (asRoot) fs.chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  return dir;
}

const DATABASE = 'dictum';

export interface StandbyCluster {
  primaryUrl: string;
  standbyUrl: string;
  /** A new client of the standby's database (for pausing and resuming its replay). */
  standby(): pg.Client;
  stopStandby(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A primary cluster of its own on a free loopback port, holding a copy of the seeded test database,
 * and a hot standby made from it by pg_basebackup -R on another port, streaming its WAL.
 */
export async function startStandbyCluster(): Promise<StandbyCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-replicas-'));
  fs.chmodSync(root, 0o755);
  const primaryDir = ownedFolder(root, 'primary');
  const sockets = ownedFolder(root, 'sockets');
  const logs = ownedFolder(root, 'logs');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const stop = async (dir: string) => {
    await pgTool('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  };
  const cleanUp = async () => {
    for (const dir of started.reverse()) await stop(dir);
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await pgTool('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    fs.appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${sockets}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'hot_standby = on',
        'fsync = off',
        'full_page_writes = off',
        'shared_buffers = 32MB',
        'max_connections = 40',
        "timezone = 'UTC'",
        '',
      ].join('\n'),
    );
    await pgTool('pg_ctl', ['-D', primaryDir, '-l', path.join(logs, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${DATABASE}`;
    await loadSeededDatabase(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, primaryUrl);

    const standbyDir = ownedFolder(root, 'standby');
    await pgTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    fs.appendFileSync(path.join(standbyDir, 'postgresql.conf'), `port = ${standbyPort}\n`);
    await pgTool('pg_ctl', ['-D', standbyDir, '-l', path.join(logs, 'standby.log'), '-w', 'start']);
    started.push(standbyDir);
    const standbyUrl = `postgres://postgres@127.0.0.1:${standbyPort}/${DATABASE}`;
    return {
      primaryUrl,
      standbyUrl,
      standby: () => new pg.Client({ connectionString: standbyUrl }),
      async stopStandby() {
        await stop(standbyDir);
        started.splice(started.indexOf(standbyDir), 1);
      },
      close: cleanUp,
    };
  } catch (e) {
    await cleanUp();
    throw e;
  }
}

/** Copies the seeded test database (a fresh copy of this build's template) into the new primary. */
async function loadSeededDatabase(adminUrl: string, targetUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const source = await freshDatabase();
  try {
    const pgDump = path.join(PG_BIN, 'pg_dump');
    const pgRestore = path.join(PG_BIN, 'pg_restore');
    // One pipe, failing when either side fails.
    await run('bash', ['-o', 'pipefail', '-c', `"${pgDump}" -Fc --no-owner --no-privileges -d "$1" | "${pgRestore}" --no-owner --no-privileges --exit-on-error -d "$2"`, 'copy', source.databaseUrl!, targetUrl], { maxBuffer: 16 * 1024 * 1024 });
  } finally {
    await source.drop();
  }
}
