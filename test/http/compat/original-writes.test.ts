import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { applySeedColumnValues } from '../../../src/seed/seed-column-values.js';

describe('writes the original accepts', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('deactivates a record with PUT {"IsActive": false} and reactivates it with true', async () => {
    const created = await call('POST', '/api/v1/models/c_bp_group', { Value: 'DEACT', Name: 'To deactivate' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as number;
    const listed = async () => (await call('GET', `/api/v1/models/c_bp_group?$filter=${encodeURIComponent("Value eq 'DEACT'")}`)).body['row-count'];
    assert.equal(await listed(), 1);

    const off = await call('PUT', `/api/v1/models/c_bp_group/${id}`, { IsActive: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.IsActive, false);
    assert.equal((await call('GET', `/api/v1/models/c_bp_group/${id}`)).body.IsActive, false);
    assert.equal(await listed(), 0, 'lists leave inactive records out');

    const on = await call('PUT', `/api/v1/models/c_bp_group/${id}`, { IsActive: true });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.IsActive, true);
    assert.equal(await listed(), 1);
  });

  it('accepts a shipment created with only what a client of the original sends', async () => {
    const r = await call('POST', '/api/v1/models/m_inout', {
      C_BPartner_ID: 117,
      C_BPartner_Location_ID: 112,
      C_DocType_ID: 120,
      M_Warehouse_ID: 103,
      MovementType: 'C-',
    });
    assert.equal(r.status, 201, r.text);
    const { rows } = await server.services.db.query<Record<string, string>>(
      'SELECT posted, processed, isapproved, isindispute, isintransit, isprinted, sendemail, docstatus FROM m_inout WHERE m_inout_id = $1',
      [r.body.id],
    );
    assert.deepEqual(rows[0], { posted: 'N', processed: 'N', isapproved: 'N', isindispute: 'N', isintransit: 'N', isprinted: 'N', sendemail: 'N', docstatus: 'DR' });
  });

  it('gives a new record the model class values (a payment is a receipt, a partner a customer)', async () => {
    const bp = await call('POST', '/api/v1/models/c_bpartner', { Value: 'NEWCUST', Name: 'New customer' });
    assert.equal(bp.status, 201, bp.text);
    assert.equal(bp.body.IsCustomer, true);
    assert.equal(bp.body.IsVendor, false);
    assert.equal(bp.body.IsEmployee, false);
  });

  it('brings both corrections to a database built before them, keeping what an administrator set', async () => {
    const db = server.services.db;
    const ids = async (sql: string) => (await db.query<{ id: string }>(sql)).rows.map((r) => Number(r.id));
    const activeId = (await ids(`SELECT c.ad_column_id AS id FROM ad_column c JOIN ad_table t USING (ad_table_id) WHERE t.tablename = 'C_BP_Group' AND c.columnname = 'IsActive'`))[0]!;
    const postedId = (await ids(`SELECT c.ad_column_id AS id FROM ad_column c JOIN ad_table t USING (ad_table_id) WHERE t.tablename = 'M_InOut' AND c.columnname = 'Posted'`))[0]!;
    const printedId = (await ids(`SELECT c.ad_column_id AS id FROM ad_column c JOIN ad_table t USING (ad_table_id) WHERE t.tablename = 'M_InOut' AND c.columnname = 'IsPrinted'`))[0]!;
    const counts = await db.tx(async (tx) => {
      await tx.query(`UPDATE ad_column SET isupdateable = 'N' WHERE ad_column_id = $1`, [activeId]);
      await tx.query(`UPDATE ad_column SET defaultvalue = NULL WHERE ad_column_id = $1`, [postedId]);
      await tx.query(`UPDATE ad_column SET defaultvalue = 'Y' WHERE ad_column_id = $1`, [printedId]);
      const applied = await applySeedColumnValues(tx);
      const { rows } = await tx.query<{ id: string; isupdateable: string; defaultvalue: string | null }>(
        'SELECT ad_column_id AS id, isupdateable, defaultvalue FROM ad_column WHERE ad_column_id = ANY($1::bigint[]) ORDER BY ad_column_id',
        [[activeId, postedId, printedId]],
      );
      // Put the administrator's value back for the other tests.
      await tx.query(`UPDATE ad_column SET defaultvalue = 'N' WHERE ad_column_id = $1`, [printedId]);
      return { applied, rows: new Map(rows.map((r) => [Number(r.id), r])) };
    });
    assert.deepEqual(counts.applied, { updateable: 1, defaults: 1 });
    assert.equal(counts.rows.get(activeId)!.isupdateable, 'Y');
    assert.equal(counts.rows.get(postedId)!.defaultvalue, 'N');
    assert.equal(counts.rows.get(printedId)!.defaultvalue, 'Y', 'a value set by an administrator stays');
  });
});
