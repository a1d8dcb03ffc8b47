import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationMemo } from '../../../src/events/operation-memo.js';

describe('OperationMemo', () => {
  it('loads a value once per table and key', async () => {
    const memo = new OperationMemo();
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await memo.get('c_order', 'locked:1', load), 1);
    assert.equal(await memo.get('c_order', 'locked:1', load), 1);
    assert.equal(await memo.get('c_order', 'locked:2', load), 2);
    assert.equal(await memo.get('m_product', 'locked:1', load), 3, 'keys of another table are apart');
  });

  it('forgets a table it was told was written, and only that table', async () => {
    const memo = new OperationMemo();
    memo.set('c_order', 'locked:1', 'old header');
    memo.set('m_product', 'facts:5', 'product');
    memo.forget('c_order');
    assert.equal(memo.peek('c_order', 'locked:1'), undefined);
    assert.equal(await memo.get('c_order', 'locked:1', async () => 'fresh header'), 'fresh header');
    assert.equal(await memo.peek('m_product', 'facts:5'), 'product');
  });

  it('does not keep a failed load', async () => {
    const memo = new OperationMemo();
    await assert.rejects(memo.get('c_order', 'locked:1', async () => Promise.reject(new Error('lock timeout'))), /lock timeout/);
    await new Promise((r) => setImmediate(r));
    assert.equal(await memo.get('c_order', 'locked:1', async () => 'second try'), 'second try');
  });
});
