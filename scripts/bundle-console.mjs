// Builds the web console (src/console-app/) into dist/console/: index.html and, under assets/,
// the script and style sheet with a hash of their content in their names, so that the service
// can let browsers keep them for a year while index.html is asked for again every time.
// Usage: node scripts/bundle-console.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'src', 'console-app');
export const consoleDir = path.join(root, 'dist', 'console');

/** Writes the console; without esbuild (an install without dev dependencies) leaves any earlier build and says so. */
export function bundleConsole() {
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
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => path.basename(p));
  const named = (ext) => {
    const found = outputs.find((n) => n.endsWith(ext));
    if (!found) throw new Error(`the console build wrote no ${ext} file`);
    return `/console/assets/${found}`;
  };
  const page = fs.readFileSync(path.join(sourceDir, 'index.html'), 'utf8').replace('{{css}}', named('.css')).replace('{{js}}', named('.js'));
  fs.writeFileSync(path.join(consoleDir, 'index.html'), page);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) bundleConsole();
