import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ColumnInfo } from '../../../src/console-app/dictionary.js';
import { isList, isLookup, recordLabel } from '../../../src/console-app/dictionary.js';
import { listColumns } from '../../../src/console-app/records-view.js';
import { showValue } from '../../../src/console-app/show-value.js';

const column = (name: string, o: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name, label: name, reference: 10, referenceValue: null, mandatory: false, updateable: true, key: false, parent: false, identifier: false, selection: false, virtual: false, ...o,
});

describe('how the console shows values and chooses columns', () => {
  it('shows lookups and list values by identifier, booleans as Yes/No, nothing for null', () => {
    assert.equal(showValue({ propertyLabel: 'Group', id: 103, identifier: 'Standard Customers', 'model-name': 'c_bp_group' }), 'Standard Customers');
    assert.equal(showValue({ id: 'CO' }), 'CO');
    assert.equal(showValue(true), 'Yes');
    assert.equal(showValue(false), 'No');
    assert.equal(showValue(null), '');
    assert.equal(showValue(undefined), '');
    assert.equal(showValue(12.5), '12.5');
  });

  it('labels a choice by document number, search key and name, without repeating one', () => {
    assert.equal(recordLabel({ id: 118, Value: 'JoeBlock', Name: 'Joe Block' }), 'JoeBlock - Joe Block');
    assert.equal(recordLabel({ id: 1, Value: 'Standard', Name: 'Standard' }), 'Standard');
    assert.equal(recordLabel({ id: 102, DocumentNo: '80000' }), '80000');
    assert.equal(recordLabel({ id: 7 }), '7');
  });

  it('tells lookups and lists by their reference', () => {
    assert.ok(isLookup(column('C_BPartner_ID', { reference: 30 })));
    assert.ok(isLookup(column('C_DocTypeTarget_ID', { reference: 18, referenceValue: 170 })));
    assert.ok(isList(column('DeliveryRule', { reference: 17, referenceValue: 151 })));
    assert.ok(isList(column('DocAction', { reference: 28, referenceValue: 135 })));
    assert.ok(!isList(column('Processing', { reference: 28 })), 'a button without a list');
    assert.ok(!isLookup(column('Name')));
  });

  it('lists the identifying columns, else adds the mandatory ones, never the key or standard columns', () => {
    const partner = [column('C_BPartner_ID', { key: true, reference: 13 }), column('AD_Client_ID', { reference: 19, mandatory: true }), column('Value', { identifier: true }), column('Name', { identifier: true }), column('IsCustomer', { selection: true, reference: 20 }), column('Description')];
    assert.deepEqual(listColumns(partner).map((c) => c.name), ['Value', 'Name', 'IsCustomer']);
    const line = [column('C_OrderLine_ID', { key: true }), column('Line', { identifier: true, reference: 11 }), column('M_Product_ID', { reference: 30 }), column('QtyEntered', { reference: 29, mandatory: true }), column('IsDescription', { reference: 20, mandatory: true }), column('LineNetAmt', { reference: 12, mandatory: true, virtual: true })];
    assert.deepEqual(listColumns(line).map((c) => c.name), ['Line', 'QtyEntered']);
    const plain = Array.from({ length: 10 }, (_, i) => column(`Col${i}`));
    assert.equal(listColumns(plain).length, 7);
  });
});
