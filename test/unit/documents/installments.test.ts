import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isValidSchedule, splitInstallments } from '../../../src/documents/payschedule/installments.js';

const row = (id: number, percentage: number, netDays: number, discount = 0, discountDays = 0) => ({ id, percentage, discount, netDays, discountDays });

describe('installments of a payment schedule', () => {
  it('splits the grand total by percentage, the discount of each installment a percentage of it', () => {
    assert.deepEqual(splitInstallments('200.00', 2, [row(1, 50, 0, 2, 10), row(2, 50, 30)]), [
      { scheduleId: 1, dueAmt: '100.00', discountAmt: '2.00', netDays: 0, discountDays: 10 },
      { scheduleId: 2, dueAmt: '100.00', discountAmt: '0.00', netDays: 30, discountDays: 0 },
    ]);
  });

  it('rounds each installment half up and gives the rounding remainder to the last one', () => {
    const parts = splitInstallments('100.01', 2, [row(1, 50, 0), row(2, 50, 30)]);
    assert.deepEqual(parts.map((p) => p.dueAmt), ['50.01', '50.00']);
    const thirds = splitInstallments('100.00', 2, [row(1, 33.33, 0), row(2, 33.33, 30), row(3, 33.34, 60)]);
    assert.deepEqual(thirds.map((p) => p.dueAmt), ['33.33', '33.33', '33.34']);
    const odd = splitInstallments('10.00', 2, [row(1, 33.333, 0), row(2, 66.667, 30)]);
    assert.deepEqual(odd.map((p) => p.dueAmt), ['3.33', '6.67']);
  });

  it('a schedule is valid when its percentages add up to 100', () => {
    assert.equal(isValidSchedule([50, '50']), true);
    assert.equal(isValidSchedule([60]), false);
    assert.equal(isValidSchedule(['33.33', '33.33', '33.34']), true);
  });
});
