// Bundles the compiled service (dist/src/main.js and what it imports, npm packages included) into
// one CommonJS file, dist/src/main.bundle.cjs, which `npm start` runs through bundle-loader.mjs:
// Node 20 loads one file instead of some 600 modules (about 0.2 s less of a start), and, the file
// being CommonJS, V8's code cache can spare the next start compiling it (Node 20 takes a code cache
// for scripts, not for ES modules). Packages that read files beside their own code (PGlite's WASM,
// native addons, fonts, the Swagger UI assets) or load only on first use stay outside and are
// loaded from node_modules as usual. The bundle sits beside main.js, so paths computed from
// import.meta.url (src/paths.ts) are the same. Tests run the unbundled modules.
// Usage: node scripts/bundle.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist', 'src');
export const bundleFile = path.join(outDir, 'main.bundle.cjs');
/** What earlier builds wrote beside it: an ES module bundle and its chunks, code caches of older bundles. */
const isOlderOutput = (name) => name.startsWith('main.bundle') && name !== 'main.bundle.cjs';

const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@napi-rs/canvas',
  'pdfkit',
  'exceljs',
  'chart.js',
  'nodemailer',
  'swagger-ui-dist',
  'pg-native',
  // Loaded on first use only (YAML documents, CSV export and import); bundled, a CommonJS build
  // of them would also lose its named exports.
  'yaml',
  'csv-stringify',
  'csv-parse',
];

/**
 * V8 keeps a script's source text for as long as the script's functions live, in one byte a
 * character when every character is Latin-1 and in two otherwise: a single dash in a package's
 * comment made the service hold its 2.9 MB bundle as 5.5 MB of heap. esbuild writes code in ASCII
 * (charset below), so what is left outside it lies in comments, rewritten here as escapes.
 */
function keepSourceOneByte(file) {
  const text = fs.readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (ascii !== text) fs.writeFileSync(file, ascii);
}

/** Writes the bundle; without esbuild (an install without dev dependencies) removes any old one and says so. */
export function bundleService() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    fs.rmSync(bundleFile, { force: true });
    for (const name of fs.readdirSync(outDir)) if (isOlderOutput(name)) fs.rmSync(path.join(outDir, name));
    return false;
  }
  for (const name of fs.readdirSync(outDir)) if (isOlderOutput(name)) fs.rmSync(path.join(outDir, name));
  esbuild.buildSync({
    entryPoints: [path.join(outDir, 'main.js')],
    outfile: bundleFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    logLevel: 'warning',
    // The modules' own import.meta.url is the bundle's (it sits beside main.js). Modules imported on
    // first use are wrapped by esbuild and evaluated only then, as separate modules would be.
    define: { 'import.meta.url': '__bundleUrl' },
    // import() of a package becomes a require() when it is first needed: Node 20 runs import() only
    // in code its own loaders compiled, and bundle-loader.mjs compiles the bundle itself. Every
    // package imported so has a CommonJS entry point.
    supported: { 'dynamic-import': false },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // Strings, regular expressions and names are written in ASCII (escaped where they are not).
    charset: 'ascii',
    // main.bundle.cjs.map, through tsc's maps back to src/: stack traces name the TypeScript
    // sources (bundle-stack-traces.mjs). Without the sources' text: the files are beside it.
    sourcemap: 'external',
    sourcesContent: false,
  });
  keepSourceOneByte(bundleFile);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) bundleService();
