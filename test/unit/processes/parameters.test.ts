import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columnKind } from '../../../src/dictionary/display-type.js';
import { parseRunBody } from '../../../src/processes/parameters.js';
import type { ParamDef } from '../../../src/processes/process-definition.js';
import { slugify as processSlug } from '../../../src/dictionary/slug.js';
import { ApiError } from '../../../src/errors.js';

const param = (columnName: string, referenceId: number, o: Partial<ParamDef> = {}): ParamDef => ({
  id: 1,
  columnName,
  name: columnName,
  seqNo: 10,
  referenceId,
  referenceValueId: null,
  kind: columnKind(referenceId, columnName),
  isMandatory: false,
  isRange: false,
  defaultValue: null,
  defaultValue2: null,
  ...o,
});

const ORDER_DETAIL = [param('C_BPartner_ID', 200163), param('DateOrdered', 15, { isRange: true }), param('M_Product_ID', 30), param('IsSOTrx', 20, { defaultValue: 'Y' })];

describe('process slugs', () => {
  it('lower-case the value and turn other characters into dashes', () => {
    assert.equal(processSlug('RV_OrderDetail'), 'rv_orderdetail');
    assert.equal(processSlug('C_BPartner Validate'), 'c_bpartner-validate');
    assert.equal(processSlug('AD_Column Sync'), 'ad_column-sync');
    assert.equal(processSlug('  Café / Crème!  '), 'cafe-creme');
    assert.equal(processSlug('java-version'), 'java-version');
  });
});

describe('process run bodies', () => {
  it('read the collection example: a multiple selection, a date range and the report type', () => {
    const r = parseRunBody(ORDER_DETAIL, { C_BPartner_ID: '117,114', DateOrdered: '2022-01-01', DateOrdered_to: '2022-12-31', 'report-type': 'HTML' }, '2026-01-01');
    assert.deepEqual(r.params.get('C_BPartner_ID')?.value, [117, 114]);
    assert.equal(r.params.get('DateOrdered')?.value, '2022-01-01');
    assert.equal(r.params.get('DateOrdered')?.to, '2022-12-31');
    assert.equal(r.params.get('IsSOTrx')?.value, true, 'the default applies');
    assert.equal(r.params.has('M_Product_ID'), false);
    assert.equal(r.reportType, 'HTML');
    assert.equal(r.isSummary, false);
  });

  it('take column names in any case and the special members', () => {
    const r = parseRunBody(ORDER_DETAIL, { m_product_id: { id: 128 }, issotrx: 'N', 'is-summary': true, 'print-format-id': '200301', 'record-id': 5, 'model-name': 'c_order', 'notification-type': 'b' }, '2026-01-01');
    assert.equal(r.params.get('M_Product_ID')?.value, 128);
    assert.equal(r.params.get('IsSOTrx')?.value, false);
    assert.equal(r.isSummary, true);
    assert.equal(r.printFormatId, 200301);
    assert.equal(r.recordId, 5);
    assert.equal(r.modelName, 'c_order');
    assert.equal(r.notificationType, 'B');
    assert.equal(r.reportType, null);
  });

  it('read FileName parameters as a path or as content, and the login date default', () => {
    const defs = [param('FileName', 39), param('DateInvoiced', 15, { defaultValue: '@#Date@' })];
    const path = parseRunBody(defs, { FileName: 'in/partners.csv' }, '2026-05-04');
    assert.deepEqual(path.params.get('FileName')?.value, { path: 'in/partners.csv' });
    assert.equal(path.params.get('DateInvoiced')?.value, '2026-05-04');
    const content = parseRunBody(defs, { FileName: { fileContent: Buffer.from('a,b').toString('base64'), fileName: 'x.csv' } }, '2026-05-04');
    const v = content.params.get('FileName')?.value as { content: Buffer; fileName: string };
    assert.equal(v.content.toString(), 'a,b');
    assert.equal(v.fileName, 'x.csv');
  });

  it('refuse wrong values with 400 naming the parameter', () => {
    const cases: [unknown, RegExp][] = [
      [{ DateOrdered: 'soon' }, /DateOrdered/],
      [{ C_BPartner_ID: '117,abc' }, /C_BPartner_ID/],
      [{ IsSOTrx: 'maybe' }, /IsSOTrx/],
      [{ 'report-type': 'DOC' }, /report-type/],
      [{ 'record-id': -1 }, /record-id/],
      [{ 'notification-type': 'Z' }, /notification-type/],
      [[1], /JSON object/],
      ['text', /JSON object/],
    ];
    for (const [body, detail] of cases) {
      assert.throws(
        () => parseRunBody(ORDER_DETAIL, body, '2026-01-01'),
        (e: unknown) => e instanceof ApiError && e.status === 400 && detail.test(e.detail),
        JSON.stringify(body),
      );
    }
    assert.throws(() => parseRunBody([param('AD_Table_ID', 19, { isMandatory: true })], {}, '2026-01-01'), /AD_Table_ID is mandatory/);
    assert.equal(parseRunBody(ORDER_DETAIL, null, '2026-01-01').params.size, 1, 'no body is an empty one');
  });
});
