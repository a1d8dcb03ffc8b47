import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hashImportClosure } from '../../../src/files-digest.js';

describe('seeded snapshot fingerprint', () => {
  it('covers every module the migrations reach, wherever it lives', () => {
    const files = hashImportClosure(createHash('sha256'), 'dist/src/db/migrations/index.js');
    assert.ok(files.includes('dist/src/db/migrations/index.js'));
    // Modules outside src/db and src/seed that migrations call: without them a changed
    // migration body would leave an old snapshot in use.
    for (const expected of ['dist/src/documents/engine/period.js', 'dist/src/processes/process-seed.js', 'dist/src/workflow/workflow-seed.js']) {
      assert.ok(files.includes(expected), `${expected} is in the closure`);
    }
    assert.ok(files.every((f) => f.endsWith('.js')));
  });

  it('is the same for the same modules and differs for other modules', () => {
    const a = createHash('sha256');
    hashImportClosure(a, 'dist/src/db/migrations/index.js');
    const b = createHash('sha256');
    hashImportClosure(b, 'dist/src/db/migrations/index.js');
    assert.equal(a.digest('hex'), b.digest('hex'));
    const c = createHash('sha256');
    hashImportClosure(c, 'dist/src/errors.js');
    const d = createHash('sha256');
    hashImportClosure(d, 'dist/src/db/migrations/index.js');
    assert.notEqual(c.digest('hex'), d.digest('hex'));
  });
});
