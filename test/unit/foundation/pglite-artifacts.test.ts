import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startPgliteArtifacts, takePgliteArtifacts } from '../../../src/db/pglite-artifacts.js';

const pgliteDir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

describe("PGlite's files read ahead of an open", () => {
  it('compiles the WebAssembly once per process and reads the data file anew for each open, whole', async () => {
    startPgliteArtifacts();
    startPgliteArtifacts();
    const first = await takePgliteArtifacts();
    const second = await takePgliteArtifacts();
    assert.ok(first.wasmModule instanceof WebAssembly.Module);
    assert.equal(second.wasmModule, first.wasmModule, 'the compiled module is shared');
    const [a, b] = [await first.fsBundle.arrayBuffer(), await second.fsBundle.arrayBuffer()];
    assert.notEqual(a, b, 'each open gets bytes of its own (PGlite copies them into its file system)');
    const onDisk = fs.readFileSync(path.join(pgliteDir, 'pglite.data'));
    assert.equal(a.byteLength, onDisk.byteLength);
    assert.ok(Buffer.from(a).equals(onDisk));
    // What PGlite instantiates: its exports include the PostgreSQL entry points it calls.
    assert.ok(WebAssembly.Module.exports(first.wasmModule).length > 100);
  });
});
