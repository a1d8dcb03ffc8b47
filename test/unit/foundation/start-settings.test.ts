import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../src/paths.js';

interface ServerSettings {
  SERVICE_NODE_FLAGS: string[];
  SERVICE_ENV: Record<string, string>;
  SERVICE_ENTRY: string[];
}

// The benchmarks measure the service as `npm start` runs it: their flags and environment must be the same.
describe('settings of npm start', () => {
  it('are the script, Node flags and allocator settings the benchmarks start the service with', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const words = pkg.scripts.start!.split(/\s+/);
    const node = words.indexOf('node');
    assert.ok(node > 0, `npm start runs node after its environment: ${pkg.scripts.start}`);
    const env = Object.fromEntries(words.slice(0, node).map((w) => w.split('=') as [string, string]));
    const flags = words.slice(node + 1).filter((w) => w.startsWith('--'));
    const entry = words.slice(node + 1).filter((w) => !w.startsWith('--'));
    const bench = (await import(pathToFileURL(path.join(projectRoot, 'bench', 'lib', 'server.mjs')).href)) as ServerSettings;
    assert.deepEqual(env, bench.SERVICE_ENV);
    assert.deepEqual(flags, bench.SERVICE_NODE_FLAGS);
    assert.deepEqual(entry, bench.SERVICE_ENTRY);
  });
});
