import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildDictionary, type Row } from '../../../src/dictionary/build.js';
import { indexStatements } from '../../../src/dictionary/ddl.js';
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
      { name: 'ad_user_bpartner', unique: false, columns: [{ column: 'c_bpartner_id' }] },
      { name: 'ad_user_client_email', unique: true, columns: [{ column: 'ad_client_id' }, { expression: 'lower(EMail)' }] },
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
      assert.equal(found.index.columns.length, columns.filter((c) => c.AD_TableIndex_ID === row.AD_TableIndex_ID).length, `${String(row.Name)} keeps all its columns`);
    }
    assert.deepEqual(dict.byName.get('ad_user')!.indexes.find((i) => i.name === 'ad_user_bpartner')?.columns, [{ column: 'c_bpartner_id' }]);
  });
});
