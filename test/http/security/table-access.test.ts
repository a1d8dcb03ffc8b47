import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const C_BPARTNER = 291;
const C_ORDER = 259;

/** Role table access rules (AD_Table_Access, Accessing): exclude, read-only and include rules. */
describe('role table access rules', () => {
  let server: TestServer;
  let admin: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const userLogin = () => login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
  const wsLogin = () => login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('an exclude rule closes a table to the role; read-only lets it read but not write', async () => {
    const rule = await as(admin, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 103, AD_Table_ID: C_BPARTNER, IsExclude: true, IsReadOnly: false });
    assert.equal(rule.status, 201, rule.text);
    let user = await userLogin();
    assert.equal((await as(user, 'GET', '/api/v1/models/c_bpartner')).status, 403);
    assert.equal((await as(user, 'GET', '/api/v1/models/c_bpartner/118')).status, 403);
    assert.equal((await as(user, 'POST', '/api/v1/models/c_bpartner', { Name: 'Closed', Value: 'CLOSED', C_BP_Group_ID: 103 })).status, 403);
    const models = await as(user, 'GET', '/api/v1/models');
    assert.ok(!models.body.models.some((m: { 'model-name': string }) => m['model-name'] === 'c_bpartner'));
    assert.equal((await as(user, 'GET', '/api/v1/models/c_order?$expand=C_BPartner_ID')).status, 403);
    assert.equal((await as(admin, 'GET', '/api/v1/models/c_bpartner?$top=1')).status, 200, 'other roles keep their access');

    const ro = await as(admin, 'PUT', `/api/v1/models/ad_table_access/${rule.body.uid}`, { IsReadOnly: true });
    assert.equal(ro.status, 200, ro.text);
    user = await userLogin();
    assert.equal((await as(user, 'GET', '/api/v1/models/c_bpartner/118')).status, 200);
    const write = await as(user, 'PUT', '/api/v1/models/c_bpartner/118', { Description: 'not allowed' });
    assert.equal(write.status, 403, write.text);
  });

  it('an include rule opens only the included tables', async () => {
    assert.equal((await as(admin, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 50004, AD_Table_ID: C_ORDER, IsExclude: false })).status, 201);
    const ws = await wsLogin();
    assert.equal((await as(ws, 'GET', '/api/v1/models/c_order?$top=1')).status, 200);
    assert.equal((await as(ws, 'GET', '/api/v1/models/c_bpartner?$top=1')).status, 403);
    assert.equal((await as(ws, 'GET', '/api/v1/models/m_product?$top=1')).status, 403);
  });

  it('only a client administrator writes rules, and never its own role\'s', async () => {
    const user = await userLogin();
    const self = await as(user, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 103, AD_Table_ID: C_ORDER, IsExclude: false });
    assert.equal(self.status, 403);
    const own = await as(admin, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 102, AD_Table_ID: C_ORDER, IsExclude: true });
    assert.equal(own.status, 403, own.text);
    assert.match(own.body.detail, /own table access rules/);
  });
});
