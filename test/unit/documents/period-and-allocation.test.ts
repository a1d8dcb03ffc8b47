import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judgePeriod, type PeriodRow } from '../../../src/documents/engine/period.js';
import { lineFacts } from '../../../src/documents/accounting/allocation-facts.js';
import type { LineInvoice, LinePayment, SettlementLine } from '../../../src/documents/engine/allocation-lines.js';
import { sub, toNumber } from '../../../src/documents/decimal.js';
import { convertAmounts } from '../../../src/documents/accounting/conversion.js';

const row = (o: Partial<PeriodRow> = {}): PeriodRow => ({ id: 7, name: 'Jan-26', auto: 'N', in_window: true, history: 10, future: 5, status: 'O', ...o });

describe('period verdict', () => {
  it('refuses a date no period holds', () => {
    assert.deepEqual(judgePeriod(undefined, '1999-01-04', 'ARI'), { open: false, reason: 'no open accounting period for 1999-01-04: no period holds it' });
  });
  it('automatic period control looks at the window only', () => {
    assert.deepEqual(judgePeriod(row({ auto: 'Y', status: 'C' }), '2026-01-05', 'ARI'), { open: true, periodId: 7 });
    const out = judgePeriod(row({ auto: 'Y', in_window: false }), '2026-01-05', 'ARI');
    assert.equal(out.open, false);
    assert.match(!out.open ? out.reason : '', /automatic period control keeps 10 days back and 5 days ahead open/);
  });
  it('standard control: the status of the control of the base type', () => {
    assert.deepEqual(judgePeriod(row(), '2026-01-05', 'ARI'), { open: true, periodId: 7 });
    for (const [status, text] of [['C', 'closed'], ['N', 'never opened'], ['P', 'permanently closed']]) {
      assert.deepEqual(judgePeriod(row({ status }), '2026-01-05', 'API'), { open: false, reason: `period Jan-26 is ${text} for API` });
    }
    assert.deepEqual(judgePeriod(row({ status: null }), '2026-01-05', 'API'), { open: false, reason: 'period Jan-26 has no period control for API' });
    assert.equal(judgePeriod(row(), '2026-01-05', null).open, false);
  });
});

describe('allocation line facts', () => {
  // Amounts in the original's signs: customer invoices and receipts positive, vendor invoices and payments negative.
  const invoice = (sales: boolean) => ({ id: 10, sales, bpartnerId: 118 }) as unknown as LineInvoice;
  const payment = (receipt: boolean) => ({ id: 20, receipt }) as unknown as LinePayment;
  const line = (o: Partial<SettlementLine>): SettlementLine => ({ id: 1, allocationIso: 'USD', bpartnerId: 118, amount: '92', discount: '5', writeoff: '3', invoice: invoice(true), payment: payment(true), ...o });
  const sums = (facts: ReturnType<typeof lineFacts>) => facts.map((f) => [f.account, toNumber(sub(f.dr ?? 0, f.cr ?? 0))]);
  it('customer: cash, discount expense and write-off against the receivable', () => {
    assert.deepEqual(sums(lineFacts(line({}))), [
      ['b_unallocatedcash_acct', 92],
      ['paydiscount_exp_acct', 5],
      ['writeoff_acct', 3],
      ['c_receivable_acct', -100],
    ]);
  });
  it('vendor (negative amounts): the liability against payment selection, discount revenue and write-off', () => {
    assert.deepEqual(sums(lineFacts(line({ amount: '-92', discount: '-5', writeoff: '-3', invoice: invoice(false), payment: payment(false) }))), [
      ['v_liability_acct', 100],
      ['paydiscount_rev_acct', -5],
      ['writeoff_acct', -3],
      ['b_paymentselect_acct', -92],
    ]);
  });
  it('an invoice without payment credits its receivable by the whole line; a payment without invoice debits its account', () => {
    assert.deepEqual(sums(lineFacts(line({ payment: null }))), [
      ['paydiscount_exp_acct', 5],
      ['writeoff_acct', 3],
      ['c_receivable_acct', -100],
    ]);
    assert.deepEqual(sums(lineFacts(line({ invoice: null, discount: '0', writeoff: '0' }))), [['b_unallocatedcash_acct', 92]]);
    assert.deepEqual(sums(lineFacts(line({ invoice: null, amount: '-92', discount: '0', writeoff: '0', payment: payment(false) }))), [['b_paymentselect_acct', -92]]);
  });
  it('the receivable names the invoice\'s partner, the other facts the line\'s', () => {
    const facts = lineFacts(line({ bpartnerId: 117 }));
    assert.deepEqual(facts.map((f) => f.bpartnerId), [117, 117, 117, 118]);
  });
});

describe('conversion of balanced amounts', () => {
  const text = (rows: ReturnType<typeof convertAmounts>) => rows.map((r) => [toNumber(r.dr), toNumber(r.cr)]);
  it('converts and rounds each amount', () => {
    assert.deepEqual(text(convertAmounts([{ dr: '81.88', cr: 0 }, { dr: 0, cr: '63.48' }, { dr: 0, cr: '18.40' }], { multiply: '1.1', precision: 2 })), [
      [90.07, 0],
      [0, 69.83],
      [0, 20.24],
    ]);
  });
  it('puts a rounding difference on the largest amount of the smaller side', () => {
    // 0.01 × 3 at 0.5 gives 0.01 (0.005 rounds up) debit, 3 × 0.01 credits of 0.01: 0.02 against 0.03.
    const out = text(convertAmounts([{ dr: '0.03', cr: 0 }, { dr: 0, cr: '0.01' }, { dr: 0, cr: '0.01' }, { dr: 0, cr: '0.01' }], { multiply: '0.5', precision: 2 }));
    const dr = out.reduce((n, r) => n + r[0]!, 0);
    const cr = out.reduce((n, r) => n + r[1]!, 0);
    assert.equal(Math.round(dr * 100), Math.round(cr * 100));
  });
});
