import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idOf, invalid, isEmptyValue, sameValue } from '../../../src/documents/row-values.js';

describe('row values of documents', () => {
  it('an id, amount or date is empty when null, blank or zero', () => {
    for (const v of [null, undefined, '', '  ', 0, '0', '0.00']) assert.equal(isEmptyValue(v), true, String(v));
    for (const v of [1, '12.5', '2026-01-01 00:00:00', 'N', -1]) assert.equal(isEmptyValue(v), false, String(v));
  });

  it('compares stored values by number or trimmed text', () => {
    assert.equal(sameValue(101, '101'), true);
    assert.equal(sameValue('23.00', 23), true);
    assert.equal(sameValue('P ', 'P'), true);
    assert.equal(sameValue(null, undefined), true);
    assert.equal(sameValue(null, 0), false);
    assert.equal(sameValue('B', 'P'), false);
  });

  it('reads positive ids only', () => {
    assert.equal(idOf(118), 118);
    assert.equal(idOf('118'), 118);
    assert.equal(idOf(0), null);
    assert.equal(idOf(null), null);
    assert.equal(idOf('x'), null);
  });

  it('refusals are 400 Validation Errors', () => {
    const e = invalid('Business partner 1 not found for column C_BPartner_ID');
    assert.equal(e.status, 400);
    assert.equal(e.title, 'Validation Errors');
  });
});
