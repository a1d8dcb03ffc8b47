import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestServer } from './server.js';
import { cacheDir } from './database.js';

export interface InstanceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the instance wrote to its standard output. */
  output(): string;
}

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/**
 * Starts another instance of the service as a process of its own on the database of `a`, so that a
 * test can kill it with SIGKILL as a crash would (PostgreSQL only). Resolves once it serves.
 */
export async function startInstanceProcess(a: TestServer, env: Record<string, string> = {}): Promise<InstanceProcess> {
  return startServiceProcess(main, { DATABASE_URL: a.services.config.databaseUrl ?? '', DICTUM_DATA_DIR: a.services.config.dataDir, ...env });
}

/** Starts `node <script> serve` with `env` (its database among it) and resolves once it serves. */
export async function startServiceProcess(script: string, env: Record<string, string>): Promise<InstanceProcess> {
  const child = spawn(process.execPath, [script, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: a first start unpacks the seeded snapshot, which a busy disk can slow to tens of seconds.
    // An instance that did not start in time is ended: a live child would keep the test file's process from exiting.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance did not start: ${err}`));
    }, 90_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*Dictum is serving/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}: ${err}`));
    });
  });
  return { child, url, output: () => out };
}
