import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildDictionary } from '../../../src/dictionary/build.js';
import type { Dictionary, Table } from '../../../src/dictionary/model.js';
import { recordText, recordWriter } from '../../../src/records/record-text.js';
import { serializeRecord, type SerializeOptions } from '../../../src/records/serialize.js';
import { fetchedColumns, outputColumns } from '../../../src/records/read/output-columns.js';
import { selectItems } from '../../../src/records/read/select-list.js';
import { packedValues, rowsOfValues, type SelectItem } from '../../../src/records/read/packed-row.js';
import { col } from './fixture-dictionary.js';

/** A table with a column of every kind a record shows, and the tables its lookups point at. */
function wideDictionary(extraColumns: ReturnType<typeof col>[] = []): Dictionary {
  return buildDictionary({
    tables: [
      { ad_table_id: 500, tablename: 'X_Wide', name: 'Wide', accesslevel: '3', isactive: 'Y' },
      { ad_table_id: 394, tablename: 'C_BP_Group', name: 'Group', accesslevel: '3', isactive: 'Y' },
      { ad_table_id: 111, tablename: 'AD_Language', name: 'Language', accesslevel: '4', isactive: 'Y' },
    ],
    columns: [
      col(1, 500, 'X_Wide_ID', 13, { iskey: 'Y' }),
      col(2, 500, 'X_Wide_UU', 200231),
      col(3, 500, 'IsActive', 20),
      col(4, 500, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
      col(5, 500, 'Qty', 29),
      col(6, 500, 'SeqNo', 11),
      col(7, 500, 'DateDoc', 15),
      col(8, 500, 'Created', 16),
      col(9, 500, 'StartTime', 24),
      col(10, 500, 'EventAt', 200133),
      col(11, 500, 'BinaryData', 23),
      col(12, 500, 'Props', 200267),
      col(13, 500, 'Logo_ID', 32),
      col(14, 500, 'C_BP_Group_ID', 19),
      col(15, 500, 'AD_Language', 18),
      col(16, 500, 'Status', 17, { ad_reference_value_id: 289, fieldlength: 2 }),
      col(17, 500, 'Kind', 17, { ad_reference_value_id: 290 }),
      col(18, 500, 'DocAction', 28, { ad_reference_value_id: 289 }),
      col(19, 500, 'Record_ID', 200202),
      col(20, 500, 'Password', 10, { issecure: 'Y' }),
      ...extraColumns,
      col(30, 394, 'C_BP_Group_ID', 13, { iskey: 'Y' }),
      col(31, 394, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
      col(40, 111, 'AD_Language', 10),
      col(41, 111, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
    ],
    references: [
      { ad_reference_id: 289, name: 'Status', validationtype: 'L', isactive: 'Y' },
      { ad_reference_id: 290, name: 'Kind (not a list)', validationtype: 'D', isactive: 'Y' },
    ],
    refLists: [
      { ad_ref_list_id: 1, ad_reference_id: 289, value: 'CO', name: 'Complete', isactive: 'Y' },
      { ad_ref_list_id: 2, ad_reference_id: 289, value: 'D', name: 'Draft "new"', isactive: 'Y' },
    ],
    refTables: [],
    valRules: [],
  });
}

const dict = wideDictionary();
const wide = dict.byName.get('x_wide')!;

function itemsOf(d: Dictionary, table: Table, select?: string[]): SelectItem[] {
  return selectItems(d, table, fetchedColumns(table, outputColumns(table, select)), 't');
}

/** One field of a row's text as PostgreSQL writes it: quoted when it must be, its quotes and backslashes doubled. */
function fieldText(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text === '' || /[",\\()\s]/.test(text) ? `"${text.replace(/["\\]/g, (c) => c + c)}"` : text;
}

/** The packed text of a row given by item name (missing names are null), as the database sends it. */
function packed(items: SelectItem[], byName: Record<string, unknown>): string {
  return `(${items.map((it) => fieldText(byName[it.name])).join(',')})`;
}

/** Both paths on one packed row: the text writer, and the object that JSON.stringify writes. */
function bothWays(d: Dictionary, table: Table, items: SelectItem[], text: string, o: SerializeOptions = {}) {
  const writer = recordWriter(d, table, items, o);
  assert.ok(writer, 'a writer for the table');
  const expected = JSON.stringify(serializeRecord(d, table, rowsOfValues(items, [packedValues(text, items)])[0]!, o));
  return { actual: recordText(writer, packedValues(text, items)), expected };
}

const FULL = {
  x_wide_id: 1000001,
  x_wide_uu: '0b6c3f4e-5a7d-4c1e-9f2a-1d2e3f4a5b6c',
  isactive: 'Y',
  name: 'Joe "the" \\ Block \u2028 \u0007 Ünïcødé ✓',
  qty: 12.5,
  seqno: 10,
  datedoc: '2024-02-29 00:00:00',
  created: '2024-02-29 13:45:06.123456',
  starttime: '1970-01-01 08:30:00',
  eventat: '2024-02-29 13:45:06+00',
  binarydata: '\\x68690a00ff',
  props: { a: [1, 'two', null], b: { c: true } },
  logo_id: 7,
  logo_id$d: 'aGVs\nbG8= ',
  c_bp_group_id: 103,
  c_bp_group_id$i: 'Standard "Customers"',
  ad_language: 'en_US ',
  ad_language$i: 'English (USA)',
  status: 'CO',
  kind: 'ZZ',
  docaction: 'D ',
  record_id: 42,
};

describe('records written as JSON text', () => {
  it('writes every column kind exactly as the record object stringifies', () => {
    const items = itemsOf(dict, wide);
    const { actual, expected } = bothWays(dict, wide, items, packed(items, FULL));
    assert.equal(actual, expected);
    // The writer is compared with the object path, and the object path with the spec's forms.
    const record = JSON.parse(actual);
    assert.equal(record.id, 1000001);
    assert.equal(record.Created, '2024-02-29T13:45:06Z');
    assert.equal(record.DateDoc, '2024-02-29');
    assert.deepEqual(record.C_BP_Group_ID, { propertyLabel: 'C_BP_Group_ID', id: 103, identifier: 'Standard "Customers"', 'model-name': 'c_bp_group' });
    assert.deepEqual(record.AD_Language, { propertyLabel: 'AD_Language', id: 'en_US', identifier: 'English (USA)', 'model-name': 'ad_language' });
    assert.deepEqual(record.DocAction, { propertyLabel: 'DocAction', id: 'D ', identifier: 'Draft "new"', 'model-name': 'ad_ref_list' });
    assert.equal(record.Kind, 'ZZ');
    assert.equal(record.BinaryData, Buffer.from('hi\n\u0000\u00ff', 'latin1').toString('base64'));
    assert.equal(record.Logo_ID.data, 'aGVsbG8=');
    assert.equal('Password' in record, false);
  });

  it('leaves out null values, and writes what an object would for odd values', () => {
    const items = itemsOf(dict, wide);
    const odd = [
      {},
      { x_wide_id: 5 },
      { x_wide_id: 5, x_wide_uu: '', isactive: 'N', qty: 'not a number', seqno: -0, status: 'XX', logo_id: 8, logo_id$d: '' },
      { c_bp_group_id: 104, c_bp_group_id$i: null, props: '{"as":"text"}', ad_language: 'de_DE', qty: 1e21 },
      { props: [1, 2], status: 'D', docaction: 'CO', created: '2024-01-01 00:00:00', eventat: '2024-06-01 10:00:00+02' },
      { isactive: true, name: 12, seqno: '7' },
    ];
    for (const row of odd) {
      const { actual, expected } = bothWays(dict, wide, items, packed(items, row));
      assert.equal(actual, expected, JSON.stringify(row));
    }
  });

  it('follows $select, the omitted link column and the model name like the object path', () => {
    const items = itemsOf(dict, wide, ['Name', 'Status']);
    const row = packed(items, FULL);
    const columns = outputColumns(wide, ['Name', 'Status']);
    for (const o of [{ columns }, { columns, modelName: false }, { columns, omit: columns[0]! }, { modelName: false }]) {
      const { actual, expected } = bothWays(dict, wide, items, row, o);
      assert.equal(actual, expected, JSON.stringify(Object.keys(o)));
    }
    assert.equal(bothWays(dict, wide, items, row, { columns }).actual.split('"Name"').length, 2);
  });

  it('writes {} for a record with no members', () => {
    const items = itemsOf(dict, wide, ['Name']);
    const { actual, expected } = bothWays(dict, wide, items, packed(items, {}), { columns: [], modelName: false });
    assert.equal(actual, '{}');
    assert.equal(expected, '{}');
  });

  it('declines records whose members an object would merge or drop, so that they are built as objects', () => {
    for (const name of ['id', 'model-name', '__proto__']) {
      const d = wideDictionary([col(50, 500, name, 10)]);
      const t = d.byName.get('x_wide')!;
      assert.equal(recordWriter(d, t, itemsOf(d, t)), null, name);
    }
  });
});
