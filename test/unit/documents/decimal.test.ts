import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { add, compare, dec, div, isZero, mul, negated, round, sub, toNumber, toText } from '../../../src/documents/decimal.js';

describe('decimal values', () => {
  it('reads numbers, decimal text and exponents exactly', () => {
    assert.equal(toText(dec(23)), '23');
    assert.equal(toText(dec('12.50')), '12.50');
    assert.equal(toText(dec(-0.5)), '-0.5');
    assert.equal(toText(dec(1e-7)), '0.0000001');
    assert.equal(toText(dec('1.5e3')), '1500');
    assert.equal(toText(dec(null)), '0');
    assert.equal(toText(dec('.25')), '0.25');
    assert.throws(() => dec('abc'), RangeError);
    assert.throws(() => dec(Number.NaN), RangeError);
    assert.throws(() => dec('.'), RangeError);
  });

  it('adds, subtracts and multiplies without binary float error', () => {
    assert.equal(toNumber(add(0.1, 0.2)), 0.3);
    assert.equal(toText(sub('10.00', '0.01')), '9.99');
    assert.equal(toText(mul(1.005, 1)), '1.005');
    assert.equal(toNumber(mul('19.99', 3)), 59.97);
    assert.equal(compare(add(0.1, 0.2), 0.3), 0);
    assert.equal(compare(1, 2), -1);
    assert.ok(isZero('0.000'));
    // The widest scale of the two, whether their scales are the same or not.
    assert.equal(toText(add('1.25', '-1.25')), '0.00');
    assert.equal(toText(sub('1.5', '0.25')), '1.25');
    assert.equal(toText(sub('0.25', '1.5')), '-1.25');
    assert.equal(toText(sub(3, '3.00')), '0.00');
    assert.throws(() => sub('x', 'y'), /Not a decimal number: y/);
  });

  it('rounds HALF_UP: ties away from zero, like the original', () => {
    assert.equal(toText(round(1.005, 2)), '1.01', 'a float would give 1.00');
    assert.equal(toText(round(0.125, 2)), '0.13', 'HALF_EVEN would give 0.12');
    assert.equal(toText(round(-0.125, 2)), '-0.13');
    assert.equal(toText(round(0.124999, 2)), '0.12');
    assert.equal(toText(round(2.5, 0)), '3');
    assert.equal(toText(round(7, 2)), '7.00', 'widens when there are fewer digits');
  });

  it('divides to a scale, HALF_UP', () => {
    assert.equal(toText(div(1, 3, 4)), '0.3333');
    assert.equal(toText(div(2, 3, 4)), '0.6667');
    assert.equal(toText(div(-2, 3, 2)), '-0.67');
    assert.equal(toText(div('106', '1.06', 2)), '100.00');
    assert.throws(() => div(1, 0, 2), RangeError);
  });

  it('writes a text and its negation as 0 - a would, however often asked', () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(toText(' 12.50'), '12.50');
      assert.equal(toText('+007.10'), '7.10');
      assert.equal(toText('-0.00'), '0.00');
      assert.equal(negated('12.50'), toText(sub(0, '12.50')));
      assert.equal(negated('-0.5'), '0.5');
      assert.equal(negated('-0.00'), '0.00');
      assert.equal(negated('0.000'), toText(sub(0, '0.000')));
      assert.equal(negated(7), '-7');
      assert.equal(negated(dec('1.5e3')), '-1500');
    }
    assert.throws(() => toText('abc'), RangeError);
    assert.throws(() => negated('1.2.3'), RangeError);
  });
});
