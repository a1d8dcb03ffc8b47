import path from 'node:path';
import { parseReadUrls } from './db/read-replicas/read-urls.js';

/** Typed configuration from environment variables, validated once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** Streaming replicas that serve reads which may be a little stale (DATABASE_READ_URL, comma separated). */
  databaseReadUrls: string[];
  /** How often the replicas' replay position is compared with the primary's (DICTUM_REPLICA_POLL_MS). */
  replicaPollMs: number;
  dataDir: string;
  cacheDir: string;
  logLevel: string;
  dbPoolSize: number;
  healthCacheSeconds: number;
  nodeId: string;
  /** Embedded PGlite's shared_buffers in MB (its WASM memory holds them for the life of the process). */
  pgliteSharedBuffersMb: number;
  /**
   * Embedded PGlite keeps its database in memory, started from the seeded snapshot and lost at exit
   * (DICTUM_PGLITE_IN_MEMORY): for throwaway instances such as the test suite's, not for data to keep.
   */
  pgliteInMemory: boolean;
  /** How long a stopping instance lets its running queue items finish (QUEUE_GRACE_MS). */
  queueGraceMs: number;
  /** Where FileName process parameters given as server paths must lie (DICTUM_PROCESS_FILE_DIR). */
  processFileDir: string;
  /** How often this instance renews its entry in the node registry (DICTUM_NODE_HEARTBEAT_MS). */
  nodeHeartbeatMs: number;
  /** A node whose heartbeat is older than this has left the cluster (DICTUM_NODE_WINDOW_MS). */
  nodeWindowMs: number;
  /** Where other instances reach this one (DICTUM_NODE_URL); by default its host name and port. */
  nodeUrl: string;
  /** How often each instance looks for due scheduler firings (DICTUM_SCHEDULER_TICK_MS). */
  schedulerTickMs: number;
  /** Where `serve` writes its log files (DICTUM_LOG_DIR); empty: no files. */
  logDir: string;
  /** A log file beyond this size is rotated (DICTUM_LOG_MAX_BYTES). */
  logMaxBytes: number;
  /** How long a task's command may run before it is stopped (DICTUM_TASK_TIMEOUT_MS). */
  taskTimeoutMs: number;
  /** How long the start waits for a PostgreSQL server that is not up yet (DICTUM_DB_WAIT_SECONDS), in ms. */
  dbWaitMs: number;
  /** Origins whose pages may call the API (CORS_ORIGINS, comma separated; `*` for any). SysConfig REST_CORS_ORIGINS adds more. */
  corsOrigins: string[];
  /** Cross-origin requests may carry cookies and HTTP authentication (CORS_CREDENTIALS); off by default. */
  corsCredentials: boolean;
  /** How long a browser may keep a preflight answer, in seconds (CORS_MAX_AGE). */
  corsMaxAge: number;
  /** The key /metrics asks for (METRICS_KEY); empty: /metrics answers loopback clients only. */
  metricsKey: string;
  /** How long a stopping instance answers readiness 503 before it stops accepting requests (DICTUM_DRAIN_DELAY_MS). */
  drainDelayMs: number;
  /** Answers of a JSON or text type above this size are compressed when the client accepts it (DICTUM_COMPRESS_THRESHOLD). */
  compressThreshold: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`Configuration ${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

/**
 * Connections per instance when DB_POOL_SIZE is not set. One instance is one event loop, which
 * keeps only a few statements usefully in flight; more connections add PostgreSQL backends that
 * compete for the CPU and for the lock manager. A full business partner read touches 15 tables
 * and their keys, more locks than the 16 a PostgreSQL backend (up to 17) takes without the
 * shared lock table; with 10 backends on a busy 2-core machine some of its binds waited 50 to
 * 300 ms, and reads by id reached a worst case of 120 to 450 ms, against 23 to 34 ms with 5.
 */
export const DEFAULT_POOL_SIZE = 5;

/**
 * PGlite runs PostgreSQL inside this process, and its WASM memory never shrinks: the 128 MB of
 * shared_buffers PostgreSQL configures by default were all held after a minute of load (peak RSS
 * 380-400 MB under mixed reads, 255-280 MB with 16) and took a tenth of a second to set up at
 * every start. Reads beyond them come from the operating system's file cache instead; on the demo
 * company that cost no measurable speed (docs/benchmarks.md).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

function nodeTiming(env: NodeJS.ProcessEnv): { nodeHeartbeatMs: number; nodeWindowMs: number } {
  const nodeHeartbeatMs = int(env, 'DICTUM_NODE_HEARTBEAT_MS', 5_000, 100, 600_000);
  // Three missed heartbeats by default: one slow database round trip does not drop a node.
  const nodeWindowMs = int(env, 'DICTUM_NODE_WINDOW_MS', nodeHeartbeatMs * 3, 200, 3_600_000);
  if (nodeWindowMs <= nodeHeartbeatMs) throw new Error('Configuration DICTUM_NODE_WINDOW_MS must be longer than DICTUM_NODE_HEARTBEAT_MS');
  return { nodeHeartbeatMs, nodeWindowMs };
}

/** A comma-separated list of origins, each checked to be scheme://host[:port] (or `*`). */
function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  const list = (env[name] ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of list) {
    if (o !== '*' && !/^https?:\/\/[^/?#\s]+$/i.test(o)) throw new Error(`Configuration ${name} must list origins such as https://app.example.com (no path), got '${o}'`);
  }
  return list.map((o) => o.toLowerCase());
}

