// Runs the service bundle (a CommonJS file, see bundle.mjs) with V8's code cache: the compiled code
// of the bundle's functions, kept in a file beside it after a start and given back to V8 at the
// next start, which then skips compiling them (about a tenth of a second of a restart, measured in
// docs/benchmarks.md). Node 22 keeps such a cache for modules by itself (module.enableCompileCache);
// Node 20 has none, so the bundle is compiled here through vm.Script, which takes one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { reportCodeCache } from '../dist/src/start-signal.js';
import { mapStackTraces } from './bundle-stack-traces.mjs';

/**
 * The cache file of one build of the bundle, for this Node and these Node flags. V8 checks a cache
 * against its own version, its flags and the length of the source, not the source itself: the name
 * carries the bundle's size and modification time, so that a rebuild of the same length never meets
 * the old cache, and a digest of the Node version and flags, so that processes started with other
 * flags (npm start's, a plain node) each keep a cache V8 accepts instead of replacing each other's.
 */
function codeCacheFile(bundle) {
  const st = fs.statSync(bundle);
  const runtime = createHash('sha256').update(JSON.stringify([process.version, process.execArgv, process.env.NODE_OPTIONS ?? ''])).digest('hex').slice(0, 12);
  return `${buildPrefix(bundle, st)}${runtime}.v8cache`;
}

/** The start of the names of one build's cache files. */
const buildPrefix = (bundle, st) => `${bundle}.${st.size}-${Math.trunc(st.mtimeMs)}.`;

/** Cache files beside `bundle` of other builds than its own. */
function otherBuildsCaches(bundle) {
  const dir = path.dirname(bundle);
  const prefix = `${path.basename(bundle)}.`;
  const own = path.basename(buildPrefix(bundle, fs.statSync(bundle)));
  return fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && n.endsWith('.v8cache') && !n.startsWith(own))
    .map((n) => path.join(dir, n));
}

/** Writes the cache atomically (other instances may start from the same build meanwhile); never throws. */
function writeCache(script, file, bundle) {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, file);
    for (const other of otherBuildsCaches(bundle)) fs.rmSync(other, { force: true });
  } catch {
    // A folder that cannot be written (a read-only install) costs each start the compile, nothing more.
  }
}

/**
 * Compiles and runs `bundle` as a CommonJS module. Its code cache is used when there is a valid
 * one; otherwise one is written once the service serves, holding every function compiled by then.
 * The outcome ('accepted', 'rejected' or 'absent') goes to the service's start-up log (src/start-signal.ts).
 */
export function runBundle(bundle) {
  mapStackTraces(bundle);
  const cacheFile = codeCacheFile(bundle);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = fs.readFileSync(bundle, 'utf8');
  // No import() in the bundle (bundle.mjs makes them require calls): Node 20 would need a flag for it here.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const outcome = cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  reportCodeCache(outcome, outcome === 'accepted' ? undefined : () => setImmediate(() => writeCache(script, cacheFile, bundle)));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
}
