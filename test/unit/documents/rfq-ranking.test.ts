import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rankByAmount } from '../../../src/documents/rfq/rank-responses.js';
import { netAmount } from '../../../src/documents/rfq/rfq-record.js';
import { workDates } from '../../../src/documents/rfq/rfq-rules.js';

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

  it('work start and delivery days give the complete date; start and complete give the days', () => {
    const planned: Record<string, unknown> = { dateworkstart: '2026-02-20 00:00:00', deliverydays: 10 };
    workDates(planned);
    assert.equal(planned.dateworkcomplete, '2026-03-02 00:00:00');
    const dated: Record<string, unknown> = { dateworkstart: new Date('2026-01-01T00:00:00Z'), dateworkcomplete: '2026-01-31 00:00:00', deliverydays: 0 };
    workDates(dated);
    assert.equal(dated.deliverydays, 30);
    const open: Record<string, unknown> = { dateworkstart: null, deliverydays: 5 };
    workDates(open);
    assert.equal(open.dateworkcomplete, undefined);
  });
});
