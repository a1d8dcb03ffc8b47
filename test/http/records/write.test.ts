import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

describe('writing records', () => {
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

  it('creates a record with defaults and answers 201', async () => {
    const r = await call('POST', '/api/v1/models/c_tax', {
      AD_Org_ID: { id: 0, tableName: 'AD_Org' },
      isActive: true,
      name: 'MyGST',
      description: 'My Sales Tax',
      validFrom: '2019-01-01',
      rate: '6.0',
      C_TaxCategory_ID: 107,
      SOPOType: 'B',
    });
    assert.equal(r.status, 201, r.text);
    assert.ok(r.body.id >= 1_000_000);
    assert.equal(r.body.Name, 'MyGST');
    assert.equal(r.body.Rate, 6);
    assert.equal(r.body.ValidFrom, '2019-01-01');
    assert.equal(r.body.AD_Client_ID.id, 11);
    assert.equal(r.body.CreatedBy.id, 101);
    assert.match(r.body.uid, /^[0-9a-f-]{36}$/);
  });

  it('creates nested details in one transaction', async () => {
    const r = await call('POST', '/api/v1/models/C_BPartner', {
      name: 'Test creating BP with User and Interest Area',
      C_BP_Group_ID: 103,
      AD_User: [{ Name: 'Test User', R_ContactInterest: [{ R_InterestArea_ID: 101 }] }],
    });
    assert.equal(r.status, 201, r.text);
    assert.ok(r.body.Value, 'Value comes from the sequence');
    assert.equal(r.body.AD_User.length, 1);
    assert.equal(r.body.AD_User[0].Name, 'Test User');
    assert.equal(r.body.AD_User[0].R_ContactInterest.length, 1);
    const read = await call('GET', `/api/v1/models/ad_user?$filter=${encodeURIComponent(`C_BPartner_ID eq ${r.body.id}`)}`);
    assert.equal(read.body['row-count'], 1);
  });

  it('rolls back the whole create when a detail fails', async () => {
    const before = await call('GET', `/api/v1/models/c_bpartner?$filter=${encodeURIComponent("Name eq 'Rollback BP'")}`);
    const r = await call('POST', '/api/v1/models/C_BPartner', { name: 'Rollback BP', C_BP_Group_ID: 103, AD_User: [{ Name: 'ok' }, { Nope: 1 }] });
    assert.equal(r.status, 400);
    const afterwards = await call('GET', `/api/v1/models/c_bpartner?$filter=${encodeURIComponent("Name eq 'Rollback BP'")}`);
    assert.equal(afterwards.body['row-count'], before.body['row-count']);
  });

  it('updates only the given columns', async () => {
    const r = await call('PUT', '/api/v1/models/c_bpartner/117', { description: 'Updated through the API' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.Description, 'Updated through the API');
    assert.equal(r.body.Name, 'C&W Construction');
  });

  it('validates writes with 400 naming the column', async () => {
    const cases: [unknown, RegExp][] = [
      [{ Name: 'x', Nope: 1 }, /Column Nope does not exist/],
      [{ Description: 'no name' }, /Fill mandatory fields: .*Name/],
      [{ Name: 'x', C_BP_Group_ID: 987654 }, /Foreign ID 987654 not found in C_BP_Group_ID/],
      [{ Name: 'x', IsCustomer: 'maybe' }, /IsCustomer/],
      [{ Name: 'x', SOCreditStatus: 'Q' }, /SOCreditStatus/],
      [{ Name: 'x'.repeat(500) }, /too long for column Name/],
      [{ Name: 'x', FirstSale: 'not a date' }, /FirstSale/],
    ];
    for (const [body, detail] of cases) {
      const r = await call('POST', '/api/v1/models/c_bpartner', body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${r.text}`);
      assert.match(r.body.detail, detail);
    }
    const notUpdatable = await call('PUT', '/api/v1/models/c_bpartner/117', { AD_Client_ID: 0 });
    assert.equal(notUpdatable.status, 400);
    assert.match(notUpdatable.body.detail, /Cannot update column AD_Client_ID/);
  });

  it('deletes a record', async () => {
    const created = await call('POST', '/api/v1/models/c_bp_group', { Name: 'Temporary group', Value: 'TMPGRP' });
    assert.equal(created.status, 201, created.text);
    const del = await call('DELETE', `/api/v1/models/c_bp_group/${created.body.id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { msg: 'Deleted' });
    assert.equal((await call('GET', `/api/v1/models/c_bp_group/${created.body.id}`)).status, 404);
  });

  it('refuses writes into another tenant and System records', async () => {
    const other = await call('POST', '/api/v1/models/c_bp_group', { Name: 'Foreign', AD_Client_ID: 0 });
    assert.equal(other.status, 403);
    const system = await call('PUT', '/api/v1/models/c_currency/100', { Description: 'changed' });
    assert.equal(system.status, 403);
  });
});

describe('batch', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('runs all entries in one transaction and refers to earlier results', async () => {
    const r = await server.request('POST', '/api/v1/batch?transaction=true', {
      token,
      body: [
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Batch group', Value: 'BATCHG' } },
        { method: 'POST', path: '/api/v1/models/C_BPartner', body: { Name: 'Batch BP', C_BP_Group_ID: '$0.id' } },
        { method: 'PUT', path: 'v1/models/C_BPartner/117', body: { Description: 'batch' } },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [201, 201, 200]);
    assert.equal(r.body[0].status, 'Created');
    assert.equal(r.body[1].body.C_BP_Group_ID.id, r.body[0].body.id);
  });

  it('stops and rolls back at the first error when transactional', async () => {
    const r = await server.request('POST', '/api/v1/batch', {
      token,
      body: [
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Rolled back', Value: 'RB1' } },
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Nope: 1 } },
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Never', Value: 'RB2' } },
      ],
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.length, 2);
    assert.equal(r.body[1].statusCode, 400);
    const check = await server.request('GET', `/api/v1/models/c_bp_group?$filter=${encodeURIComponent("Name eq 'Rolled back'")}`, { token });
    assert.equal(check.body['row-count'], 0);
  });

  it('runs entries independently when not transactional', async () => {
    const r = await server.request('POST', '/api/v1/batch?transaction=false', {
      token,
      body: [
        { method: 'PUT', path: 'v1/models/C_BPartner/117', body: { Description: 'independent' } },
        { method: 'DEL', path: 'v1/models/C_BP_Group/987654' },
        { method: 'GET', path: 'v1/models/C_BPartner' },
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Kept', Value: 'KEPT1' } },
      ],
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [200, 404, 400, 201]);
    assert.equal(r.body[2].body, 'Unsupported Method: GET');
  });

  it('rejects a body that is not an array', async () => {
    const r = await server.request('POST', '/api/v1/batch', { token, body: { method: 'POST' } });
    assert.equal(r.status, 400);
  });
});
