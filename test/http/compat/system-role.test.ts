import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { clearRoleType } from '../../../src/auth/clear-role-type.js';
import { assertUnauthorized, claims, loginRequest } from '../auth/auth-helpers.js';

describe('the System role over REST', () => {
  let server: TestServer;
  const superUser = { userName: 'SuperUser', password: 'System', parameters: { clientId: 0, roleId: 0, organizationId: 0 } };

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('cannot log in with the demo data: its Role Type is WebUI', async () => {
    const { rows } = await server.services.db.query<{ roletype: string }>('SELECT roletype FROM ad_role WHERE ad_role_id = 0');
    assert.equal(rows[0]?.roletype, 'ZK');
    assertUnauthorized(await loginRequest(server, superUser));
    // Without choices, SuperUser's only eligible role is 102 of GardenWorld, so that is where the login goes.
    const step = await loginRequest(server, { userName: 'SuperUser', password: 'System' });
    assert.equal(step.status, 200, step.text);
    assert.equal(claims(step.body.token).AD_Client_ID, 11, step.text);
    assert.equal(claims(step.body.token).AD_Role_ID, 102);
  });

  it('logs in once an administrator clears the Role Type', async () => {
    assert.equal(await clearRoleType(server.services.db, 0), 'ZK');
    const ok = await loginRequest(server, superUser);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(claims(ok.body.token).AD_Role_ID, 0);
    assert.equal(await clearRoleType(server.services.db, 0), null, 'clearing again finds it blank');
    assert.equal(await clearRoleType(server.services.db, 987654), undefined, 'no such role');
  });

  it('the test login helper clears it itself, so its callers keep working', async () => {
    await server.services.db.query(`UPDATE ad_role SET roletype = 'ZK' WHERE ad_role_id = 0`);
    const token = await systemLogin(server);
    assert.equal(claims(token).AD_Client_ID, 0);
  });
});
