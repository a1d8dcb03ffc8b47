// `npm start` (scripts/start.mjs) calls this before the service: it compiles only when a source
// file, tsconfig.json or the compiler itself changed since the last successful build, so that a
// restart does not wait for a compiler that would find nothing to do. The build is incremental
// (tsBuildInfoFile in tsconfig.json), so a change recompiles little.
// Usage: node scripts/build-if-stale.mjs [--force]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFile, bundleService } from './bundle.mjs';
import { bundleBrowser, consoleDir, docsLoginFile } from './bundle-browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const sourceDirs = ['src', 'test', 'bench'];
const inputs = ['tsconfig.json', 'package.json', path.join('node_modules', 'typescript', 'package.json')];

// TypeScript and JSON, and the web console's page and style sheet (src/console-app/).
const SOURCE_FILE = /\.(ts|json|html|css)$/;

/** The newest modification time of the compiler's inputs, in milliseconds. */
function newestInput() {
  let newest = 0;
  const visit = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'results') visit(p);
      } else if (SOURCE_FILE.test(e.name)) {
        newest = Math.max(newest, fs.statSync(p).mtimeMs);
      }
    }
  };
  for (const d of sourceDirs) visit(path.join(root, d));
  for (const f of inputs) {
    try {
      newest = Math.max(newest, fs.statSync(path.join(root, f)).mtimeMs);
    } catch {
      // an input that is missing cannot be newer
    }
  }
  return newest;
}

function builtAt() {
  try {
    if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) return -1;
    return fs.statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}

/** Compiles when the output is older than its inputs (or forced); exits the process if the compiler fails. */
export function buildIfStale(force = false) {
  const startedAt = Date.now();
  const built = builtAt();
  if (!force && newestInput() < built) {
    // A build from before the bundle existed (or one whose bundle was removed) gets it now.
    if (!fs.existsSync(bundleFile)) bundleService();
    if (!fs.existsSync(path.join(consoleDir, 'index.html')) || !fs.existsSync(docsLoginFile)) bundleBrowser();
    return false;
  }
  // Incremental build info without its output (dist/src removed by hand) would make tsc emit nothing.
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) fs.rmSync(path.join(root, 'dist', '.tsbuildinfo'), { force: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  bundleService();
  bundleBrowser();
  // The stamp takes the time the build started: a file saved during the build counts as newer.
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, '');
  fs.utimesSync(stamp, startedAt / 1000, startedAt / 1000);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale(process.argv.includes('--force'));
