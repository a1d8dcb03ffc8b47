// Startup benchmark: milliseconds from process start to the first 200 of GET /api/v1/health,
// for a first start (empty data directory) and a second start (existing data).
// Usage: npm run build && node bench/startup.mjs [--keep-cache]
// Without --keep-cache the first start also builds the seeded snapshot (a cold machine).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keepCache = process.argv.includes('--keep-cache');

async function timeStart(dataDir, cacheDir, port) {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js'), 'serve'], {
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DICTUM_DATA_DIR: dataDir, DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        if (r.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120000) throw new Error('server did not answer within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bench-'));
const dataDir = path.join(work, 'data');
const cacheDir = keepCache ? path.join(root, '.cache') : path.join(work, 'cache');
const port = 18000 + Math.floor(Math.random() * 1000);
try {
  const first = await timeStart(dataDir, cacheDir, port);
  const second = await timeStart(dataDir, cacheDir, port);
  const rows = [
    ['scenario', 'ms to first 200'],
    [keepCache ? 'first start (empty data dir, cached snapshot)' : 'first start (empty data dir, no snapshot)', first.toFixed(0)],
    ['second start (existing data dir)', second.toFixed(0)],
  ];
  for (const [a, b] of rows) console.log(`${a.padEnd(50)} ${b.padStart(8)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
