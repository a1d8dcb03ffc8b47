// `npm start`: compiles when the sources changed since the last build (see build-if-stale.mjs),
// then runs the service in this same process, so that a restart pays for one Node start only.
// Arguments are those of dist/src/main.js (serve by default).
import fs from 'node:fs';
import module from 'node:module';
import { buildIfStale } from './build-if-stale.mjs';
import { bundleFile } from './bundle.mjs';
import { runBundle } from './bundle-loader.mjs';

// Node 22.1 and later keep the compiled code of the modules outside the bundle between starts;
// Node 20 has no such cache and skips this (the bundle has its own, see bundle-loader.mjs).
module.enableCompileCache?.();
buildIfStale();
const pglite = await import('../dist/src/db/pglite-artifacts.js');
// Without DATABASE_URL every command opens embedded PGlite: its WebAssembly compiles on V8's
// background threads while the service's code loads (see src/db/pglite-artifacts.ts). On a server
// only the V8 flag it sets is set, so that V8's flags, which its code cache is checked against, are
// the same whichever database an instance uses (bundle-loader.mjs).
if (process.env.DATABASE_URL?.trim()) pglite.setWasmTieringBudget();
else pglite.startPgliteArtifacts();
// The bundle when the build made one (see bundle.mjs), else the compiled modules.
if (fs.existsSync(bundleFile)) runBundle(bundleFile);
else await import('../dist/src/main.js');
