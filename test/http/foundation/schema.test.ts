import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { compareSchema, synchroniseSchema } from '../../../src/dictionary/sync.js';
import { loadDictionary } from '../../../src/dictionary/load.js';

describe('dictionary and physical schema', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('agree for every table', async () => {
    const diffs = await compareSchema(server.services.db, server.services.dictionary.current);
    assert.deepEqual(diffs, []);
  });

  it('the dictionary describes itself and every physical table', async () => {
    const dict = server.services.dictionary.current;
    for (const name of ['AD_Table', 'AD_Column', 'AD_Reference', 'AD_Ref_List', 'AD_Ref_Table', 'AD_Val_Rule', 'AD_Element', 'AD_Sequence', 'AD_SysConfig']) {
      assert.ok(dict.byName.get(name.toLowerCase()), `${name} is described`);
    }
    const { rows } = await server.services.db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`);
    const undocumented = rows.map((r) => r.tablename).filter((t) => !dict.byName.has(t));
    assert.deepEqual(undocumented, []);
    const adColumn = dict.byName.get('ad_column')!;
    assert.equal(adColumn.keyColumn?.name, 'AD_Column_ID');
    assert.ok(adColumn.byName.get('ad_reference_id'));
  });

  it('every table has the standard columns and a UUID column', () => {
    for (const t of server.services.dictionary.current.tables) {
      for (const c of ['ad_client_id', 'ad_org_id', 'isactive', 'created', 'createdby', 'updated', 'updatedby']) {
        assert.ok(t.byName.has(c), `${t.name}.${c}`);
      }
      assert.ok(t.uuColumn, `${t.name} has a UUID column`);
    }
  });

  it('a column added to the dictionary appears in the database once synchronised', async () => {
    const db = server.services.db;
    await db.query(
      `INSERT INTO ad_column (ad_column_id, ad_column_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         ad_table_id, columnname, name, ad_reference_id, fieldlength, iskey, isparent, ismandatory, isupdateable, isidentifier, seqno, entitytype, ad_element_id)
       SELECT nextval('ad_column_sq'), gen_random_uuid()::text, 0, 0, 'Y', now(), 100, now(), 100,
         t.ad_table_id, 'Nickname', 'Nickname', 10, 40, 'N', 'N', 'N', 'Y', 'N', 0, 'U', (SELECT min(ad_element_id) FROM ad_element)
       FROM ad_table t WHERE t.tablename = 'C_BPartner'`,
    );
    const dict = await loadDictionary(db, 99);
    const before = await compareSchema(db, dict);
    assert.deepEqual(before.map((d) => `${d.table}.${d.column}:${d.problem}`), ['C_BPartner.Nickname:missing column']);
    const applied = await synchroniseSchema(db, dict);
    assert.equal(applied.length, 1);
    assert.deepEqual(await compareSchema(db, dict), []);
    const { rows } = await db.query(`SELECT nickname FROM c_bpartner LIMIT 1`);
    assert.equal(rows.length, 1);
  });
});
