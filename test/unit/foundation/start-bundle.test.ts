import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/paths.js';

// `npm test` builds first, and the build writes the bundle that `npm start` runs (scripts/bundle.mjs).
const bundle = path.join(projectRoot, 'dist', 'src', 'main.bundle.cjs');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The text of the module esbuild wraps under `name` (`var name = __esm({ ... });`). */
function wrappedModule(text: string, name: string): string {
  const start = text.indexOf(`var ${name} = __esm({`);
  assert.ok(start >= 0, `the bundle wraps ${name}`);
  return text.slice(start, text.indexOf('\n});\n', start));
}

describe('start-up bundle', () => {
  it('runs the service command line from one file', () => {
    assert.ok(fs.existsSync(bundle), 'the build wrote dist/src/main.bundle.cjs');
    const r = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'start.mjs'), 'no-such-command'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /Unknown command 'no-such-command': use serve, migrate/);
  });

  it('leaves out the packages that load on first use or read files beside their code, and loads them only when used', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    for (const pkg of ['pdfkit', 'exceljs', '@napi-rs/canvas', 'chart.js', 'nodemailer', 'yaml', 'csv-stringify/sync', 'csv-parse/sync', '@node-rs/argon2']) {
      assert.match(text, new RegExp(`Promise\\.resolve\\(\\)\\.then\\(\\(\\) => __toESM\\(require\\("${escape(pkg)}"\\), 1\\)\\)`), `${pkg} is required on first use, not bundled`);
    }
    // No import() in code (comments may name types so): Node 20 runs it only in code its own loaders compiled.
    assert.doesNotMatch(text, /^(?!\s*(\*|\/\/)).*\bimport\(/m);
    assert.doesNotMatch(text, /node_modules\/swagger-ui-dist\/swagger-ui-bundle\.js/, 'the Swagger UI browser bundle is served as a file, not loaded');
  });

  it('is ASCII, so that V8 holds its source at one byte a character', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    const outside = /[^\x00-\x7f]/.exec(text);
    assert.equal(outside, null, outside ? `a character outside ASCII at ${outside.index}: ${JSON.stringify(text.slice(outside.index - 40, outside.index + 10))}` : '');
  });

  it('runs the code of each database driver only in an instance that opens that database', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    for (const driver of ['init_pglite_db', 'init_pg_db']) {
      const calls = [...text.matchAll(new RegExp(`\\b${driver}\\(\\)`, 'g'))];
      assert.equal(calls.length, 1, `${driver} runs from one place`);
      const line = text.slice(text.lastIndexOf('\n', calls[0]!.index) + 1, text.indexOf('\n', calls[0]!.index));
      assert.match(line, new RegExp(`Promise\\.resolve\\(\\)\\.then\\(\\(\\) => \\(${driver}\\(\\)`), `${driver} runs when its opener is first called`);
    }
    const pgliteRequires = [...text.matchAll(/require\("@electric-sql\/pglite"\)/g)];
    assert.equal(pgliteRequires.length, 1);
    assert.ok(wrappedModule(text, 'init_pglite_db').includes('require("@electric-sql/pglite")'), 'PGlite is required by the PGlite driver alone');
    assert.match(text, /= __commonJS\(\{\n {2}"node_modules\/pg\/lib\/client\.js"/, "pg's code runs only when required");
  });
});