function bool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new Error(`Configuration ${name} must be true or false, got '${env[name]}'`);
}

/** The options of the HTTP layer around the API: cross-origin calls, metrics, draining, compression. */
function httpOptions(env: NodeJS.ProcessEnv) {
  return {
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    corsCredentials: bool(env, 'CORS_CREDENTIALS'),
    corsMaxAge: int(env, 'CORS_MAX_AGE', 600, 0, 86_400),
    metricsKey: env.METRICS_KEY ?? '',
    drainDelayMs: int(env, 'DICTUM_DRAIN_DELAY_MS', 0, 0, 600_000),
    compressThreshold: int(env, 'DICTUM_COMPRESS_THRESHOLD', 1024, 0, 2 ** 31 - 1),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`Configuration LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL.trim() !== '' ? env.DATABASE_URL.trim() : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('Configuration DATABASE_URL must start with postgres:// or postgresql://');
  }
  const dataDir = path.resolve(env.DICTUM_DATA_DIR ?? './data');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    databaseReadUrls: parseReadUrls(env.DATABASE_READ_URL, databaseUrl),
    replicaPollMs: int(env, 'DICTUM_REPLICA_POLL_MS', 500, 50, 60_000),
    dataDir,
    cacheDir: path.resolve(env.DICTUM_CACHE_DIR ?? path.join(path.dirname(dataDir), '.cache')),
    logLevel,
    dbPoolSize: int(env, 'DB_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 500),
    healthCacheSeconds: int(env, 'REST_HEALTH_CACHE_DURATION', 20, 0, 86400),
    nodeId: env.DICTUM_NODE_ID ?? '',
    pgliteSharedBuffersMb: int(env, 'DICTUM_PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, 1, 4096),
    pgliteInMemory: bool(env, 'DICTUM_PGLITE_IN_MEMORY'),
    queueGraceMs: int(env, 'QUEUE_GRACE_MS', 10_000, 0, 600_000),
    processFileDir: path.resolve(env.DICTUM_PROCESS_FILE_DIR ?? path.join(dataDir, 'process-files')),
    ...nodeTiming(env),
    nodeUrl: env.DICTUM_NODE_URL ?? '',
    logDir: env.DICTUM_LOG_DIR === '' ? '' : path.resolve(env.DICTUM_LOG_DIR ?? path.join(dataDir, 'logs')),
    taskTimeoutMs: int(env, 'DICTUM_TASK_TIMEOUT_MS', 60_000, 100, 3_600_000),
    logMaxBytes: int(env, 'DICTUM_LOG_MAX_BYTES', 10 * 1024 * 1024, 1024, 2 ** 31 - 1),
    schedulerTickMs: int(env, 'DICTUM_SCHEDULER_TICK_MS', 1_000, 50, 60_000),
    dbWaitMs: int(env, 'DICTUM_DB_WAIT_SECONDS', 60, 0, 3600) * 1000,
    ...httpOptions(env),
  };
}
