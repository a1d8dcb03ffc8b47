// Runs the compiled test files with node's test runner (Node 20 does not expand globs itself).
// Before the files run, the seeded database snapshot (PGlite) or template database (DATABASE_URL)
// is prepared once, so that test files only copy it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);

function find(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return find(p);
    return e.name.endsWith('.test.js') ? [p] : [];
  });
}

// The benchmark harness's own checks too, but for its live checks, which need PostgreSQL and wrk
// (they stay with `npm run test:bench`).
const HARNESS_CHECKS = fs
  .readdirSync(path.join(root, 'bench', 'test'))
  .filter((n) => n.endsWith('.test.mjs') && n !== 'live.test.mjs')
  .sort()
  .map((n) => path.join(root, 'bench', 'test', n));

let files = [...find(path.join(root, 'dist', 'test')).sort(), ...HARNESS_CHECKS];
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const prep = spawnSync(process.execPath, [path.join(root, 'dist', 'test', 'helpers', 'prepare.js')], { stdio: 'inherit' });
if (prep.status !== 0) process.exit(prep.status ?? 1);

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// TEST_TIMINGS=<file> adds a report of each file's time next to the usual output.
const timings = process.env.TEST_TIMINGS
  ? ['--test-reporter=tap', '--test-reporter-destination=stdout', `--test-reporter=${path.join(root, 'scripts', 'file-timings-reporter.mjs')}`, `--test-reporter-destination=${path.resolve(process.env.TEST_TIMINGS)}`]
  : [];
const res = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...timings, ...files], { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } });
process.exit(res.status ?? 1);
