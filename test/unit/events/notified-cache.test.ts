import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NotifiedCache } from '../../../src/events/notified-cache.js';

describe('NotifiedCache', () => {
  it('stores what a read returns when no clear came during the read', () => {
    const cache = new NotifiedCache<string, number>();
    const started = cache.readStarted();
    assert.equal(cache.set('a', 1, started), true);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.has('a'), true);
  });

  it('drops what a read returns when a clear came during the read', () => {
    const cache = new NotifiedCache<string, number>();
    const before = cache.readStarted();
    cache.clear();
    assert.equal(cache.set('a', 1, before), false);
    assert.equal(cache.has('a'), false);
    const after = cache.readStarted();
    assert.equal(cache.set('a', 2, after), true);
    assert.equal(cache.get('a'), 2);
  });

  it('clear empties it', () => {
    const cache = new NotifiedCache<string, number>();
    cache.set('a', 1, cache.readStarted());
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.get('a'), undefined);
  });

  it('keeps at most maxEntries, dropping the one stored longest ago', () => {
    const cache = new NotifiedCache<string, number>(2);
    cache.set('a', 1, cache.readStarted());
    cache.set('b', 2, cache.readStarted());
    cache.set('a', 3, cache.readStarted()); // stored again: now the newest
    cache.set('c', 4, cache.readStarted());
    assert.equal(cache.size, 2);
    assert.equal(cache.has('b'), false);
    assert.equal(cache.get('a'), 3);
    assert.equal(cache.get('c'), 4);
  });
});
