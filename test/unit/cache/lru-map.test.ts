import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from '../../../src/cache/lru-map.js';

describe('LruMap', () => {
  it('keeps the most recently used entries', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.get('a');
    m.set('c', 3);
    assert.equal(m.get('b'), undefined);
    assert.equal(m.get('a'), 1);
    assert.equal(m.size, 2);
  });
});
