// Builds the code that runs in browsers. The web console (src/console-app/) goes into
// dist/console/: index.html and, under assets/, the script and style sheet with a hash of their
// content in their names, so that the service can let browsers keep them for a year while
// index.html is asked for again every time. The documentation page's login form
// (src/browser/docs-login.ts, which shares the console's session module) goes into
// dist/browser/docs-login.js, served as /api/v1/docs/login.js.
// Usage: node scripts/bundle-browser.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'src', 'console-app');
export const consoleDir = path.join(root, 'dist', 'console');
export const docsLoginFile = path.join(root, 'dist', 'browser', 'docs-login.js');
const common = { bundle: true, platform: 'browser', target: 'es2022', minify: true, charset: 'utf8', logLevel: 'warning' };

/** Writes the browser code; without esbuild (an install without dev dependencies) leaves any earlier build and says so. */
export function bundleBrowser() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    return false;
  }
  const assets = path.join(consoleDir, 'assets');
  fs.rmSync(consoleDir, { recursive: true, force: true });
  const result = esbuild.buildSync({
    entryPoints: [path.join(sourceDir, 'main.ts'), path.join(sourceDir, 'console.css')],
    outdir: assets,
    entryNames: 'console-[hash]',
    format: 'esm',
    metafile: true,
    ...common,
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => path.basename(p));
  const named = (ext) => {
    const found = outputs.find((n) => n.endsWith(ext));
    if (!found) throw new Error(`the console build wrote no ${ext} file`);
    return `/console/assets/${found}`;
  };
  const page = fs.readFileSync(path.join(sourceDir, 'index.html'), 'utf8').replace('{{css}}', named('.css')).replace('{{js}}', named('.js'));
  fs.writeFileSync(path.join(consoleDir, 'index.html'), page);
  esbuild.buildSync({ entryPoints: [path.join(root, 'src', 'browser', 'docs-login.ts')], outfile: docsLoginFile, format: 'iife', ...common });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) bundleBrowser();
