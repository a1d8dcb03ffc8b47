import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/paths.js';

// `npm test` builds first, and the build writes the bundle that `npm start` runs (scripts/bundle.mjs).
const bundle = path.join(projectRoot, 'dist', 'src', 'main.bundle.js');

describe('start-up bundle', () => {
  it('runs the service command line from one file', () => {
    assert.ok(fs.existsSync(bundle), 'the build wrote dist/src/main.bundle.js');
    const r = spawnSync(process.execPath, [bundle, 'no-such-command'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Unknown command 'no-such-command': use serve, migrate/);
  });

  it('leaves out the packages that load on first use or read files beside their code', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    for (const pkg of ['pdfkit', 'exceljs', '@napi-rs/canvas', 'chart.js', 'nodemailer', 'yaml', 'csv-stringify/sync', 'csv-parse/sync']) {
      assert.match(text, new RegExp(`import\\(["']${pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']\\)`), `${pkg} is imported at run time, not bundled`);
    }
    assert.doesNotMatch(text, /node_modules\/swagger-ui-dist\/swagger-ui-bundle\.js/, 'the Swagger UI browser bundle is served as a file, not loaded');
    // Each database driver stays in a chunk of its own, loaded only by an instance that uses it.
    assert.doesNotMatch(text, /from ["']@electric-sql\/pglite["']/);
    assert.doesNotMatch(text, /node_modules\/pg\/lib\/client\.js/);
  });
});
