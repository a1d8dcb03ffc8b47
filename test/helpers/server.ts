import { loadConfig } from '../../src/config.js';
import { createLogger, openLogFiles, startServer, type RunningServer } from '../../src/server.js';
import { pino } from 'pino';
import { cacheDir, freshDatabase } from './database.js';

export interface TestServer extends RunningServer {
  /** fetch against the server with JSON handling; returns status, headers and parsed body. */
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string }): Promise<TestResponse>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Starts the real server on a database of its own (fresh copy of the seeded demo company). */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const fresh = await freshDatabase();
  // On PGlite the test's database lives in memory (DICTUM_PGLITE_IN_MEMORY=0 keeps it in the folder,
  // as `npm start` does): unpacking the snapshot into a folder's files took most of a test file's start.
  const config = {
    ...loadConfig({ DICTUM_PGLITE_IN_MEMORY: '1', ...process.env, PORT: '0', HOST: '127.0.0.1', DICTUM_DATA_DIR: fresh.dataDir, ...env }),
    databaseUrl: fresh.databaseUrl,
    cacheDir,
  };
  // With a log folder the instance logs as `serve` does, to files only (the test reads them).
  const files = env.DICTUM_LOG_DIR ? openLogFiles(config) : null;
  const log = files ? createLogger(config, files, false) : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const server = await startServer(config, log, files);
  return asTestServer(server, () => fresh.drop());
}

/** A running server with the tests' request helper; closing it also runs `cleanUp`. */
export function asTestServer(server: RunningServer, cleanUp: () => Promise<void> = async () => undefined): TestServer {
  return {
    ...server,
    async close() {
      await server.close();
      await cleanUp();
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      let body: string | undefined;
      if (options.raw !== undefined) body = options.raw;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const res = await fetch(server.url + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
  };
}

/** Another instance of the service on the same database as `a` (PostgreSQL only: PGlite has one process). */
export async function startSecondInstance(a: TestServer, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = { ...loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }), databaseUrl: a.services.config.databaseUrl, dataDir: a.services.config.dataDir, cacheDir };
  return startServer(config, pino({ level: 'silent' }));
}
