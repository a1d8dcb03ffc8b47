import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildDictionary, type Row } from '../../../src/dictionary/build.js';
import { identifierIndexName, identifierIndexReplacement, indexStatements, tableIndexes } from '../../../src/dictionary/ddl.js';
import { describeIndex, indexMatches, type PhysicalIndex } from '../../../src/dictionary/sync.js';
import { readSeed } from '../../../src/seed/bootstrap.js';
import { col } from '../records/fixture-dictionary.js';

const tableIndex = (id: number, table: number, name: string, extra: Row = {}): Row => ({ ad_tableindex_id: id, ad_table_id: table, name, isunique: 'N', isactive: 'Y', ...extra });
const indexColumn = (id: number, index: number, seqno: number, extra: Row): Row => ({ ad_indexcolumn_id: id, ad_tableindex_id: index, seqno, isactive: 'Y', ...extra });

/** A contact table (with a virtual column) and a partner table, with the indexes the tests ask for. */
function dictionaryWith(tableIndexes: Row[], indexColumns: Row[]) {
  return buildDictionary({
    tables: [
      { ad_table_id: 114, tablename: 'AD_User', name: 'User', accesslevel: '7', isactive: 'Y' },
      { ad_table_id: 291, tablename: 'C_BPartner', name: 'Business Partner', accesslevel: '3', isactive: 'Y' },
    ],
    columns: [
      col(1, 114, 'AD_User_ID', 13, { iskey: 'Y' }),
      col(2, 114, 'AD_User_UU', 10),
      col(3, 114, 'AD_Client_ID', 19),
      col(4, 114, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
      col(5, 114, 'EMail', 10),
      col(6, 114, 'C_BPartner_ID', 30),
      col(7, 114, 'NameLength', 11, { columnsql: 'length(Name)' }),
      col(20, 291, 'C_BPartner_ID', 13, { iskey: 'Y' }),
      col(21, 291, 'Value', 10),
    ],
    references: [],
    refLists: [],
    refTables: [],
    valRules: [],
    tableIndexes,
    indexColumns,
  });
}

describe('dictionary indexes', () => {
  it('gives a table its active indexes, columns in SeqNo order, names in lower case', () => {
    const dict = dictionaryWith(
      [tableIndex(2, 114, 'AD_User_Client_EMail', { isunique: 'Y' }), tableIndex(1, 114, 'AD_User_BPartner'), tableIndex(3, 114, 'ad_user_old', { isactive: 'N' })],
      [
        indexColumn(10, 1, 10, { ad_column_id: 6 }),
        indexColumn(11, 2, 20, { columnsql: 'lower(EMail)' }),
        indexColumn(12, 2, 10, { ad_column_id: 3 }),
        indexColumn(13, 2, 30, { ad_column_id: 4, isactive: 'N' }),
        indexColumn(14, 3, 10, { ad_column_id: 5 }),
      ],
    );
    assert.deepEqual(dict.byName.get('ad_user')!.indexes, [
      { name: 'ad_user_bpartner', unique: false, columns: [{ column: 'c_bpartner_id' }], include: [] },
      { name: 'ad_user_client_email', unique: true, columns: [{ column: 'ad_client_id' }, { expression: 'lower(EMail)' }], include: [] },
    ]);
    assert.deepEqual(dict.byName.get('c_bpartner')!.indexes, []);
  });

  it('leaves out an index naming a column it cannot store', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'ad_user_foreign'), tableIndex(2, 114, 'ad_user_virtual'), tableIndex(3, 114, 'ad_user_empty')],
      [indexColumn(10, 1, 10, { ad_column_id: 21 }), indexColumn(11, 1, 20, { ad_column_id: 5 }), indexColumn(12, 2, 10, { ad_column_id: 7 })],
    );
    assert.deepEqual(dict.byName.get('ad_user')!.indexes, []);
  });

  it('creates the dictionary indexes after the ones every table gets', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'AD_User_BPartner'), tableIndex(2, 114, 'AD_User_Client_EMail', { isunique: 'Y' })],
      [indexColumn(10, 1, 10, { ad_column_id: 6 }), indexColumn(11, 2, 10, { ad_column_id: 3 }), indexColumn(12, 2, 20, { columnsql: 'lower(EMail)' })],
    );
    assert.deepEqual(indexStatements(dict.byName.get('ad_user')!), [
      'CREATE UNIQUE INDEX IF NOT EXISTS "ad_user_uu_idx" ON "ad_user" ("ad_user_uu")',
      'CREATE INDEX IF NOT EXISTS "ad_user_ident_idx" ON "ad_user" ("name")',
      'CREATE INDEX IF NOT EXISTS "ad_user_bpartner" ON "ad_user" ("c_bpartner_id")',
      'CREATE UNIQUE INDEX IF NOT EXISTS "ad_user_client_email" ON "ad_user" ("ad_client_id", (lower(EMail)))',
    ]);
  });

  it('renders included columns after the key columns, each group in SeqNo order', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'AD_User_BPartner_Covering', { isunique: 'Y' })],
      [
        indexColumn(10, 1, 30, { ad_column_id: 5, isincluded: 'Y' }),
        indexColumn(11, 1, 20, { ad_column_id: 3, isincluded: 'N' }),
        indexColumn(12, 1, 10, { ad_column_id: 6 }),
        indexColumn(13, 1, 15, { ad_column_id: 4, isincluded: 'Y' }),
      ],
    );
    const table = dict.byName.get('ad_user')!;
    assert.deepEqual(table.indexes, [
      { name: 'ad_user_bpartner_covering', unique: true, columns: [{ column: 'c_bpartner_id' }, { column: 'ad_client_id' }], include: ['name', 'email'] },
    ]);
    assert.equal(
      indexStatements(table).at(-1),
      'CREATE UNIQUE INDEX IF NOT EXISTS "ad_user_bpartner_covering" ON "ad_user" ("c_bpartner_id", "ad_client_id") INCLUDE ("name", "email")',
    );
  });

  it('leaves out an index that includes an expression or a column it cannot store, or has no key column', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'ad_user_include_expression'), tableIndex(2, 114, 'ad_user_include_virtual'), tableIndex(3, 114, 'ad_user_include_only'), tableIndex(4, 114, 'ad_user_kept')],
      [
        indexColumn(10, 1, 10, { ad_column_id: 6 }),
        indexColumn(11, 1, 20, { columnsql: 'lower(EMail)', isincluded: 'Y' }),
        indexColumn(12, 2, 10, { ad_column_id: 6 }),
        indexColumn(13, 2, 20, { ad_column_id: 7, isincluded: 'Y' }),
        indexColumn(14, 3, 10, { ad_column_id: 5, isincluded: 'Y' }),
        indexColumn(15, 4, 10, { ad_column_id: 6 }),
        indexColumn(16, 4, 20, { ad_column_id: 5, isincluded: 'Y' }),
      ],
    );
    assert.deepEqual(
      dict.byName.get('ad_user')!.indexes.map((i) => i.name),
      ['ad_user_kept'],
    );
  });

  it('a dictionary index led by the first identifier replaces the built-in identifier index', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'AD_User_Name')],
      [indexColumn(10, 1, 10, { ad_column_id: 4 }), indexColumn(11, 1, 20, { ad_column_id: 3, isincluded: 'Y' })],
    );
    const table = dict.byName.get('ad_user')!;
    assert.equal(identifierIndexReplacement(table)?.name, 'ad_user_name');
    assert.deepEqual(indexStatements(table), [
      'CREATE UNIQUE INDEX IF NOT EXISTS "ad_user_uu_idx" ON "ad_user" ("ad_user_uu")',
      'CREATE INDEX IF NOT EXISTS "ad_user_name" ON "ad_user" ("name") INCLUDE ("ad_client_id")',
    ]);
  });

  it('an index that has the identifier only behind another column, or only included, leaves the built-in one', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'AD_User_Client_Name'), tableIndex(2, 114, 'AD_User_BPartner_Name'), tableIndex(3, 114, 'AD_User_Lower_Name')],
      [
        indexColumn(10, 1, 10, { ad_column_id: 3 }),
        indexColumn(11, 1, 20, { ad_column_id: 4 }),
        indexColumn(12, 2, 10, { ad_column_id: 6 }),
        indexColumn(13, 2, 20, { ad_column_id: 4, isincluded: 'Y' }),
        indexColumn(14, 3, 10, { columnsql: 'lower(Name)' }),
      ],
    );
    const table = dict.byName.get('ad_user')!;
    assert.equal(identifierIndexReplacement(table), undefined);
    assert.deepEqual(
      tableIndexes(table).map((i) => i.name),
      ['ad_user_uu_idx', identifierIndexName(table), 'ad_user_client_name', 'ad_user_bpartner_name', 'ad_user_lower_name'],
    );
    assert.equal(identifierIndexName(table), 'ad_user_ident_idx');
  });

  it('cuts index names to the 63 characters PostgreSQL keeps', () => {
    const long = 'ad_user_' + 'x'.repeat(80);
    const dict = dictionaryWith([tableIndex(1, 114, long)], [indexColumn(10, 1, 10, { ad_column_id: 6 })]);
    assert.equal(dict.byName.get('ad_user')!.indexes[0]!.name, long.slice(0, 63));
  });

  it('resolves every index of the seed, column by column', () => {
    const { data, dict } = readSeed();
    const seeded = data.get('AD_TableIndex') ?? [];
    const columns = data.get('AD_IndexColumn') ?? [];
    const built = new Map(dict.tables.flatMap((t) => t.indexes.map((i) => [i.name, { table: t.name, index: i }] as const)));
    assert.ok(seeded.length > 0);
    for (const row of seeded) {
      const found = built.get(String(row.Name).toLowerCase());
      assert.ok(found, `${String(row.Name)} is built`);
      assert.equal(found.table, dict.byId.get(Number(row.AD_Table_ID))!.name);
      const declared = columns.filter((c) => c.AD_TableIndex_ID === row.AD_TableIndex_ID);
      assert.equal(found.index.columns.length, declared.filter((c) => c.IsIncluded !== 'Y').length, `${String(row.Name)} keeps all its key columns`);
      assert.equal(found.index.include.length, declared.filter((c) => c.IsIncluded === 'Y').length, `${String(row.Name)} keeps all its included columns`);
    }
    assert.deepEqual(dict.byName.get('ad_user')!.indexes.find((i) => i.name === 'ad_user_bpartner')?.columns, [{ column: 'c_bpartner_id' }]);
  });

  it('the seed gives business partners a name index that covers their counts, in place of the identifier index', () => {
    const { dict } = readSeed();
    const partner = dict.byName.get('c_bpartner')!;
    assert.deepEqual(
      partner.indexes.find((i) => i.name === 'c_bpartner_name'),
      { name: 'c_bpartner_name', unique: false, columns: [{ column: 'name' }], include: ['ad_client_id', 'ad_org_id', 'isactive', 'iscustomer', 'isvendor', 'isemployee'] },
    );
    const names = tableIndexes(partner).map((i) => i.name);
    assert.ok(names.includes('c_bpartner_name'));
    assert.ok(!names.includes('c_bpartner_ident_idx'), names.join(', '));
    assert.ok(tableIndexes(dict.byName.get('c_order')!).some((i) => i.name === 'c_order_ident_idx'), 'other tables keep theirs');
  });

  it('a physical index matches its definition only with the same uniqueness, keys and included columns, and no WHERE', () => {
    const dict = dictionaryWith(
      [tableIndex(1, 114, 'ad_user_covering', { isunique: 'Y' }), tableIndex(2, 114, 'ad_user_email_lower')],
      [
        indexColumn(10, 1, 10, { ad_column_id: 6 }),
        indexColumn(11, 1, 20, { ad_column_id: 5, isincluded: 'Y' }),
        indexColumn(12, 2, 10, { ad_column_id: 3 }),
        indexColumn(13, 2, 20, { columnsql: 'lower(EMail)' }),
      ],
    );
    const [covering, lower] = tableIndexes(dict.byName.get('ad_user')!).slice(-2);
    const same: PhysicalIndex = { unique: true, keys: ['c_bpartner_id'], include: ['email'], partial: false };
    assert.equal(indexMatches(covering!, same), true);
    assert.equal(indexMatches(covering!, { ...same, unique: false }), false, 'uniqueness');
    assert.equal(indexMatches(covering!, { ...same, keys: ['c_bpartner_id', 'email'], include: [] }), false, 'an included column made a key');
    assert.equal(indexMatches(covering!, { ...same, include: [] }), false, 'an included column missing');
    assert.equal(indexMatches(covering!, { ...same, include: ['name'] }), false, 'another included column');
    assert.equal(indexMatches(covering!, { ...same, keys: ['ad_client_id'] }), false, 'another key column');
    assert.equal(indexMatches(covering!, { ...same, keys: [null] }), false, 'an expression for a column');
    assert.equal(indexMatches(covering!, { ...same, partial: true }), false, 'a WHERE clause');

    // PostgreSQL spells the expression its own way (lower((email)::text)), so only its place is compared.
    const physicalLower: PhysicalIndex = { unique: false, keys: ['ad_client_id', null], include: [], partial: false };
    assert.equal(indexMatches(lower!, physicalLower), true);
    assert.equal(indexMatches(lower!, { ...physicalLower, keys: ['ad_client_id', 'email'] }), false, 'a column for an expression');
    assert.equal(indexMatches(lower!, { ...physicalLower, keys: ['ad_client_id'] }), false, 'a key missing');

    assert.equal(describeIndex(same), 'UNIQUE (c_bpartner_id) INCLUDE (email)');
    assert.equal(describeIndex({ ...physicalLower, partial: true }), '(ad_client_id, <expression>) WHERE …');
  });
});
