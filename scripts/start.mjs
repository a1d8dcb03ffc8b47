// `npm start`: compiles when the sources changed since the last build (see build-if-stale.mjs),
// then runs the service in this same process, so that a restart pays for one Node start only.
// Arguments are those of dist/src/main.js (serve by default).
import fs from 'node:fs';
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { bundleFile } from './bundle.mjs';

// Node 22.1 and later keep the compiled code of modules between starts (a third of the modules'
// start-up cost); Node 20 has no such cache and skips this.
module.enableCompileCache?.();
buildIfStale();
// The bundle when the build made one (see bundle.mjs), else the compiled modules.
await import(fs.existsSync(bundleFile) ? pathToFileURL(bundleFile).href : '../dist/src/main.js');
