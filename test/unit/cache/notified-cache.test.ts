import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NotifiedCache } from '../../../src/cache/notified-cache.js';

describe('NotifiedCache', () => {
  it('stores what a read returns when no clear came during the read', () => {
    const cache = new NotifiedCache<string, number>();
    const started = cache.readStarted();
    assert.equal(cache.set('a', 1, started), true);
    assert.equal(cache.get('a'), 1);
  });

  it('drops what a read returns when a clear came during the read', () => {
    const cache = new NotifiedCache<string, number>();
    const before = cache.readStarted();
    cache.clear();
    assert.equal(cache.set('a', 1, before), false);
    assert.equal(cache.get('a'), undefined);
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

  it('keeps at most maxEntries, dropping the one used longest ago', () => {
    const cache = new NotifiedCache<string, number>(2);
    cache.set('a', 1, cache.readStarted());
    cache.set('b', 2, cache.readStarted());
    assert.equal(cache.get('a'), 1); // used: now the newest
    cache.set('c', 4, cache.readStarted());
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 4);
  });

  it('keeps a stored null apart from a missing entry (a setting that is not there is cached too)', () => {
    const cache = new NotifiedCache<string, string | null>();
    cache.set('absent', null, cache.readStarted());
    assert.equal(cache.get('absent'), null);
    assert.equal(cache.get('never-read'), undefined);
  });
});
