// `npm start`: compiles when the sources changed since the last build (see build-if-stale.mjs),
// then runs the service in this same process, so that a restart pays for one Node start only.
// Arguments are those of dist/src/main.js (serve by default).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import('../dist/src/main.js');
