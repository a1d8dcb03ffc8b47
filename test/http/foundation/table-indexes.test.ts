import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import type { Queryable } from '../../../src/db/types.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { compareSchema, synchroniseSchema } from '../../../src/dictionary/sync.js';
import { login, systemLogin } from '../../helpers/login.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { recordStatements } from '../../helpers/statements.js';
import { eventually } from '../../helpers/wait.js';

/** The definition of a physical index, or undefined when there is none of that name. */
async function indexDef(db: Queryable, name: string): Promise<{ tablename: string; indexdef: string } | undefined> {
  const { rows } = await db.query<{ tablename: string; indexdef: string }>(
    'SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1',
    [name],
  );
  return rows[0];
}

/** The plan nodes of a plan in EXPLAIN's JSON form, depth first. */
function planNodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(planNodes)];
}

const PARTNER_NAME_INDEX = /^CREATE INDEX c_bpartner_name ON \S*c_bpartner USING btree \(name\) INCLUDE \(ad_client_id, ad_org_id, isactive, iscustomer, isvendor, isemployee\)$/;

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
    // The client column closes it, as a table distributed by client needs (migration 293).
    assert.match(price!.indexdef, /^CREATE UNIQUE INDEX .* \(m_pricelist_version_id, m_product_id, ad_client_id\)$/);
    const value = await indexDef(db, 'c_bpartner_value');
    assert.match(value!.indexdef, /^CREATE UNIQUE INDEX .* \(ad_client_id, value\)$/);
  });

  it('business partners have a name index that includes what their counts filter on, and no identifier index', async () => {
    const db = server.services.db;
    const name = await indexDef(db, 'c_bpartner_name');
    assert.equal(name?.tablename, 'c_bpartner');
    assert.match(name!.indexdef, PARTNER_NAME_INDEX);
    assert.equal(await indexDef(db, 'c_bpartner_ident_idx'), undefined, 'the name index serves name-ordered pages');
    assert.match((await indexDef(db, 'c_order_ident_idx'))?.indexdef ?? '', /\(documentno\)$/, 'tables without such an index keep the built-in one');
    assert.deepEqual(await compareSchema(db, server.services.dictionary.current), []);
  });

  it('the count of a name-ordered list read is answered from the name index alone', async () => {
    const token = await login(server);
    const filter = encodeURIComponent("Name ge 'S' and Name lt 'T' and IsCustomer eq true");
    const { result, statements } = await recordStatements(server.services.db, () =>
      server.request('GET', `/api/v1/models/c_bpartner?$filter=${filter}&$orderby=Name&$top=2`, { token }),
    );
    assert.equal(result.status, 200, result.text);
    assert.equal(result.body.records.length, 2);
    assert.ok(result.body['row-count'] > 2, 'more partners match than the page holds, so the read counts them');
    const count = statements.find((s) => /count\(\*\)/.test(s.text));
    assert.ok(count, statements.map((s) => s.text).join('\n'));

    const db = server.services.db;
    // An index-only scan needs the visibility map that VACUUM sets; the few demo rows would
    // otherwise be read from the table, which is cheaper for them than any index.
    await db.exec('VACUUM c_bpartner');
    const plan = await db.tx(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      await tx.query('SET LOCAL enable_bitmapscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${count.text}`, count.params ? [...count.params] : []);
      const doc = rows[0]!['QUERY PLAN'];
      return (typeof doc === 'string' ? JSON.parse(doc) : doc) as { Plan: Record<string, unknown> }[];
    });
    const scans = planNodes(plan[0]!.Plan).filter((n) => n['Relation Name'] === 'c_bpartner');
    assert.deepEqual(
      scans.map((n) => [n['Node Type'], n['Index Name']]),
      [['Index Only Scan', 'c_bpartner_name']],
      JSON.stringify(plan),
    );
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

  it('an index column added through the API can be included; an expression cannot', async () => {
    const token = await systemLogin(server);
    const user = server.services.dictionary.current.byName.get('ad_user')!;
    const refused = await server.request('POST', '/api/v1/models/ad_tableindex', {
      token,
      body: {
        Name: 'AD_User_BPartner_Lower_EMail',
        AD_Table_ID: 114,
        AD_IndexColumn: [
          { AD_Column_ID: user.byName.get('c_bpartner_id')!.id, SeqNo: 10 },
          { ColumnSQL: 'lower(EMail)', SeqNo: 20, IsIncluded: true },
        ],
      },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /included index column must be a column of the table/);
    const none = await server.request('GET', `/api/v1/models/ad_tableindex?$filter=Name eq 'AD_User_BPartner_Lower_EMail'`, { token });
    assert.equal(none.body['row-count'], 0, 'the refused index is not written either');

    const created = await server.request('POST', '/api/v1/models/ad_tableindex', {
      token,
      body: {
        Name: 'AD_User_BPartner_EMail',
        AD_Table_ID: 114,
        AD_IndexColumn: [
          { AD_Column_ID: user.byName.get('email')!.id, SeqNo: 20, IsIncluded: true },
          { AD_Column_ID: user.byName.get('c_bpartner_id')!.id, SeqNo: 10 },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.AD_IndexColumn.map((c: { IsIncluded: boolean }) => c.IsIncluded).sort(), [false, true]);
    await eventually(() => server.services.dictionary.current.byName.get('ad_user')!.indexes.some((x) => x.name === 'ad_user_bpartner_email'), 'the index is in the cache');
    const dict = server.services.dictionary.current;
    const applied = await synchroniseSchema(server.services.db, dict);
    assert.deepEqual(applied, [{ table: 'AD_User', index: 'ad_user_bpartner_email', problem: 'missing index' }]);
    assert.match((await indexDef(server.services.db, 'ad_user_bpartner_email'))!.indexdef, /USING btree \(c_bpartner_id\) INCLUDE \(email\)$/);
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
    assert.deepEqual(rows[0], { indexes: 14, elements: 2, sequences: 2 });
    const dict = await loadDictionary(db, 100);
    assert.ok(dict.byName.get('ad_indexcolumn')?.byName.has('columnsql'));
    assert.deepEqual(
      (await compareSchema(db, dict)).map((d) => `${d.table}.${d.index}:${d.problem}`),
      ['C_BPartner.c_bpartner_value:missing index'],
    );
  });

  it('migration 4 replaces the client + identifier indexes by identifier indexes', async () => {
    const db = server.services.db;
    await db.exec(`DROP INDEX ad_user_ident_idx; CREATE INDEX ad_user_client_ident_idx ON ad_user (ad_client_id, name);
      DELETE FROM dictum.migration WHERE version = 4`);
    assert.deepEqual(await migrate(db), [4]);
    assert.equal(await indexDef(db, 'ad_user_client_ident_idx'), undefined, 'the old index is gone');
    assert.match((await indexDef(db, 'ad_user_ident_idx'))?.indexdef ?? '', /\(name\)$/);
  });

  it('migration 5 brings included index columns and drops identifier indexes that a dictionary index replaces', async () => {
    const db = server.services.db;
    const cityId = server.services.dictionary.current.byName.get('c_location')!.byName.get('city')!.id;
    // A database at migration 3: no IsIncluded, no c_bpartner_name, the built-in index on the
    // partner name; migration 4 loads its dictionary before migration 5 adds the column. It also
    // declares a unique index on addresses by city, which the demo addresses (several in one
    // city) do not allow.
    await db.exec(`DROP INDEX c_bpartner_name; CREATE INDEX c_bpartner_ident_idx ON c_bpartner (name);
      DELETE FROM ad_indexcolumn WHERE ad_tableindex_id = 200007; DELETE FROM ad_tableindex WHERE ad_tableindex_id = 200007;
      ALTER TABLE ad_indexcolumn DROP COLUMN isincluded;
      DELETE FROM ad_column WHERE ad_table_id = 910 AND columnname = 'IsIncluded'; DELETE FROM ad_element WHERE columnname = 'IsIncluded';
      DELETE FROM dictum.migration WHERE version IN (4, 5)`);
    await db.query(`INSERT INTO ad_tableindex (ad_tableindex_id, ad_client_id, ad_org_id, isactive, name, ad_table_id, isunique) VALUES (1000900, 0, 0, 'Y', 'c_location_city_unique', 162, 'Y')`);
    await db.query(`INSERT INTO ad_indexcolumn (ad_indexcolumn_id, ad_client_id, ad_org_id, isactive, ad_tableindex_id, ad_column_id, seqno) VALUES (1000900, 0, 0, 'Y', 1000900, $1, 10)`, [cityId]);
    assert.ok(await indexDef(db, 'c_location_ident_idx'));

    assert.deepEqual(await migrate(db), [4, 5]);

    assert.match((await indexDef(db, 'c_bpartner_name'))?.indexdef ?? '', PARTNER_NAME_INDEX);
    assert.equal(await indexDef(db, 'c_bpartner_ident_idx'), undefined, 'the replaced identifier index is dropped');
    assert.equal(await indexDef(db, 'c_location_city_unique'), undefined, 'the rows do not allow the unique index');
    assert.match((await indexDef(db, 'c_location_ident_idx'))?.indexdef ?? '', /\(city\)$/, 'so the identifier index stays');
    const { rows } = await db.query<{ included: number; keys: number; unset: number; columns: number; elements: number }>(
      `SELECT (SELECT count(*)::int FROM ad_indexcolumn WHERE isincluded = 'Y') AS included,
              (SELECT count(*)::int FROM ad_indexcolumn WHERE isincluded = 'N') AS keys,
              (SELECT count(*)::int FROM ad_indexcolumn WHERE isincluded IS NULL) AS unset,
              (SELECT count(*)::int FROM ad_column c JOIN ad_element e ON e.ad_element_id = c.ad_element_id
                WHERE c.ad_table_id = 910 AND c.columnname = 'IsIncluded' AND e.columnname = 'IsIncluded') AS columns,
              (SELECT count(*)::int FROM ad_element WHERE columnname = 'IsIncluded') AS elements`,
    );
    const keys = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ad_indexcolumn`);
    assert.deepEqual(rows[0], { included: 6, keys: keys.rows[0]!.n - 6, unset: 0, columns: 1, elements: 1 });

    const dict = await loadDictionary(db, 101);
    assert.deepEqual(dict.byName.get('c_bpartner')!.indexes.find((i) => i.name === 'c_bpartner_name')?.include, ['ad_client_id', 'ad_org_id', 'isactive', 'iscustomer', 'isvendor', 'isemployee']);
    assert.deepEqual(
      (await compareSchema(db, dict)).map((d) => `${d.table}.${d.index}:${d.problem}`).sort(),
      ['C_BPartner.c_bpartner_value:missing index', 'C_Location.c_location_city_unique:missing index'],
    );
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});

describe('indexes whose shape differs from the dictionary', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('a physical index of another shape is reported and rebuilt', async () => {
    const db = server.services.db;
    const dict = server.services.dictionary.current;
    await db.exec('DROP INDEX ad_user_bpartner; CREATE INDEX ad_user_bpartner ON ad_user (c_bpartner_id, email)');
    assert.deepEqual(await compareSchema(db, dict), [
      { table: 'AD_User', index: 'ad_user_bpartner', problem: 'index differs', expected: '(c_bpartner_id)', actual: '(c_bpartner_id, email)' },
    ]);
    const applied = await synchroniseSchema(db, dict);
    assert.deepEqual(applied.map((d) => `${d.index}:${d.problem}`), ['ad_user_bpartner:index differs']);
    assert.match((await indexDef(db, 'ad_user_bpartner'))!.indexdef, /^CREATE INDEX ad_user_bpartner ON \S*ad_user USING btree \(c_bpartner_id\)$/);
    assert.deepEqual(await compareSchema(db, dict), []);
  });

  it('a column added to an index through the API reaches the database once the schema is synchronised', async () => {
    const token = await systemLogin(server);
    const user = server.services.dictionary.current.byName.get('ad_user')!;
    const index = await server.request('GET', `/api/v1/models/ad_tableindex?$filter=Name eq 'ad_user_bpartner'`, { token });
    assert.equal(index.status, 200, index.text);
    const added = await server.request('POST', '/api/v1/models/ad_indexcolumn', {
      token,
      body: { AD_TableIndex_ID: index.body.records[0].id, AD_Column_ID: user.byName.get('email')!.id, SeqNo: 20, IsIncluded: true },
    });
    assert.equal(added.status, 201, added.text);
    await eventually(
      () => server.services.dictionary.current.byName.get('ad_user')!.indexes.find((x) => x.name === 'ad_user_bpartner')?.include.includes('email') === true,
      'the included column is in the cache',
    );
    const dict = server.services.dictionary.current;
    assert.deepEqual((await compareSchema(server.services.db, dict)).map((d) => `${d.index}:${d.problem}:${d.expected}:${d.actual}`), [
      'ad_user_bpartner:index differs:(c_bpartner_id) INCLUDE (email):(c_bpartner_id)',
    ]);
    await synchroniseSchema(server.services.db, dict);
    assert.match((await indexDef(server.services.db, 'ad_user_bpartner'))!.indexdef, /USING btree \(c_bpartner_id\) INCLUDE \(email\)$/);
    assert.deepEqual(await compareSchema(server.services.db, dict), []);
  });

  it('a unique index the rows do not allow keeps the old index, and the difference stays reported', async () => {
    const db = server.services.db;
    const dict = server.services.dictionary.current;
    await db.exec(`DROP INDEX c_bpartner_value; CREATE INDEX c_bpartner_value ON c_bpartner (ad_client_id, value);
      UPDATE c_bpartner SET value = 'JoeBlock' WHERE c_bpartner_id = 117`);
    const before = await compareSchema(db, dict);
    assert.deepEqual(before.map((d) => `${d.index}:${d.problem}`), ['c_bpartner_value:index differs']);
    assert.deepEqual(await synchroniseSchema(db, dict), []);
    assert.match((await indexDef(db, 'c_bpartner_value'))!.indexdef, /^CREATE INDEX c_bpartner_value .*\(ad_client_id, value\)$/, 'the old index is still there');
    assert.deepEqual(await compareSchema(db, dict), before);
  });
});
