import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q } from './document-helpers.js';

describe('document actions and access', () => {
  let server: TestServer;
  let admin: string;
  const users: Record<string, string> = {};
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    users.GardenUser = await login(server, { userName: 'GardenUser', password: 'GardenUser', clientId: 11, roleId: 103, organizationId: 11, warehouseId: 0 });
    users.WebService = await login(server, { userName: 'WebService', password: 'WebService', clientId: 11, roleId: 50004, organizationId: 11, warehouseId: 0 });
  });
  after(async () => {
    await server.close();
  });

  for (const name of ['GardenUser', 'WebService']) {
    it(`${name} runs actions only on documents of organizations it may write; others stay as they were`, async () => {
      const token = users[name]!;
      const body = (org: number, warehouse: number) => ({ AD_Org_ID: org, M_Warehouse_ID: warehouse, C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
      const foreign = await as(admin, 'POST', '/api/v1/models/c_order', body(50001, 50002));
      assert.equal(foreign.status, 201, foreign.text);
      const refused = await as(token, 'PUT', `/api/v1/models/c_order/${foreign.body.id}`, { 'doc-action': 'CO' });
      assert.equal(refused.status, 403, refused.text);
      const inBatch = await as(token, 'POST', '/api/v1/batch', [{ method: 'PUT', path: `v1/models/c_order/${foreign.body.id}`, body: { 'doc-action': 'VO' } }]);
      assert.equal(inBatch.status, 400);
      assert.equal(inBatch.body[0].statusCode, 403);
      const still = await as(admin, 'GET', `/api/v1/models/c_order/${foreign.body.id}`);
      assert.equal(idOf(still.body.DocStatus), 'DR');
      assert.equal(still.body.Processed, false);
      const own = await as(admin, 'POST', '/api/v1/models/c_order', body(11, 103));
      const done = await as(token, 'PUT', `/api/v1/models/c_order/${own.body.id}`, { 'doc-action': 'CO' });
      assert.equal(done.status, 200, done.text);
      assert.equal(idOf(done.body.DocStatus), 'CO');
      assert.equal(idOf(done.body.UpdatedBy), name === 'GardenUser' ? 102 : 50001);
    });
  }

  for (const name of ['GardenUser', 'WebService']) {
    it(`${name} adds no line to a document of an organization it may not write, even naming its own organization`, async () => {
      const token = users[name]!;
      const foreign = await as(admin, 'POST', '/api/v1/models/c_order', { AD_Org_ID: 50001, M_Warehouse_ID: 50002, C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
      assert.equal(foreign.status, 201, foreign.text);
      for (const line of [{ C_Order_ID: foreign.body.id, M_Product_ID: 128, QtyEntered: 1 }, { C_Order_ID: foreign.body.id, AD_Org_ID: 11, M_Product_ID: 128, QtyEntered: 1 }]) {
        const added = await as(token, 'POST', '/api/v1/models/c_orderline', line);
        assert.equal(added.status, 403, added.text);
        assert.equal(added.body.status, 403);
      }
      const lines = await as(admin, 'GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${foreign.body.id}`)}`);
      assert.equal(lines.body['row-count'], 1, 'the order keeps its one line');
      const own = await as(admin, 'POST', '/api/v1/models/c_order', { AD_Org_ID: 11, M_Warehouse_ID: 103, C_BPartner_ID: 118, C_DocTypeTarget_ID: 132 });
      const added = await as(token, 'POST', '/api/v1/models/c_orderline', { C_Order_ID: own.body.id, M_Product_ID: 128, QtyEntered: 1 });
      assert.equal(added.status, 201, added.text);
    });
  }

  it('reads the facts of a seeded invoice as the upstream collection does ($expand=fact_acct.record_id($select=fact_acct_id),c_invoiceline)', async () => {
    const r = await as(admin, 'GET', `/api/v1/models/c_invoice/104?$expand=${q('fact_acct.record_id($select=fact_acct_id),c_invoiceline')}`);
    assert.equal(r.status, 200, r.text);
    const facts = r.body['fact_acct.record_id'] ?? r.body.fact_acct;
    assert.ok(Array.isArray(facts) && facts.length >= 3, JSON.stringify(Object.keys(r.body)));
    assert.ok(Array.isArray(r.body.c_invoiceline) && r.body.c_invoiceline.length > 0);
  });

  it('ignores doc-action on a table that is not a document, and refuses an unknown action', async () => {
    const bp = await as(admin, 'POST', '/api/v1/models/c_bpartner', { Name: 'No document', C_BP_Group_ID: 103, 'doc-action': 'CO' });
    assert.equal(bp.status, 201, bp.text);
    assert.equal(bp.body['doc-processmsg'], undefined);
    const o = await as(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
    const r = await as(admin, 'PUT', `/api/v1/models/c_order/${o.body.id}`, { 'doc-action': 'ZZ' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /status DR: action ZZ refused: unknown document action/);
  });
});
