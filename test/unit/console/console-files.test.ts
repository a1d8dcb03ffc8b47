import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleFile } from '../../../src/console/console-files.js';

const assets = new Set(['console-AB12CD34.js', 'console-EF56GH78.css', 'console-AB12CD34.js.map', 'notes.txt']);

describe('which console file answers a path', () => {
  it('gives the page for the console itself and every address of its views', () => {
    for (const p of ['', '/', 'tables', 'tables/c_bpartner', 'tables/c_bpartner/118', 'processes/rv_bpartneropen/', 'jobs']) assert.deepEqual(consoleFile(p, assets), { kind: 'page' }, p);
  });

  it('gives a built asset with its media type', () => {
    assert.deepEqual(consoleFile('assets/console-AB12CD34.js', assets), { kind: 'asset', name: 'console-AB12CD34.js', type: 'text/javascript; charset=utf-8' });
    assert.deepEqual(consoleFile('assets/console-EF56GH78.css', assets), { kind: 'asset', name: 'console-EF56GH78.css', type: 'text/css; charset=utf-8' });
    assert.equal(consoleFile('assets/console-AB12CD34.js.map', assets).kind, 'asset');
  });

  it('gives nothing for an asset that was not built, a file type it does not serve, or a path that leaves the folder', () => {
    for (const p of ['assets/console-OLD.js', 'assets/notes.txt', 'assets/', 'assets', 'assets/../index.html', 'assets/a/console-AB12CD34.js', 'assets/%2e%2e', 'favicon.ico', 'tables/x.php', 'index.html']) {
      assert.deepEqual(consoleFile(p, assets), { kind: 'missing' }, p);
    }
  });
});
