import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_POOL_SIZE, loadConfig } from '../../../src/config.js';

describe('configuration', () => {
  it('keeps 5 connections per instance unless DB_POOL_SIZE says otherwise', () => {
    assert.equal(DEFAULT_POOL_SIZE, 5);
    assert.equal(loadConfig({}).dbPoolSize, 5);
    assert.equal(loadConfig({ DB_POOL_SIZE: '' }).dbPoolSize, 5, 'an empty setting is no setting');
    assert.equal(loadConfig({ DB_POOL_SIZE: '12' }).dbPoolSize, 12);
    assert.throws(() => loadConfig({ DB_POOL_SIZE: '0' }), /DB_POOL_SIZE must be an integer from 1 to 500, got '0'/);
    assert.throws(() => loadConfig({ DB_POOL_SIZE: '2.5' }), /DB_POOL_SIZE/);
    assert.throws(() => loadConfig({ DB_POOL_SIZE: 'ten' }), /DB_POOL_SIZE/);
  });

  it('gives embedded PGlite 16 MB of shared buffers unless DICTUM_PGLITE_SHARED_BUFFERS_MB says otherwise', () => {
    assert.equal(loadConfig({}).pgliteSharedBuffersMb, 16);
    assert.equal(loadConfig({ DICTUM_PGLITE_SHARED_BUFFERS_MB: '128' }).pgliteSharedBuffersMb, 128);
    assert.throws(() => loadConfig({ DICTUM_PGLITE_SHARED_BUFFERS_MB: '0' }), /DICTUM_PGLITE_SHARED_BUFFERS_MB must be an integer from 1 to 4096/);
  });

  it('keeps embedded PGlite in its data folder unless DICTUM_PGLITE_IN_MEMORY says otherwise', () => {
    assert.equal(loadConfig({}).pgliteInMemory, false);
    assert.equal(loadConfig({ DICTUM_PGLITE_IN_MEMORY: '1' }).pgliteInMemory, true);
    assert.equal(loadConfig({ DICTUM_PGLITE_IN_MEMORY: 'true' }).pgliteInMemory, true);
    assert.equal(loadConfig({ DICTUM_PGLITE_IN_MEMORY: '0' }).pgliteInMemory, false);
  });
});
