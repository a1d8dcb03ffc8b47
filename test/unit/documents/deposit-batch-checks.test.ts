import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { paymentProblem } from '../../../src/documents/depositbatch/deposit-batch-rules.js';
import { matchBatch } from '../../../src/documents/bankstatement/statement-batch-lines.js';

describe('deposit batch checks', () => {
  const batch = { id: 7, bankAccount: 100, currency: 100 };
  const ok = { documentno: 'P1', docstatus: 'CO', c_bankaccount_id: 100, c_currency_id: 100, isreconciled: 'N', other_batch: null, other_batch_no: null };

  it('accepts a completed or closed payment of the bank account and currency, free or already of this batch', () => {
    assert.equal(paymentProblem(ok, batch), null);
    assert.equal(paymentProblem({ ...ok, docstatus: 'CL' }, batch), null);
    assert.equal(paymentProblem({ ...ok, other_batch: 7 }, batch), null);
    assert.equal(paymentProblem({ ...ok, c_currency_id: 102 }, { ...batch, currency: null }), null);
  });

  it('names the first problem of a payment', () => {
    assert.equal(paymentProblem({ ...ok, docstatus: 'DR' }, batch), 'payment P1 is not completed (status DR)');
    assert.equal(paymentProblem({ ...ok, c_bankaccount_id: 101 }, batch), 'payment P1 is of another bank account');
    assert.equal(paymentProblem({ ...ok, c_currency_id: 102 }, batch), 'payment P1 is in another currency than the batch');
    assert.equal(paymentProblem({ ...ok, isreconciled: 'Y' }, batch), 'payment P1 is already reconciled');
    assert.equal(paymentProblem({ ...ok, other_batch: 8, other_batch_no: 'DB-8' }, batch), 'payment P1 is in deposit batch DB-8');
  });

  it('matches a batch by its number among the references, else the one of the line date', () => {
    const a = { id: 1, amount: '50', day: '2026-11-27', documentno: 'A' };
    const b = { id: 2, amount: '50', day: '2026-11-28', documentno: 'B' };
    const c = { id: 3, amount: '50', day: '2026-11-28', documentno: 'C' };
    assert.equal(matchBatch({ day: '2026-11-28', references: ['A'] }, [a, b, c]), a);
    assert.equal(matchBatch({ day: '2026-11-27', references: [] }, [a, b, c]), a);
    assert.equal(matchBatch({ day: '2026-11-28', references: [] }, [a, b, c]), null, 'two batches that day: none');
    assert.equal(matchBatch({ day: '2026-11-26', references: ['X'] }, [a, b]), null);
  });
});
