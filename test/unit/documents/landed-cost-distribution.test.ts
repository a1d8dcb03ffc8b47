import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toText } from '../../../src/documents/decimal.js';
import { distribute } from '../../../src/documents/landedcost/distribute.js';

const shares = (amount: string | number, bases: (string | number)[], precision = 2) => distribute(amount, bases, precision)?.map((s) => toText(s)) ?? null;

describe('landed cost distribution', () => {
  it('shares an amount in proportion to the bases', () => {
    assert.deepEqual(shares(100, [10, 30]), ['25.00', '75.00']);
    assert.deepEqual(shares('50.00', [1, 1]), ['25.00', '25.00']);
  });

  it('puts what rounding leaves over on the largest share, so the shares add up to the amount exactly', () => {
    // 100 / 3 = 33.33 each, 0.01 left: the first of the equal shares takes it.
    assert.deepEqual(shares(100, [1, 1, 1]), ['33.34', '33.33', '33.33']);
    // 10 × 2/7 = 2.857 → 2.86, 10 × 5/7 = 7.143 → 7.14: they add up to 10 already.
    assert.deepEqual(shares(10, [2, 5]), ['2.86', '7.14']);
    // 0.05 over 3, 3 and 4: 0.015 → 0.02 twice, 0.02, sum 0.06: the first of the equal largest shares gives back 0.01.
    assert.deepEqual(shares('0.05', [3, 3, 4]), ['0.01', '0.02', '0.02']);
    const many = shares('1000.00', [3, 7, 11, 13, 17, 19]);
    assert.equal(many!.reduce((n, s) => n + Math.round(Number(s) * 100), 0), 100000);
  });

  it('gives nothing to a zero base and rounds to the currency precision', () => {
    assert.deepEqual(shares(90, [0, 2, 1]), ['0.00', '60.00', '30.00']);
    assert.deepEqual(shares(100, [1, 2], 0), ['33', '67']);
  });

  it('answers null when the bases add up to zero', () => {
    assert.equal(shares(100, [0, 0]), null);
    assert.equal(shares(100, []), null);
    assert.equal(shares(100, [2, -2]), null);
  });

  it('shares a negative amount (a reversal) the same way', () => {
    assert.deepEqual(shares(-100, [1, 1, 1]), ['-33.34', '-33.33', '-33.33']);
  });
});
