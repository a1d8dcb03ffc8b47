import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { controlNumber, instanceDescription } from '../../../src/documents/attributes/instance-description.js';

const none = { isserno: 'N', islot: 'N', isguaranteedate: 'N' };

describe('attribute set instance descriptions', () => {
  it('puts the serial number after #, the lot between « and », then the guarantee day, joined by _', () => {
    const all = { isserno: 'Y', islot: 'Y', isguaranteedate: 'Y' };
    assert.equal(instanceDescription(all, { serno: 'SN1', lot: 'L7', guaranteedate: '2027-03-01 00:00:00' }), '#SN1_\u00abL7\u00bb_2027-03-01');
    assert.equal(instanceDescription(all, { lot: 'L7' }), '\u00abL7\u00bb');
    assert.equal(instanceDescription(all, { guaranteedate: new Date('2027-03-01T00:00:00Z') }), '2027-03-01');
  });

  it('puts the values of instance attributes first and those of product attributes last', () => {
    const lot = { ...none, islot: 'Y' };
    assert.equal(instanceDescription(lot, { lot: 'L1' }, { instance: ['Red', 'XL'], product: ['Oak'] }), 'Red_XL_\u00abL1\u00bb_Oak');
    assert.equal(instanceDescription(none, {}, { instance: [], product: ['', 'Oak'] }), '_Oak', 'a product attribute without a value still takes its place');
  });

  it('leaves out what the set does not use, and empty values', () => {
    assert.equal(instanceDescription(none, { serno: 'SN1', lot: 'L7', guaranteedate: '2027-03-01' }), '');
    assert.equal(instanceDescription({ ...none, islot: 'Y' }, { serno: 'SN1', lot: '' }), '');
  });

  it("takes the set's own brackets when each is one character other than a blank", () => {
    const set = { isserno: 'Y', islot: 'Y', isguaranteedate: 'N', sernocharsoverwrite: '[', sernochareoverwrite: ']', lotcharsoverwrite: ' ', lotchareoverwrite: '>>' };
    assert.equal(instanceDescription(set, { serno: '9', lot: 'A' }), '[9]_\u00abA\u00bb');
  });

  it('numbers a control as prefix, number and suffix', () => {
    assert.equal(controlNumber('LOT-', 100, null), 'LOT-100');
    assert.equal(controlNumber(null, '7', '/B'), '7/B');
  });
});
