import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);

describe('batch', () => {
  let server: TestServer;
  let token: string;
  const batch = (body: unknown, transaction?: string) => server.request('POST', `/api/v1/batch${transaction === undefined ? '' : `?transaction=${transaction}`}`, { token, body });
  const count = async (table: string, filter: string) => (await server.request('GET', `/api/v1/models/${table}?$filter=${q(filter)}`, { token })).body['row-count'] as number;

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('runs the collection request in one transaction', async () => {
    const r = await batch(
      [
        { method: 'POST', path: 'v1/models/C_BPartner', body: { name: 'Batch BP with User and Interest Area', AD_User: [{ Name: 'Batch user', R_ContactInterest: [{ R_InterestArea_ID: 101 }] }] } },
        { method: 'PUT', path: 'v1/models/C_BPartner/117', body: { description: 'Test batch update' } },
      ],
      'true',
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [201, 200]);
    assert.deepEqual(Object.keys(r.body[0]), ['status', 'statusCode', 'body']);
    assert.equal(r.body[0].status, 'Created');
    assert.equal(r.body[1].status, 'OK');
    assert.equal(r.body[0].body.AD_User[0].R_ContactInterest.length, 1);
    assert.equal(Number.isInteger(r.body[0].body.id), true, 'ids stay integers');
    assert.equal(r.body[1].body.Description, 'Test batch update');
  });

  it('lets later entries use earlier results: placeholders, identifiers and uuids', async () => {
    const r = await batch([
      { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Batch group', Value: 'BATCHG' } },
      { method: 'POST', path: '/api/v1/models/C_BPartner', body: { Name: 'Batch BP', C_BP_Group_ID: '$0.id' } },
      { method: 'POST', path: 'api/v1/models/C_BPartner', body: { Name: 'Batch BP by name', C_BP_Group_ID: { identifier: 'Batch group' } } },
      { method: 'POST', path: '/v1/model/C_BPartner', body: { Name: 'Batch BP by uuid', C_BP_Group_ID: { uid: '$0.uid' } } },
      { method: 'PUT', path: 'v1/models/C_BPartner/$1.id', body: { Description: 'placeholder in the path' } },
      { method: 'DELETE', path: 'v1/models/C_BPartner/$2.id' },
    ]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [201, 201, 201, 201, 200, 200]);
    const group = r.body[0].body.id;
    assert.equal(r.body[1].body.C_BP_Group_ID.id, group);
    assert.equal(r.body[2].body.C_BP_Group_ID.id, group);
    assert.equal(r.body[3].body.C_BP_Group_ID.id, group);
    assert.equal(r.body[4].body.id, r.body[1].body.id);
    assert.equal(r.body[4].body.Description, 'placeholder in the path');
    assert.deepEqual(r.body[5].body, { msg: 'Deleted' });
    assert.equal(await count('c_bpartner', `C_BP_Group_ID eq ${group}`), 2);
  });

  it('stops at the first error and rolls everything back when transactional', async () => {
    const r = await batch([
      { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Rolled back', Value: 'RB1' } },
      { method: 'PUT', path: 'v1/models/C_BPartner/117', body: { Description: 'rolled back too' } },
      { method: 'POST', path: 'v1/models/C_BP_Group', body: { Nope: 1 } },
      { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Never', Value: 'RB2' } },
    ]);
    assert.equal(r.status, 400);
    assert.equal(r.body.length, 3, 'processing stopped at the failing entry');
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [201, 200, 400]);
    assert.equal(r.body[2].status, 'Bad Request');
    assert.match(r.body[2].body.detail, /Nope/);
    assert.equal(await count('c_bp_group', "Name eq 'Rolled back'"), 0);
    assert.equal(await count('c_bp_group', "Name eq 'Never'"), 0);
    const bp = (await server.request('GET', '/api/v1/models/c_bpartner/117', { token })).body;
    assert.notEqual(bp.Description, 'rolled back too');
  });

  it('runs entries independently when not transactional', async () => {
    const r = await batch(
      [
        { method: 'PUT', path: 'v1/models/C_BPartner/117', body: { description: 'independent' } },
        { method: 'DEL', path: 'v1/models/C_BP_Group/987654' },
        { method: 'GET', path: 'v1/models/C_BPartner' },
        { method: 'POST', path: 'v1/models/C_BPartner', body: { name: 'Bad interest', AD_User: [{ Name: 'x', R_ContactInterest: [{ R_InterestArea_ID: 10000000 }] }] } },
        { method: 'POST', path: 'v1/models/C_BP_Group', body: { Name: 'Kept', Value: 'KEPT1' } },
        { method: 'PATCH', path: 'v1/models/C_BP_Group/103', body: {} },
        { method: 'POST', path: 'v1/processes/nothing', body: {} },
      ],
      'false',
    );
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.map((x: { statusCode: number }) => x.statusCode), [200, 404, 400, 400, 201, 400, 404]);
    assert.equal(r.body[2].body, 'Unsupported Method: GET');
    assert.equal(await count('c_bp_group', "Name eq 'Kept'"), 1);
    assert.equal(await count('c_bpartner', "Name eq 'Bad interest'"), 0, 'the failed entry rolled back alone');
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner/117', { token })).body.Description, 'independent');
  });

  it('rejects bodies that are not an array and bad flags', async () => {
    const r = await batch({ method: 'POST' });
    assert.equal(r.status, 400);
    assert.equal(typeof r.body.title, 'string');
    assert.equal((await batch([], 'maybe')).status, 400);
    const empty = await batch([]);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);
    const noAuth = await server.request('POST', '/api/v1/batch', { body: [] });
    assert.equal(noAuth.status, 401);
  });
});
