import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import type { Queryable } from '../../../src/db/types.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { compareSchema, synchroniseSchema } from '../../../src/dictionary/sync.js';
import { systemLogin } from '../../helpers/login.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually } from '../../helpers/wait.js';

/** The definition of a physical index, or undefined when there is none of that name. */
async function indexDef(db: Queryable, name: string): Promise<{ tablename: string; indexdef: string } | undefined> {
  const { rows } = await db.query<{ tablename: string; indexdef: string }>(
    'SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1',
    [name],
  );
  return rows[0];
}

describe('indexes described by the dictionary', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('the seeded indexes exist in the database', async () => {
    const db = server.services.db;
    const bpartner = await indexDef(db, 'ad_user_bpartner');
    assert.equal(bpartner?.tablename, 'ad_user');
    assert.match(bpartner!.indexdef, /^CREATE INDEX ad_user_bpartner ON \S*ad_user USING btree \(c_bpartner_id\)$/);
    const price = await indexDef(db, 'm_productprice_plv_product');
    assert.match(price!.indexdef, /^CREATE UNIQUE INDEX .* \(m_pricelist_version_id, m_product_id\)$/);
    const value = await indexDef(db, 'c_bpartner_value');
    assert.match(value!.indexdef, /^CREATE UNIQUE INDEX .* \(ad_client_id, value\)$/);
  });

  it('the System role reads the index tables through the API', async () => {
    const token = await systemLogin(server);
    const r = await server.request('GET', `/api/v1/models/ad_tableindex?$filter=Name eq 'ad_user_bpartner'&$expand=AD_IndexColumn`, { token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['row-count'], 1);
    const index = r.body.records[0];
    assert.equal(index.AD_Table_ID.id, 114);
    assert.equal(index.IsUnique, false);
    assert.equal(index.AD_IndexColumn.length, 1);
    assert.equal(index.AD_IndexColumn[0].AD_Column_ID.id, server.services.dictionary.current.byName.get('ad_user')!.byName.get('c_bpartner_id')!.id);
  });

  it('an index added through the API exists once the schema is synchronised', async () => {
    const token = await systemLogin(server);
    const created = await server.request('POST', '/api/v1/models/ad_tableindex', {
      token,
      body: {
        Name: 'AD_User_EMail_Lower',
        AD_Table_ID: 114,
        IsUnique: false,
        AD_IndexColumn: [
          { AD_Column_ID: server.services.dictionary.current.byName.get('ad_user')!.byName.get('ad_client_id')!.id, SeqNo: 10 },
          { ColumnSQL: 'lower(EMail)', SeqNo: 20 },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(() => server.services.dictionary.current.byName.get('ad_user')!.indexes.some((x) => x.name === 'ad_user_email_lower'), 'the index is in the cache');
    const dict = server.services.dictionary.current;
    assert.deepEqual(dict.byName.get('ad_user')!.indexes.find((x) => x.name === 'ad_user_email_lower')?.columns, [{ column: 'ad_client_id' }, { expression: 'lower(EMail)' }]);

    assert.equal(await indexDef(server.services.db, 'ad_user_email_lower'), undefined);
    const applied = await synchroniseSchema(server.services.db, dict);
    assert.deepEqual(applied, [{ table: 'AD_User', index: 'ad_user_email_lower', problem: 'missing index' }]);
    const def = await indexDef(server.services.db, 'ad_user_email_lower');
    assert.match(def!.indexdef, /\(ad_client_id, lower\(\(email\)::text\)\)$/);
    assert.deepEqual(await compareSchema(server.services.db, dict), []);
  });

  it('the migration brings the index tables and the seeded indexes to a database that lacks them', async () => {
    const db = server.services.db;
    // The state of a database built before the migration, with a duplicate search key the unique index cannot allow.
    await db.exec(`DROP TABLE ad_tableindex; DROP TABLE ad_indexcolumn; DROP SEQUENCE ad_tableindex_sq; DROP SEQUENCE ad_indexcolumn_sq;
      DROP INDEX ad_user_bpartner; DROP INDEX c_bpartner_value;
      DELETE FROM ad_column WHERE ad_table_id IN (909, 910); DELETE FROM ad_table WHERE ad_table_id IN (909, 910);
      DELETE FROM ad_element WHERE columnname IN ('AD_TableIndex_ID', 'AD_IndexColumn_ID');
      DELETE FROM ad_sequence WHERE name IN ('AD_TableIndex', 'AD_IndexColumn') AND istableid = 'Y';
      UPDATE c_bpartner SET value = 'JoeBlock' WHERE c_bpartner_id = 117;
      DELETE FROM dictum.migration WHERE version = 3`);
    assert.deepEqual(await migrate(db), [3]);

    assert.equal((await indexDef(db, 'ad_user_bpartner'))?.tablename, 'ad_user');
    assert.equal(await indexDef(db, 'c_bpartner_value'), undefined, 'a unique index the rows do not allow is left out');
    const { rows } = await db.query<{ indexes: number; elements: number; sequences: number }>(
      `SELECT (SELECT count(*)::int FROM ad_tableindex) AS indexes,
              (SELECT count(*)::int FROM ad_element WHERE columnname IN ('AD_TableIndex_ID', 'AD_IndexColumn_ID')) AS elements,
              (SELECT count(*)::int FROM ad_sequence WHERE name IN ('AD_TableIndex', 'AD_IndexColumn') AND istableid = 'Y') AS sequences`,
    );
    assert.deepEqual(rows[0], { indexes: 7, elements: 2, sequences: 2 });
    const dict = await loadDictionary(db, 100);
    assert.ok(dict.byName.get('ad_indexcolumn')?.byName.has('columnsql'));
    assert.deepEqual(
      (await compareSchema(db, dict)).map((d) => `${d.table}.${d.index}:${d.problem}`),
      ['C_BPartner.c_bpartner_value:missing index'],
    );
  });

  it('migration 4 replaces the client + identifier indexes by identifier indexes', async () => {
    const db = server.services.db;
    await db.exec(`DROP INDEX c_bpartner_ident_idx; CREATE INDEX c_bpartner_client_ident_idx ON c_bpartner (ad_client_id, name);
      DELETE FROM dictum.migration WHERE version = 4`);
    assert.deepEqual(await migrate(db), [4]);
    assert.equal(await indexDef(db, 'c_bpartner_client_ident_idx'), undefined, 'the old index is gone');
    assert.match((await indexDef(db, 'c_bpartner_ident_idx'))?.indexdef ?? '', /\(name\)/);
  });
});
