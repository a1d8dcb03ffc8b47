import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { compareSchema } from '../../../src/dictionary/sync.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);

/** The physical type of a column. */
async function columnType(server: TestServer, table: string, column: string): Promise<string> {
  const { rows } = await server.services.db.query<{ t: string }>(
    `SELECT data_type AS t FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
    [table, column],
  );
  return String(rows[0]?.t);
}

describe('lookups of ids whose column name does not end in _ID', () => {
  let server: TestServer;
  let admin: string;
  let system: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    system = await systemLogin(server);
  });
  after(async () => {
    await server.close();
  });

  it('filters conversion rates by C_Currency_ID_To', async () => {
    const r = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q('C_Currency_ID_To eq 100')}`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body['row-count'] > 0, 'the demo has rates into USD');
    for (const rate of r.body.records) {
      assert.equal(rate.C_Currency_ID_To.id, 100);
      assert.equal(rate.C_Currency_ID_To.identifier, 'USD');
      assert.equal(rate.C_Currency_ID_To['model-name'], 'c_currency');
    }
    const pair = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q('C_Currency_ID eq 102 and C_Currency_ID_To eq 100')}&$orderby=C_Currency_ID_To`);
    assert.equal(pair.status, 200, pair.text);
    assert.ok(pair.body.records.every((x: { C_Currency_ID: { id: number } }) => x.C_Currency_ID.id === 102));
    const list = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q('C_Currency_ID_To in (100, 102)')}`);
    assert.equal(list.status, 200, list.text);
    const none = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q('C_Currency_ID_To eq 999999')}`);
    assert.equal(none.status, 200, none.text);
    assert.equal(none.body['row-count'], 0);
  });

  it('refuses a filter value that is not an id with 400', async () => {
    const r = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q("C_Currency_ID_To eq 'USD'")}`);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.status, 400);
    assert.ok(r.body.title && r.body.detail);
    assert.doesNotMatch(r.text, /SELECT|bigint|operator/i);
  });

  it('writes and reads a conversion rate through C_Currency_ID_To', async () => {
    const created = await as(admin, 'POST', '/api/v1/models/c_conversion_rate', {
      C_Currency_ID: 100,
      C_Currency_ID_To: 102,
      C_ConversionType_ID: 114,
      ValidFrom: '2031-01-01',
      ValidTo: '2031-12-31',
      MultiplyRate: 0.9,
      DivideRate: 1.111111,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.C_Currency_ID_To.id, 102);
    const found = await as(admin, 'GET', `/api/v1/models/c_conversion_rate?$filter=${q(`C_Currency_ID_To eq 102 and id eq ${created.body.id}`)}`);
    assert.equal(found.body['row-count'], 1, found.text);
  });

  it('filters table references by AD_Key (System)', async () => {
    const any = await as(system, 'GET', '/api/v1/models/ad_ref_table?$top=1&$orderby=AD_Reference_ID');
    assert.equal(any.status, 200, any.text);
    const key = any.body.records[0].AD_Key;
    const keyId = typeof key === 'object' ? key.id : key;
    const r = await as(system, 'GET', `/api/v1/models/ad_ref_table?$filter=${q(`AD_Key eq ${keyId}`)}`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body['row-count'] >= 1);
  });

  it('stores every lookup of an id as a number, across the dictionary', async () => {
    const diffs = await compareSchema(server.services.db, server.services.dictionary.current);
    assert.deepEqual(diffs.filter((d) => d.problem === 'type differs'), []);
    assert.equal(await columnType(server, 'c_conversion_rate', 'c_currency_id_to'), 'bigint');
    assert.equal(await columnType(server, 'ad_ref_table', 'ad_key'), 'bigint');
    assert.equal(await columnType(server, 'ad_ref_table', 'ad_display'), 'bigint');
    assert.equal(await columnType(server, 'ad_table', 'entitytype'), 'character varying', 'a lookup of a code keeps the code');
  });

  it('migration 82 retypes them on a database that stored them as text, and adds the charge accounts', async () => {
    const db = server.services.db;
    await db.exec(`ALTER TABLE c_conversion_rate ALTER COLUMN c_currency_id_to TYPE varchar(10);
      ALTER TABLE ad_ref_table ALTER COLUMN ad_key TYPE varchar(10), ALTER COLUMN ad_display TYPE varchar(10);
      UPDATE ad_ref_table SET ad_display = 'none' WHERE ad_reference_id = (SELECT min(ad_reference_id) FROM ad_ref_table WHERE ad_display IS NULL);
      DROP TABLE c_charge_acct; DELETE FROM ad_column WHERE ad_table_id = 396; DELETE FROM ad_table WHERE ad_table_id = 396;
      DELETE FROM ad_sequence WHERE name = 'C_Charge_Acct' AND istableid = 'Y';
      DELETE FROM c_validcombination WHERE c_validcombination_id IN (70200, 79600); DELETE FROM c_elementvalue WHERE c_elementvalue_id IN (70200, 79600);
      DELETE FROM dictum.migration WHERE version = 82`);
    const rates = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM c_conversion_rate WHERE c_currency_id_to::text = $1', ['100'])).rows[0]!.n;
    assert.deepEqual(await migrate(db), [82]);
    assert.equal(await columnType(server, 'c_conversion_rate', 'c_currency_id_to'), 'bigint');
    assert.equal(await columnType(server, 'ad_ref_table', 'ad_key'), 'bigint');
    assert.equal(await columnType(server, 'ad_ref_table', 'ad_display'), 'bigint');
    const { rows } = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM c_conversion_rate WHERE c_currency_id_to = 100) AS rates,
              (SELECT count(*)::int FROM ad_ref_table WHERE ad_key IS NULL) AS keyless,
              (SELECT count(*)::int FROM c_charge_acct) AS charges,
              (SELECT count(*)::int FROM c_validcombination WHERE c_validcombination_id IN (70200, 79600)) AS combinations`,
    );
    assert.deepEqual(rows[0], { rates, keyless: 0, charges: 3, combinations: 2 });
    const dict = await loadDictionary(db, 100);
    assert.deepEqual((await compareSchema(db, dict)).filter((d) => d.problem === 'type differs'), []);
    assert.ok(dict.byName.get('c_charge_acct')?.byName.has('ch_expense_acct'));
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
