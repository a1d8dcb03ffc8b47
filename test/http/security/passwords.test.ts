import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/** Passwords written through the API: hashed before they are stored, checked against the policy. */
describe('passwords written through the API', () => {
  let server: TestServer;
  let admin: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const stored = async (userId: number): Promise<string | null> =>
    (await server.services.db.query<{ password: string | null }>('SELECT password FROM ad_user WHERE ad_user_id = $1', [userId])).rows[0]!.password;
  const loginAs = (userName: string, password: string, roleId = 103) =>
    server.request('POST', '/api/v1/auth/tokens', { body: { userName, password, parameters: { clientId: 11, roleId, organizationId: 11 } } });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('stores a password given on create as an argon2id hash, and the account logs in with it', async () => {
    const r = await as(admin, 'POST', '/api/v1/models/ad_user', { Name: 'Hashed on create', Password: 'Create-pass-1', AD_Org_ID: 0 });
    assert.equal(r.status, 201, r.text);
    assert.ok(!('Password' in r.body), 'the password is never returned');
    const hash = await stored(r.body.id);
    assert.match(hash ?? '', /^\$argon2id\$v=19\$/);
    assert.ok(!hash!.includes('Create-pass-1'));
    assert.equal((await as(admin, 'POST', '/api/v1/models/ad_user_roles', { AD_User_ID: r.body.id, AD_Role_ID: 103 })).status, 201);
    assert.equal((await loginAs('Hashed on create', 'Create-pass-1')).status, 200);
  });

  it('hashes passwords written by update and by batch too', async () => {
    const put = await as(admin, 'PUT', '/api/v1/models/ad_user/102', { Password: 'Update-pass-2' });
    assert.equal(put.status, 200, put.text);
    assert.match((await stored(102)) ?? '', /^\$argon2id\$/);
    assert.equal((await loginAs('GardenUser', 'Update-pass-2')).status, 200);
    const batch = await as(admin, 'POST', '/api/v1/batch', [
      { method: 'POST', path: 'v1/models/ad_user', body: { Name: 'Batch user', Password: 'Batch-pass-3', AD_Org_ID: 0 } },
    ]);
    assert.equal(batch.status, 200, batch.text);
    const id = batch.body[0].body.id;
    assert.match((await stored(id)) ?? '', /^\$argon2id\$/);
  });

  it('refuses a weak password with a 400 naming the policy, and stores nothing', async () => {
    const before = await stored(102);
    for (const weak of ['x', 'short1', 'onlyletters', 'GardenUser']) {
      const r = await as(admin, 'PUT', '/api/v1/models/ad_user/102', { Password: weak });
      assert.equal(r.status, 400, `${weak}: ${r.text}`);
      assert.equal(r.body.title, 'Password policy violated');
      assert.match(r.body.detail, /PASSWORD_RESET_MIN_PASSWORD_LENGTH/);
    }
    const create = await as(admin, 'POST', '/api/v1/models/ad_user', { Name: 'Weak', Password: 'x' });
    assert.equal(create.status, 400);
    assert.equal((await server.services.db.query(`SELECT 1 FROM ad_user WHERE name = 'Weak'`)).rows.length, 0);
    assert.equal(await stored(102), before);
  });

  it("ends the user's sessions when the password changes", async () => {
    const victim = await login(server, { userName: 'GardenUser', password: 'Update-pass-2', roleId: 103 });
    assert.equal((await as(victim, 'GET', '/api/v1/models/c_bpartner?$top=1')).status, 200);
    const r = await as(admin, 'PUT', '/api/v1/models/ad_user/102', { Password: 'Changed-pass-4' });
    assert.equal(r.status, 200, r.text);
    const after = await as(victim, 'GET', '/api/v1/models/c_bpartner?$top=1');
    assert.equal(after.status, 401);
    assert.equal((await loginAs('GardenUser', 'Update-pass-2')).status, 401);
    assert.equal((await loginAs('GardenUser', 'Changed-pass-4')).status, 200);
  });

  it('lets users change their own password, and not another user\'s', async () => {
    const self = await login(server, { userName: 'GardenUser', password: 'Changed-pass-4', roleId: 103 });
    const own = await as(self, 'PUT', '/api/v1/models/ad_user/102', { Password: 'Own-choice-5' });
    assert.equal(own.status, 200, own.text);
    assert.match((await stored(102)) ?? '', /^\$argon2id\$/);
    const again = await login(server, { userName: 'GardenUser', password: 'Own-choice-5', roleId: 103 });
    const lock = await as(again, 'PUT', '/api/v1/models/ad_user/102', { IsLocked: true });
    assert.equal(lock.status, 403, lock.text);
    const created = await as(admin, 'POST', '/api/v1/models/ad_user', { Name: 'HQ contact', AD_Org_ID: 11 });
    const other = await as(again, 'PUT', `/api/v1/models/ad_user/${created.body.id}`, { Password: 'Not-mine-6' });
    assert.equal(other.status, 403, other.text);
  });

  it('never returns, filters on or selects secret columns', async () => {
    const one = await as(admin, 'GET', '/api/v1/models/ad_user/101');
    for (const c of ['Password', 'Salt', 'UserPIN', 'Answer', 'EMailUserPW']) assert.ok(!(c in one.body), `${c} is returned`);
    assert.equal((await as(admin, 'GET', '/api/v1/models/ad_user?$select=Password')).status, 400);
    assert.equal((await as(admin, 'GET', `/api/v1/models/ad_user?$filter=${encodeURIComponent("Password eq 'x'")}`)).status, 400);
    assert.equal((await as(admin, 'GET', '/api/v1/models/ad_user/101/Password')).status, 404);
  });
});
