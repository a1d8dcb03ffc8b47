import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { DATA_MODEL_FORMER_STAND_INS, DATA_MODEL_NEW_TABLES } from '../../../src/seed/data-model-additions.js';

describe("the data model's added areas", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('serves every new table and a stand-in with its own columns through /models', async () => {
    for (const table of ['gl_journal', 'c_bankstatement', 'c_cash', 'c_payselection', 'c_dunningrun', 'm_movement', 'm_inventory', 'm_discountschemabreak']) {
      const r = await server.request('GET', `/api/v1/models/${table}?$top=1`, { token });
      assert.equal(r.status, 200, `${table}: ${r.text}`);
      assert.equal(typeof r.body['row-count'], 'number');
    }
    const movementLine = await server.request('GET', '/api/v1/models/m_movementline?$select=M_Product_ID,MovementQty,M_Locator_ID,M_LocatorTo_ID&$top=1', { token });
    assert.equal(movementLine.status, 200, movementLine.text);
  });

  it('creates a record of a new table with the standard columns filled', async () => {
    const r = await server.request('POST', '/api/v1/models/c_cashbook', { token, body: { Name: 'Petty cash HQ', C_Currency_ID: 100 } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.IsActive, true);
    assert.equal(r.body.AD_Client_ID.id, 11);
    assert.match(String(r.body.Created), /^\d{4}-\d\d-\d\dT/);
  });
});

describe('migration 100 (the data model added areas)', () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });

  it('brings the new tables and the stand-ins own columns to a database built before them', async () => {
    const open = () => openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    const shape = async (db: Awaited<ReturnType<typeof open>>) => {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT (SELECT count(*)::int FROM ad_table WHERE lower(tablename) = ANY($1)) AS tables,
                (SELECT count(*)::int FROM ad_column c JOIN ad_table t ON t.ad_table_id = c.ad_table_id WHERE lower(t.tablename) = ANY($1) AND c.ad_column_id < $2) AS columns,
                (SELECT count(*)::int FROM ad_column c JOIN ad_table t ON t.ad_table_id = c.ad_table_id WHERE lower(t.tablename) = 'm_movementline') AS movement_line_columns,
                (SELECT isidentifier FROM ad_column c JOIN ad_table t ON t.ad_table_id = c.ad_table_id WHERE lower(t.tablename) = 'c_cashline' AND lower(c.columnname) = 'line') AS line_identifier,
                (SELECT count(*)::int FROM information_schema.tables WHERE table_name = 'gl_journal') AS physical`,
        // Columns that later migrations add to these tables (ids from 6600) are not migration 100's.
        [DATA_MODEL_NEW_TABLES.map((t) => t.toLowerCase()), 6600],
      );
      return rows[0]!;
    };
    let db = await open();
    const seeded = await shape(db);
    assert.equal(seeded.tables, DATA_MODEL_NEW_TABLES.length);
    assert.equal(seeded.physical, 1);
    // As a database built before them: no new table, the stand-ins with Value, Name and Description only.
    const lowerNew = DATA_MODEL_NEW_TABLES.map((t) => t.toLowerCase());
    const lowerStandIns = DATA_MODEL_FORMER_STAND_INS.map((t) => t.toLowerCase());
    await db.query(
      `DELETE FROM ad_column WHERE ad_table_id IN (SELECT ad_table_id FROM ad_table WHERE lower(tablename) = ANY($1))
          OR (ad_table_id IN (SELECT ad_table_id FROM ad_table WHERE lower(tablename) = ANY($2))
              AND lower(columnname) NOT IN ('value', 'name', 'description', 'line', 'ad_client_id', 'ad_org_id', 'isactive', 'created', 'createdby', 'updated', 'updatedby')
              AND lower(columnname) NOT LIKE lower((SELECT tablename FROM ad_table t WHERE t.ad_table_id = ad_column.ad_table_id)) || '%')`,
      [lowerNew, lowerStandIns],
    );
    await db.query(`UPDATE ad_column SET isidentifier = 'N' WHERE lower(columnname) = 'line' AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE lower(tablename) = 'c_cashline')`);
    await db.query('DELETE FROM ad_table WHERE lower(tablename) = ANY($1)', [lowerNew]);
    for (const t of lowerNew) await db.exec(`DROP TABLE IF EXISTS ${t} CASCADE`);
    await db.exec('DELETE FROM dictum.migration WHERE version = 100');
    assert.equal((await shape(db)).physical, 0);
    await db.close();
    db = await open();
    try {
      assert.deepEqual(await shape(db), seeded);
    } finally {
      await db.close();
    }
  });
});
