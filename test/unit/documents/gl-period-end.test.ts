import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toText } from '../../../src/documents/decimal.js';
import { accountedOf } from '../../../src/documents/gl-journal/journal-rules.js';
import { amountLine, difference, type OpenItem } from '../../../src/documents/period-end/revaluation.js';

const item = (o: Partial<OpenItem>): OpenItem => ({
  documentno: '1', ad_org_id: 11, c_bpartner_id: 118, account_id: 12110, grandtotal: '100', open: '100', acct_dr: '0', acct_cr: '0', reval_dr: '0', reval_cr: '0', ...o,
});

describe('GL journal and period-end amounts', () => {
  it('accounted amounts of a line are its source amounts at the rate, rounded half up to the precision', () => {
    assert.equal(accountedOf('81.88', '1.1', 2), '90.07');
    assert.equal(accountedOf('0.125', '1', 2), '0.13');
    assert.equal(accountedOf('-0.125', '1', 2), '-0.13');
    assert.equal(accountedOf(null, '1.1', 2), '0.00');
    assert.equal(accountedOf('100', '0.909090909091', 2), '90.91');
  });

  it('a receivable worth more at the new rate is a positive difference (a gain), a payable worth more a negative one (a loss)', () => {
    assert.equal(toText(difference(item({ acct_dr: '90.07', reval_dr: '98.26' }), 2)), '8.19');
    assert.equal(toText(difference(item({ acct_dr: '90.07', reval_dr: '85.00' }), 2)), '-5.07');
    assert.equal(toText(difference(item({ acct_cr: '110.00', reval_cr: '120.00' }), 2)), '-10.00');
    assert.equal(toText(difference(item({ acct_cr: '110.00', reval_cr: '100.00' }), 2)), '10.00');
  });

  it('only the open share of a partly paid invoice is revalued', () => {
    assert.equal(toText(difference(item({ grandtotal: '81.88', open: '40.94', acct_dr: '90.07', reval_dr: '98.26' }), 2)), '4.10');
    assert.equal(toText(difference(item({ grandtotal: '0', open: '0', acct_dr: '1', reval_dr: '2' }), 2)), '1.00');
  });

  it('a net difference becomes a debit when positive and a credit when negative', () => {
    assert.deepEqual(amountLine(difference(item({ acct_dr: '1', reval_dr: '3' }), 2)), { dr: '2.00', cr: '0' });
    assert.deepEqual(amountLine(difference(item({ acct_dr: '3', reval_dr: '1' }), 2)), { dr: '0', cr: '2.00' });
  });
});
