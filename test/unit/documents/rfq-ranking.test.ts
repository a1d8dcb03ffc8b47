import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rankByAmount } from '../../../src/documents/rfq/rank-responses.js';
import { netAmount } from '../../../src/documents/rfq/rfq-record.js';

describe('RfQ ranking', () => {
  it('ranks by amount, cheapest first; equal amounts share a rank and the next skips', () => {
    const quotes = [7, 5, 9, 5].map((price) => ({ price }));
    const ranks = rankByAmount(quotes, (q) => q.price);
    assert.deepEqual(quotes.map((q) => ranks.get(q)), [3, 1, 4, 1]);
    assert.equal(rankByAmount([], (n: number) => n).size, 0);
  });

  it('a net amount is the price less its discount percentage', () => {
    assert.equal(netAmount('6.50', '10'), 5.85);
    assert.equal(netAmount(4, null), 4);
    assert.equal(netAmount(null, 50), 0);
  });
});
