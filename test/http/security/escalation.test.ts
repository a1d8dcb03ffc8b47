import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const ADMIN_LOGIN = { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11 } };

/** The attacks a plain user of the demo company could try, one by one and through batch. */
describe('no account takeover, no privilege escalation', () => {
  let server: TestServer;
  let user: string;
  let ws: string;
  let admin: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const storedPassword = async (userId: number): Promise<string> =>
    String((await server.services.db.query<{ password: string }>('SELECT password FROM ad_user WHERE ad_user_id = $1', [userId])).rows[0]!.password);

  before(async () => {
    server = await startTestServer();
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    ws = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it("refuses a plain user's change of the administrator's password, and the administrator still logs in", async () => {
    const before = await storedPassword(101);
    for (const t of [user, ws]) {
      const r = await as(t, 'PUT', '/api/v1/models/ad_user/101', { Password: 'Taken-over-1' });
      assert.equal(r.status, 403, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), ['detail', 'status', 'title']);
    }
    assert.equal(await storedPassword(101), before);
    const relogin = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN_LOGIN });
    assert.equal(relogin.status, 200);
    const hijack = await server.request('POST', '/api/v1/auth/tokens', { body: { ...ADMIN_LOGIN, password: 'Taken-over-1' } });
    assert.equal(hijack.status, 401);
  });

  it('refuses a plain user giving itself the administrator role, and the login with that role fails', async () => {
    for (const t of [user, ws]) {
      const r = await as(t, 'POST', '/api/v1/models/ad_user_roles', { AD_User_ID: 102, AD_Role_ID: 102 });
      assert.equal(r.status, 403, r.text);
    }
    const { rows } = await server.services.db.query('SELECT 1 FROM ad_user_roles WHERE ad_user_id = 102 AND ad_role_id = 102');
    assert.equal(rows.length, 0);
    const login102 = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenUser', password: 'GardenUser', parameters: { clientId: 11, roleId: 102, organizationId: 11 } } });
    assert.equal(login102.status, 401);
  });

  it('refuses a plain user widening its own role or granting itself organisations', async () => {
    const r1 = await as(user, 'PUT', '/api/v1/models/ad_role/103', { IsAccessAllOrgs: true });
    assert.equal(r1.status, 403, r1.text);
    const r2 = await as(user, 'POST', '/api/v1/models/ad_role_orgaccess', { AD_Role_ID: 103, AD_Org_ID: 50000 });
    assert.equal(r2.status, 403, r2.text);
    const r3 = await as(ws, 'PUT', '/api/v1/models/ad_role/50004', { IsClientAdministrator: true });
    assert.equal(r3.status, 403, r3.text);
    const { rows } = await server.services.db.query<{ isaccessallorgs: string; isclientadministrator: string }>('SELECT isaccessallorgs, isclientadministrator FROM ad_role WHERE ad_role_id IN (103, 50004) ORDER BY ad_role_id');
    assert.deepEqual(rows.map((r) => [r.isaccessallorgs, r.isclientadministrator]), [['N', 'N'], ['N', 'N']]);
    const orgs = await server.services.db.query('SELECT 1 FROM ad_role_orgaccess WHERE ad_role_id = 103 AND ad_org_id = 50000');
    assert.equal(orgs.rows.length, 0);
  });

  it('refuses the same attacks inside a batch, with and without a transaction, and writes nothing', async () => {
    const before = await storedPassword(101);
    const items = [
      { method: 'PUT', path: 'v1/models/ad_user/101', body: { Password: 'Taken-over-2' } },
      { method: 'POST', path: 'v1/models/ad_user_roles', body: { AD_User_ID: 102, AD_Role_ID: 102 } },
      { method: 'PUT', path: 'v1/models/ad_role/103', body: { IsAccessAllOrgs: true } },
    ];
    const tx = await as(user, 'POST', '/api/v1/batch', items);
    assert.equal(tx.status, 400, tx.text);
    assert.equal(tx.body[0].statusCode, 403);
    const noTx = await as(user, 'POST', '/api/v1/batch?transaction=false', items);
    assert.equal(noTx.status, 200, noTx.text);
    assert.deepEqual(noTx.body.map((i: { statusCode: number }) => i.statusCode), [403, 403, 403]);
    assert.equal(await storedPassword(101), before);
    const roles = await server.services.db.query('SELECT 1 FROM ad_user_roles WHERE ad_user_id = 102 AND ad_role_id = 102');
    assert.equal(roles.rows.length, 0);
  });

  it('keeps write access to shared (organisation *) rows to roles with an access row for it', async () => {
    const shared = await as(user, 'PUT', '/api/v1/models/c_bp_group/103', { Description: 'changed by a plain user' });
    assert.equal(shared.status, 403, shared.text);
    assert.match(shared.body.detail, /organization \*/);
    const own = await as(user, 'POST', '/api/v1/models/c_bpartner', { Name: 'Partner of HQ', Value: 'HQ-PLAIN', C_BP_Group_ID: 103 });
    assert.equal(own.status, 201, own.text);
    assert.equal(own.body.AD_Org_ID.id, 11);
    const byAdmin = await as(admin, 'PUT', '/api/v1/models/c_bp_group/103', { Description: 'changed by the administrator' });
    assert.equal(byAdmin.status, 200, byAdmin.text);
  });

  it('leaves records of process runs to the process runner, even for administrators', async () => {
    const fake = await as(admin, 'POST', '/api/v1/models/ad_pinstance', { AD_Process_ID: 136, IsProcessing: true });
    assert.equal(fake.status, 403, fake.text);
    assert.match(fake.body.detail, /process runner/);
    const { rows } = await server.services.db.query(`SELECT 1 FROM ad_pinstance WHERE isprocessing = 'Y'`);
    assert.equal(rows.length, 0);
  });

  it('keeps upload sessions and their bytes out of /models: they are read through /uploads by their owner', async () => {
    for (const t of [admin, user]) {
      assert.equal((await as(t, 'GET', '/api/v1/models/rest_upload')).status, 403);
      assert.equal((await as(t, 'GET', '/api/v1/models/rest_uploadchunk')).status, 403);
      assert.equal((await as(t, 'POST', '/api/v1/models/rest_upload', { UploadId: 'forged', FileName: 'x' })).status, 403);
    }
  });

  describe('a client administrator without advanced access', () => {
    let limited: string;
    let limitedRole = 0;
    before(async () => {
      const role = await as(admin, 'POST', '/api/v1/models/ad_role', { Name: 'Limited admin', UserLevel: ' CO', IsClientAdministrator: true, IsAccessAdvanced: false, IsCanApproveOwnDoc: true, IsManual: true });
      assert.equal(role.status, 201, role.text);
      limitedRole = role.body.id;
      for (const org of [0, 11]) assert.equal((await as(admin, 'POST', '/api/v1/models/ad_role_orgaccess', { AD_Role_ID: limitedRole, AD_Org_ID: org })).status, 201);
      const u = await as(admin, 'POST', '/api/v1/models/ad_user', { Name: 'LimitedAdmin', Password: 'Limited-admin-1', AD_Org_ID: 0 });
      assert.equal(u.status, 201, u.text);
      assert.equal((await as(admin, 'POST', '/api/v1/models/ad_user_roles', { AD_User_ID: u.body.id, AD_Role_ID: limitedRole })).status, 201);
      limited = await login(server, { userName: 'LimitedAdmin', password: 'Limited-admin-1', roleId: limitedRole });
    });

    it('cannot assign a role with advanced access, nor give its own role advanced access', async () => {
      const assign = await as(limited, 'POST', '/api/v1/models/ad_user_roles', { AD_User_ID: 102, AD_Role_ID: 102 });
      assert.equal(assign.status, 403, assign.text);
      assert.match(assign.body.detail, /advanced access/);
      const widen = await as(limited, 'PUT', `/api/v1/models/ad_role/${limitedRole}`, { IsAccessAdvanced: true });
      assert.equal(widen.status, 403, widen.text);
      const allOrgs = await as(limited, 'PUT', `/api/v1/models/ad_role/${limitedRole}`, { IsAccessAllOrgs: true });
      assert.equal(allOrgs.status, 403, allOrgs.text);
      const otherOrg = await as(limited, 'POST', '/api/v1/models/ad_role_orgaccess', { AD_Role_ID: limitedRole, AD_Org_ID: 50000 });
      assert.equal(otherOrg.status, 403, otherOrg.text);
      const window = await as(limited, 'POST', '/api/v1/models/ad_window_access', { AD_Role_ID: limitedRole, AD_Window_ID: 123, IsReadWrite: true });
      assert.equal(window.status, 403, window.text);
      assert.match(window.body.detail, /own access/);
    });

    it('may still administer what it has: assign a plain role, change a password', async () => {
      const assign = await as(limited, 'POST', '/api/v1/models/ad_user_roles', { AD_User_ID: 102, AD_Role_ID: 50004 });
      assert.equal(assign.status, 201, assign.text);
      const pw = await as(limited, 'PUT', '/api/v1/models/ad_user/102', { Password: 'Reset-by-admin-3' });
      assert.equal(pw.status, 200, pw.text);
    });
  });
});
