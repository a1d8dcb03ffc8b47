import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { uuidv7 } from '../../../src/db/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7', () => {
  it('writes the time in its first 48 bits, then version 7 and the RFC variant', () => {
    const now = Date.UTC(2026, 10, 24, 4, 30, 0, 123);
    const id = uuidv7(now);
    assert.match(id, V7);
    assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), now);
  });

  it('gives distinct ids within one millisecond, across refills of its random bytes', () => {
    const now = Date.now();
    const ids = Array.from({ length: 2000 }, () => uuidv7(now)); // several pools' worth
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, V7);
    const tails = new Set(ids.map((id) => id.slice(14)));
    assert.equal(tails.size, ids.length, 'the random part differs, not only the version nibble');
  });

  it('sorts by creation time across milliseconds', () => {
    const offsets = [5, 1, 3, 2, 4];
    const ids = offsets.map((ms) => uuidv7(1_700_000_000_000 + ms));
    const inTimeOrder = [...offsets].sort((a, b) => a - b).map((ms) => ids[offsets.indexOf(ms)]);
    assert.deepEqual([...ids].sort(), inTimeOrder);
  });
});
