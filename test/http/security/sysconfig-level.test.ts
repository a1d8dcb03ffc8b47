import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/** SysConfig rows written by a tenant land at the level their key allows, and take effect. */
describe('SysConfig levels', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
  });
  after(async () => {
    await server.close();
  });

  it('a client-level key written without an organisation applies to the whole client, and takes effect', async () => {
    const r = await as(admin, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'REST_TOKEN_EXPIRE_IN_MINUTES', Value: '30' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.AD_Org_ID.id, 0);
    assert.equal(r.body.AD_Client_ID.id, 11);
    const token = await login(server);
    const c = decodeJwt(token);
    const minutes = ((c.exp ?? 0) - (c.iat ?? 0)) / 60;
    assert.ok(Math.abs(minutes - 30) < 1, `token lasts ${minutes} minutes`);
  });

  it('refuses a client-level key for one organisation, and a System key for a client', async () => {
    const org = await as(admin, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES', Value: '60', AD_Org_ID: 11 });
    assert.equal(org.status, 400, org.text);
    assert.match(org.body.detail, /client setting/);
    const system = await as(admin, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'REST_MANDATORY_USER_ID_ON_REFRESH', Value: 'Y' });
    assert.equal(system.status, 400, system.text);
    assert.match(system.body.detail, /System setting/);
    const { rows } = await server.services.db.query(`SELECT 1 FROM ad_sysconfig WHERE ad_client_id = 11 AND name IN ('REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES', 'REST_MANDATORY_USER_ID_ON_REFRESH')`);
    assert.equal(rows.length, 0);
  });

  it('lets a client switch its webhooks, which the spec sets per client', async () => {
    const r = await as(admin, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'REST_WEBHOOK_ENABLED', Value: 'Y' });
    assert.equal(r.status, 201, r.text);
    assert.equal(await server.services.sysConfig.get('REST_WEBHOOK_ENABLED', 11, 11), 'Y');
  });

  it('a key the System does not define is kept at client level', async () => {
    const r = await as(admin, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'GARDEN_CUSTOM_KEY', Value: 'v' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.ConfigurationLevel.id, 'C');
  });

  it('a plain user cannot write SysConfig (organisation * is not theirs)', async () => {
    const r = await as(user, 'POST', '/api/v1/models/ad_sysconfig', { Name: 'GARDEN_USER_KEY', Value: 'v' });
    assert.equal(r.status, 403, r.text);
  });
});
