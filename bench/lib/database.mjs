// The benchmark databases on the PostgreSQL server: names, creation, samples of the data set.
import fs from 'node:fs';
import pg from 'pg';
import { FIRST_ID } from './dataset.mjs';

export const TCP_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dictum_bench';
/** Debian's directory of the local server's Unix socket. */
export const LOCAL_SOCKET_DIR = '/var/run/postgresql';

/**
 * Without DATABASE_URL the benchmark reaches the local server through its Unix socket when there
 * is one, as a service sharing the database's machine would (it costs less CPU per round trip
 * than loopback TCP); pgbench's ceiling then uses the same socket. `--tcp` keeps 127.0.0.1.
 */
export function defaultDatabaseUrl({ tcp = false } = {}) {
  if (!tcp && fs.existsSync(`${LOCAL_SOCKET_DIR}/.s.PGSQL.5432`)) return `postgres://postgres@localhost/dictum_bench?host=${encodeURIComponent(LOCAL_SOCKET_DIR)}`;
  return TCP_DATABASE_URL;
}

/** The Unix socket directory a URL names with ?host=/dir, or null for TCP. */
export function socketDir(url) {
  const host = new URL(url).searchParams.get('host');
  return host && host.startsWith('/') ? host : null;
}
export const NAME_PREFIX = 'dictum_bench';

export function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/**
 * The database a benchmark makes for itself: the one `url` names when that is a benchmark database
 * of its own (dictum_bench_<something>, so that runs beside each other need not share one), else `fallback`.
 */
export function benchDatabaseName(url, fallback) {
  const name = databaseName(url);
  return name.startsWith(`${NAME_PREFIX}_`) ? name : fallback;
}

/** The same server with another database name. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** The same database reached through another host and port (the recording relay). */
export function withHostPort(url, host, port) {
  const u = new URL(url);
  u.hostname = host;
  u.port = String(port);
  u.searchParams.delete('host');
  return u.toString();
}

/** The benchmark writes hundreds of thousands of rows: only into databases named for it. */
export function assertBenchDatabase(url) {
  const u = new URL(url);
  if (!/^postgres(ql)?:$/.test(u.protocol)) throw new Error(`DATABASE_URL must be a postgres:// URL, got ${u.protocol}`);
  const name = databaseName(url);
  if (!name.startsWith(NAME_PREFIX)) throw new Error(`The benchmark only uses databases whose name starts with ${NAME_PREFIX} (got '${name}'): set DATABASE_URL=postgres://.../${NAME_PREFIX}`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) throw new Error(`The benchmark runs against a PostgreSQL server on this machine (127.0.0.1), got ${u.hostname}`);
}

export async function connect(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Creates the database when it is missing; true when it was created. */
export async function ensureDatabase(url) {
  const name = databaseName(url);
  const admin = await connect(withDatabase(url, 'postgres'));
  try {
    const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rows.length) return false;
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return true;
  } finally {
    await admin.end();
  }
}

/** Writes `count` random UUIDs of data-set partners to a file, one a line; returns how many. */
export async function writeUuidSample(client, rows, count, file) {
  const r = await client.query(
    'SELECT c_bpartner_uu AS uu FROM c_bpartner WHERE c_bpartner_id >= $1 AND c_bpartner_id < $2 ORDER BY random() LIMIT $3',
    [FIRST_ID, FIRST_ID + rows, count],
  );
  fs.writeFileSync(file, r.rows.map((x) => x.uu).join('\n') + '\n');
  return r.rows.length;
}

export async function serverVersion(client) {
  const r = await client.query('SHOW server_version');
  return r.rows[0].server_version;
}
