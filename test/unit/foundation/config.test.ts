import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { defaultPoolSize, loadConfig } from '../../../src/config.js';

describe('configuration', () => {
  it('sizes the connection pool from the CPUs unless DB_POOL_SIZE says otherwise', () => {
    assert.equal(defaultPoolSize(2), 5);
    assert.equal(defaultPoolSize(8), 17);
    assert.equal(defaultPoolSize(0), 3, 'at least one CPU is assumed');
    assert.equal(defaultPoolSize(1000), 500, 'never above the largest pool DB_POOL_SIZE accepts');
    assert.equal(loadConfig({}).dbPoolSize, 2 * os.availableParallelism() + 1);
    assert.equal(loadConfig({ DB_POOL_SIZE: '12' }).dbPoolSize, 12);
    assert.throws(() => loadConfig({ DB_POOL_SIZE: '0' }), /DB_POOL_SIZE must be an integer from 1 to 500/);
    assert.throws(() => loadConfig({ DB_POOL_SIZE: 'ten' }), /DB_POOL_SIZE/);
  });
});
