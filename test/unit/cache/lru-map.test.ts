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

  it('never evicts an entry hit at least once every half bound of insertions', () => {
    const m = new LruMap<number, string>(10);
    for (let k = 0; k < 10; k++) m.set(k, `v${k}`);
    for (let k = 10; k < 200; k++) {
      if (k % 5 === 0) assert.equal(m.get(0), 'v0', `after ${k} insertions`);
      m.set(k, `v${k}`);
      assert.ok(m.size <= 10);
    }
    assert.equal(m.get(0), 'v0');
    for (let k = 1; k < 190; k++) assert.equal(m.get(k), undefined, `key ${k} evicted`);
    assert.equal(m.get(199), 'v199');
  });

  it('evicts the entries used longest ago first, in order of use', () => {
    const m = new LruMap<string, number>(4);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) m.set(k, i);
    m.get('a');
    m.get('b');
    // a and b were used after c and d were placed: c goes first, then d.
    m.set('e', 4);
    m.set('f', 5);
    assert.deepEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => m.get(k) !== undefined), [true, true, false, false, true, true]);
  });

  it('leaves an entry of the newer half where it is on a hit (no delete and insert on hot entries)', () => {
    const m = new LruMap<string, number>(4);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) m.set(k, i);
    // d and c are in the newer half: hits leave them in place. a and b, in the older half, move behind them.
    for (const k of ['d', 'c', 'a', 'b']) m.get(k);
    m.set('e', 4);
    // A move on every hit would have evicted d, the first hit; c, not moved, is now at the front.
    assert.deepEqual(['a', 'b', 'c', 'd', 'e'].map((k) => m.get(k) !== undefined), [true, true, false, true, true]);
  });

  it('replaces a value, deletes, clears, and counts hits and misses', () => {
    const m = new LruMap<string, number>(3);
    m.set('a', 1);
    m.set('a', 2);
    assert.equal(m.size, 1);
    assert.equal(m.get('a'), 2);
    assert.equal(m.get('x'), undefined);
    m.delete('a');
    assert.equal(m.get('a'), undefined);
    m.set('b', 1);
    m.clear();
    assert.equal(m.size, 0);
    assert.deepEqual([m.hits, m.misses], [1, 2]);
  });
});
