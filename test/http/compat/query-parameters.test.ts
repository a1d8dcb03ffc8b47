import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { clearSysConfig, setSysConfig } from '../auth/auth-helpers.js';

const q = (s: string) => encodeURIComponent(s);

describe('unknown query parameters', () => {
  let server: TestServer;
  let token: string;
  const get = (path: string) => server.request('GET', path, { token });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('a client paging with unknown parameters reaches the last page, every record once', async () => {
    const seen: number[] = [];
    let rowCount = -1;
    for (let skip = 0, pages = 0; pages < 50; skip += 4, pages++) {
      const r = await get(`/api/v1/models/c_bpartner?$pageSize=4&$tenant=11&$top=4&$skip=${skip}&$select=Name&typo=1`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('x-ignored-parameters'), '$pageSize, $tenant, typo');
      rowCount = r.body['row-count'];
      seen.push(...r.body.records.map((x: { id: number }) => x.id));
      if (skip + 4 >= rowCount) break;
    }
    assert.ok(rowCount > 4, 'several pages');
    assert.equal(seen.length, rowCount);
    assert.equal(new Set(seen).size, rowCount);
  });

  it('a request without unknown parameters carries no header; known ones match in any case', async () => {
    const r = await get('/api/v1/models/c_bpartner?$TOP=2&$Select=Name');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ignored-parameters'), null);
    assert.equal(r.body.records.length, 2);
    assert.deepEqual(Object.keys(r.body.records[0]).sort(), ['Name', 'id', 'model-name', 'uid'].sort());
  });

  it('ignores them on single reads, writes, health and the auth lookups alike', async () => {
    const one = await get('/api/v1/models/c_bpartner/117?$bogus=1');
    assert.equal(one.status, 200);
    assert.equal(one.body.id, 117);
    assert.equal(one.headers.get('x-ignored-parameters'), '$bogus');
    const health = await server.request('GET', '/api/v1/health?db=true&verbose=1');
    assert.equal(health.body.database, 'connected');
    assert.equal(health.headers.get('x-ignored-parameters'), 'verbose');
    const put = await server.request('PUT', `/api/v1/models/c_bpartner/117?$filter=${q('Name eq 1')}`, { token, body: { Description: 'via PUT' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.Description, 'via PUT');
    assert.equal(put.headers.get('x-ignored-parameters'), '$filter');
    const roles = await get('/api/v1/auth/roles?client=11&extra=y');
    assert.equal(roles.status, 200, roles.text);
    assert.ok(roles.body.roles.some((r: { id: number }) => r.id === 102));
    assert.equal(roles.headers.get('x-ignored-parameters'), 'extra');
  });

  it('leaves out $orderby entries it cannot use, as the original, keeping the others', async () => {
    const r = await get(`/api/v1/models/m_product?$orderby=${q('Nope desc, Value desc, Name sideways, Password')}&$select=Value`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-ignored-parameters'), '$orderby=Name sideways, $orderby=Nope, $orderby=Password');
    const values = r.body.records.map((x: { Value: string }) => x.Value);
    assert.deepEqual(values, [...values].sort().reverse(), 'still ordered by Value desc');
  });

  it('REST_STRICT_QUERY_PARAMETERS=Y turns them into 400s for that client only', async () => {
    await setSysConfig(server, 'REST_STRICT_QUERY_PARAMETERS', 'Y', 11);
    try {
      const r = await get('/api/v1/models/c_bpartner?$pageSize=4');
      assert.equal(r.status, 400);
      assert.equal(r.body.title, 'Invalid query');
      assert.match(r.body.detail, /Unknown query parameter: \$pageSize/);
      const order = await get('/api/v1/models/c_bpartner?$orderby=Nope');
      assert.equal(order.status, 400);
      assert.match(order.body.detail, /\$orderby=Nope/);
      const known = await get('/api/v1/models/c_bpartner?$top=1');
      assert.equal(known.status, 200);
      const put = await server.request('PUT', '/api/v1/models/c_bpartner/117?x=1', { token, body: { Description: 'strict' } });
      assert.equal(put.status, 400);
      const still = await get('/api/v1/models/c_bpartner/117');
      assert.notEqual(still.body.Description, 'strict', 'a refused request writes nothing');
      // System-level requests (a public route) do not see client 11's switch.
      const health = await server.request('GET', '/api/v1/health?verbose=1');
      assert.equal(health.status, 200);
    } finally {
      await clearSysConfig(server, 'REST_STRICT_QUERY_PARAMETERS');
    }
    const again = await get('/api/v1/models/c_bpartner?$pageSize=4');
    assert.equal(again.status, 200);
  });
});
