import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ADMIN, FULL, assertError, assertNoSecrets, assertUnauthorized, claims, header, loginPair, loginRequest, probe } from './auth-helpers.js';

describe('login', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  describe('one step', () => {
    it('logs GardenAdmin in with ids and answers the final response in the original key order', async () => {
      const r = await loginRequest(server);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body), ['userId', 'language', 'menuTreeId', 'token', 'refresh_token']);
      assert.equal(typeof r.body.userId, 'number');
      assert.equal(r.body.language, 'en_US');
      assert.equal(r.headers.get('cache-control'), 'no-store');
      assertNoSecrets(r.text);
      const c = claims(r.body.token);
      assert.equal(c.AD_Client_ID, 11);
      assert.equal(c.AD_User_ID, r.body.userId);
      assert.equal(c.AD_Role_ID, 102);
      assert.equal(c.AD_Org_ID, 11);
      assert.equal(c.M_Warehouse_ID, 103);
      assert.equal(c.AD_Language, 'en_US');
      assert.equal(typeof c.AD_Session_ID, 'number');
      assert.equal(c.sub, 'GardenAdmin');
      assert.equal(c.iss, 'idempiere.org');
      assert.ok(typeof c.exp === 'number' && typeof c.iat === 'number');
      assert.ok(Math.abs(c.exp - c.iat - 3600) <= 1, 'an hour by default');
      const h = header(r.body.token);
      assert.equal(h.alg, 'ES256');
      assert.equal(typeof h.kid, 'string');
      assert.equal(h.typ, 'JWT');
      const rc = claims(r.body.refresh_token);
      assert.ok(Math.abs(rc.exp! - rc.iat! - 86_400) <= 1, 'a day by default');
      assert.equal((await probe(server, r.body.token)).status, 200);
    });

    it('opens an AD_Session for each login', async () => {
      const { token } = await loginPair(server);
      const id = claims(token).AD_Session_ID;
      const { rows } = await server.services.db.query<{ processed: string; ad_role_id: number; createdby: number; ad_client_id: number; websession: string }>(
        'SELECT processed, ad_role_id, createdby, ad_client_id, websession FROM ad_session WHERE ad_session_id = $1',
        [id],
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.processed, 'N');
      assert.equal(Number(rows[0]!.ad_role_id), 102);
      assert.equal(Number(rows[0]!.ad_client_id), 11);
      assert.equal(Number(rows[0]!.createdby), claims(token).AD_User_ID);
    });

    it('accepts names and values where the original does and echoes the ids it resolved', async () => {
      const { rows } = await server.services.db.query<{ client: string; role: string; org: string; wh: string }>(
        `SELECT (SELECT value FROM ad_client WHERE ad_client_id = 11) AS client, (SELECT name FROM ad_role WHERE ad_role_id = 102) AS role,
                (SELECT name FROM ad_org WHERE ad_org_id = 11) AS org, (SELECT name FROM m_warehouse WHERE m_warehouse_id = 103) AS wh`,
      );
      const n = rows[0]!;
      const r = await loginRequest(server, { parameters: { clientId: n.client, roleId: n.role, organizationId: n.org, warehouseId: n.wh, language: 'en-US' } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body), ['clientId', 'userId', 'roleId', 'organizationId', 'warehouseId', 'language', 'menuTreeId', 'token', 'refresh_token']);
      assert.equal(r.body.clientId, 11);
      assert.equal(r.body.roleId, 102);
      assert.equal(r.body.organizationId, 11);
      assert.equal(r.body.warehouseId, 103);
      assert.equal(r.body.language, 'en_US');
      assert.equal(claims(r.body.token).M_Warehouse_ID, 103);
    });

    it("defaults the warehouse to the organisation's and the language to the client's when they are omitted, as the original", async () => {
      const r = await loginRequest(server, { parameters: { clientId: 11, roleId: 102, organizationId: 11 } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body), ['userId', 'warehouseId', 'language', 'menuTreeId', 'token', 'refresh_token'], 'the inferred warehouse is echoed');
      assert.equal(r.body.warehouseId, 103, 'AD_OrgInfo.M_Warehouse_ID of HQ');
      assert.equal(r.body.language, 'en_US');
      const c = claims(r.body.token);
      assert.equal(c.M_Warehouse_ID, 103);
      assert.equal(c.AD_Language, 'en_US');
      assert.equal((await probe(server, r.body.token)).status, 200);
      const none = await loginRequest(server, { parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 0 } });
      assert.equal(none.status, 200, none.text);
      assert.equal(none.body.warehouseId, undefined, 'warehouse 0 asks for none');
      assert.equal(claims(none.body.token).M_Warehouse_ID, undefined);
    });

    it('refuses wrong credentials with the same 401 for a known and an unknown user', async () => {
      const wrong = await loginRequest(server, { password: 'not-the-password' });
      assertUnauthorized(wrong);
      assert.equal(wrong.body.title, 'Authenticate error');
      const unknown = await loginRequest(server, { userName: 'NoSuchUser', password: 'whatever' });
      assertUnauthorized(unknown);
      assert.deepEqual(unknown.body, wrong.body);
    });

    it('answers 400 with the error body for missing or mistyped fields, never 500', async () => {
      assertError(await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin' } }), 400, /password is required/);
      assertError(await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 5, password: 'x' } }), 400, /userName/);
      assertError(await server.request('POST', '/api/v1/auth/tokens', { body: [] }), 400);
      assertError(await server.request('POST', '/api/v1/auth/tokens', { body: { ...ADMIN, parameters: { clientId: true } } }), 400, /clientId/);
      assertError(await server.request('POST', '/api/v1/auth/tokens', { body: { ...ADMIN, parameters: 'x' } }), 400, /parameters/);
      assertError(await server.request('POST', '/api/v1/auth/tokens', { raw: 'not json' }), 400);
    });

    it('checks that client, role, organisation and warehouse belong together', async () => {
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, clientId: 999 } }), /Invalid client/);
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, roleId: 999_999 } }), /roleId/);
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, roleId: 'No Such Role' } }), /Role name not found/);
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, organizationId: 999_999 } }), /organizationId/);
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, warehouseId: 999_999 } }), /warehouseId/);
      // A role the user is not assigned to: the System role 0, and a role of client 11 taken away.
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, clientId: 0, roleId: 0, organizationId: 0 } }));
      const db = server.services.db;
      await db.query(`UPDATE ad_user_roles SET isactive = 'N' WHERE ad_role_id = 102 AND ad_user_id = (SELECT ad_user_id FROM ad_user WHERE name = 'GardenAdmin')`);
      try {
        assertUnauthorized(await loginRequest(server));
      } finally {
        await db.query(`UPDATE ad_user_roles SET isactive = 'Y' WHERE ad_role_id = 102 AND ad_user_id = (SELECT ad_user_id FROM ad_user WHERE name = 'GardenAdmin')`);
      }
      assert.equal((await loginRequest(server)).status, 200);
    });

    it('refuses a warehouse of another organisation', async () => {
      const { rows } = await server.services.db.query<{ m_warehouse_id: number }>(
        `SELECT m_warehouse_id FROM m_warehouse WHERE ad_client_id = 11 AND ad_org_id <> 11 AND isactive = 'Y' LIMIT 1`,
      );
      if (!rows.length) return;
      assertUnauthorized(await loginRequest(server, { parameters: { ...FULL, warehouseId: Number(rows[0]!.m_warehouse_id) } }), /warehouseId/);
    });
  });

  describe('role types', () => {
    it('lets only roles whose Role Type is WebService or blank log in', async () => {
      const db = server.services.db;
      const { rows } = await db.query<{ roletype: string | null }>('SELECT roletype FROM ad_role WHERE ad_role_id = 102');
      const original = rows[0]!.roletype;
      try {
        await db.query(`UPDATE ad_role SET roletype = 'ZK' WHERE ad_role_id = 102`);
        const refused = await loginRequest(server);
        assertUnauthorized(refused, /Role Type/);
        await db.query(`UPDATE ad_role SET roletype = 'WS' WHERE ad_role_id = 102`);
        assert.equal((await loginRequest(server)).status, 200);
        await db.query(`UPDATE ad_role SET roletype = NULL WHERE ad_role_id = 102`);
        assert.equal((await loginRequest(server)).status, 200);
      } finally {
        await db.query('UPDATE ad_role SET roletype = $1 WHERE ad_role_id = 102', [original]);
      }
    });

    it('refuses the seeded role 200001 (Role Type ZK) and offers it in no lookup', async () => {
      const db = server.services.db;
      const { rows } = await db.query<{ ad_client_id: number; roletype: string | null }>('SELECT ad_client_id, roletype FROM ad_role WHERE ad_role_id = 200001');
      if (!rows.length || rows[0]!.roletype !== 'ZK') return;
      const clientId = Number(rows[0]!.ad_client_id);
      const { rows: users } = await db.query<{ ad_user_id: number }>(`SELECT ad_user_id FROM ad_user WHERE name = 'GardenAdmin'`);
      const userId = Number(users[0]!.ad_user_id);
      const { rows: has } = await db.query('SELECT 1 FROM ad_user_roles WHERE ad_user_id = $1 AND ad_role_id = 200001', [userId]);
      if (!has.length) {
        await db.query(
          `INSERT INTO ad_user_roles (ad_user_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_user_roles_uu)
           VALUES ($1, 200001, $2, 0, 'Y', now(), 100, now(), 100, gen_random_uuid()::text)`,
          [userId, clientId],
        );
      }
      assertUnauthorized(await loginRequest(server, { parameters: { clientId, roleId: 200001 } }), /Role Type/);
      const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      const roles = await server.request('GET', `/api/v1/auth/roles?client=${clientId}`, { token: first.body.token });
      assert.ok(!roles.body.roles?.some((r: { id: number }) => r.id === 200001));
    });

    it('lets the System role in only when its Role Type is cleared', async () => {
      const db = server.services.db;
      const { rows } = await db.query<{ roletype: string | null }>('SELECT roletype FROM ad_role WHERE ad_role_id = 0');
      if (!rows.length) return;
      const original = rows[0]!.roletype;
      const superUser = { userName: 'SuperUser', password: 'System', parameters: { clientId: 0, roleId: 0, organizationId: 0 } };
      try {
        await db.query(`UPDATE ad_role SET roletype = 'ZK' WHERE ad_role_id = 0`);
        assertUnauthorized(await loginRequest(server, superUser));
        await db.query(`UPDATE ad_role SET roletype = NULL WHERE ad_role_id = 0`);
        const ok = await loginRequest(server, superUser);
        assert.equal(ok.status, 200, ok.text);
        assert.equal(claims(ok.body.token).AD_Role_ID, 0);
      } finally {
        await db.query('UPDATE ad_role SET roletype = $1 WHERE ad_role_id = 0', [original]);
      }
    });
  });

  describe('stepwise', () => {
    it('answers the first step with the clients and an intermediate token', async () => {
      const r = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      assert.equal(r.status, 200, r.text);
      assert.ok(Array.isArray(r.body.clients));
      assert.ok(r.body.clients.some((c: { id: number; name: string }) => c.id === 11 && typeof c.name === 'string'));
      assert.equal(typeof r.body.token, 'string');
      assert.equal(r.body.refresh_token, undefined);
      const c = claims(r.body.token);
      assert.equal(typeof c.Clients, 'string');
      assert.equal(c.AD_Role_ID, undefined);
      assert.equal(c.AD_Session_ID, undefined);
    });

    it('walks roles, organisations, warehouses and language, then finishes with PUT', async () => {
      const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      const token = first.body.token as string;
      const roles = await server.request('GET', '/api/v1/auth/roles?client=11', { token });
      assert.equal(roles.status, 200, roles.text);
      assert.ok(roles.body.roles.some((r: { id: number; name: string }) => r.id === 102 && r.name.length > 0));
      const orgs = await server.request('GET', '/api/v1/auth/organizations?client=11&role=102', { token });
      assert.equal(orgs.status, 200, orgs.text);
      assert.ok(orgs.body.organizations.some((o: { id: number }) => o.id === 11));
      const whs = await server.request('GET', '/api/v1/auth/warehouses?client=11&role=102&organization=11', { token });
      assert.equal(whs.status, 200, whs.text);
      assert.ok(whs.body.warehouses.some((w: { id: number }) => w.id === 103));
      const lang = await server.request('GET', '/api/v1/auth/language?client=11', { token });
      assert.equal(lang.status, 200, lang.text);
      assert.deepEqual(lang.body, { AD_Language: 'en_US' });

      const put = await server.request('PUT', '/api/v1/auth/tokens', { token, body: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103, language: 'en_US' } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(Object.keys(put.body), ['userId', 'language', 'menuTreeId', 'token', 'refresh_token']);
      const c = claims(put.body.token);
      assert.equal(c.AD_Role_ID, 102);
      assert.equal(c.M_Warehouse_ID, 103);
      assert.equal((await probe(server, put.body.token)).status, 200);
    });

    it('lets the finishing PUT omit organisation, warehouse and language', async () => {
      const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      const put = await server.request('PUT', '/api/v1/auth/tokens', { token: first.body.token, body: { clientId: 11, roleId: 102 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(typeof put.body.organizationId, 'number', 'the inferred organisation is echoed');
      assert.equal(claims(put.body.token).AD_Org_ID, put.body.organizationId);
    });

    it('refuses lookups for clients and roles outside the intermediate token', async () => {
      const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      const token = first.body.token as string;
      assertUnauthorized(await server.request('GET', '/api/v1/auth/roles?client=999', { token }), /client/i);
      assertUnauthorized(await server.request('GET', '/api/v1/auth/organizations?client=11&role=999999', { token }));
      assertError(await server.request('GET', '/api/v1/auth/roles', { token }), 400, /client/);
      assertError(await server.request('GET', '/api/v1/auth/warehouses?client=11&role=102', { token }), 400, /organization/);
      assertUnauthorized(await server.request('PUT', '/api/v1/auth/tokens', { token, body: { clientId: 999, roleId: 102 } }), /client/i);
      assertError(await server.request('PUT', '/api/v1/auth/tokens', { token, body: { clientId: 11, roleId: [1] } }), 400, /roleId/);
    });

    it('makes the intermediate token good for nothing but the auth calls', async () => {
      const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
      const r = await probe(server, first.body.token);
      assertUnauthorized(r, /login is not complete/);
      assertUnauthorized(await server.request('POST', '/api/v1/batch', { token: first.body.token, body: [] }));
    });

    it('requires a token for the lookups and the finishing PUT', async () => {
      assertUnauthorized(await server.request('GET', '/api/v1/auth/roles?client=11'));
      assertUnauthorized(await server.request('PUT', '/api/v1/auth/tokens', { body: { clientId: 11, roleId: 102 } }));
    });

    it('returns the final token at once when the user has one client, role and organisation', async () => {
      const db = server.services.db;
      const { rows } = await db.query<{ ad_user_id: number }>(`SELECT ad_user_id FROM ad_user WHERE name = 'GardenAdmin'`);
      const adminId = Number(rows[0]!.ad_user_id);
      // A user of its own with only role 102, limited to organisation 11 through user org access.
      const { rows: idRows } = await db.query<{ id: number }>(`SELECT nextval('ad_user_sq') AS id`);
      const userId = Number(idRows[0]!.id);
      await db.query(
        `INSERT INTO ad_user (ad_user_id, ad_user_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, password, failedlogincount, islocked, isexpired)
         VALUES ($1, gen_random_uuid()::text, 11, 0, 'Y', now(), $2, now(), $2, 'SingleChoice', 'Single-Choice-1', 0, 'N', 'N')`,
        [userId, adminId],
      );
      const { rows: roleIdRows } = await db.query<{ id: number }>(`SELECT nextval('ad_role_sq') AS id`);
      const roleId = Number(roleIdRows[0]!.id);
      await db.query(
        `INSERT INTO ad_role (ad_role_id, ad_role_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, userlevel, isaccessallorgs, isuseuserorgaccess, ismasterrole, roletype)
         VALUES ($1, gen_random_uuid()::text, 11, 0, 'Y', now(), $2, now(), $2, 'Single Org Role', ' CO', 'N', 'N', 'N', 'WS')`,
        [roleId, adminId],
      );
      await db.query(
        `INSERT INTO ad_role_orgaccess (ad_role_id, ad_org_id, ad_client_id, isactive, isreadonly, created, createdby, updated, updatedby, ad_role_orgaccess_uu)
         VALUES ($1, 11, 11, 'Y', 'N', now(), $2, now(), $2, gen_random_uuid()::text)`,
        [roleId, adminId],
      );
      await db.query(
        `INSERT INTO ad_user_roles (ad_user_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_user_roles_uu)
         VALUES ($1, $2, 11, 0, 'Y', now(), $3, now(), $3, gen_random_uuid()::text)`,
        [userId, roleId, adminId],
      );
      const r = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'SingleChoice', password: 'Single-Choice-1' } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.clients.map((c: { id: number }) => c.id), [11]);
      assert.equal(r.body.clientId, 11);
      assert.equal(r.body.roleId, roleId);
      assert.equal(r.body.organizationId, 11);
      assert.equal(typeof r.body.refresh_token, 'string');
      const c = claims(r.body.token);
      assert.equal(c.AD_Role_ID, roleId);
      assert.equal((await probe(server, r.body.token)).status, 200);
      // Its clear-text password became an argon2id hash at the first use and still works.
      const { rows: pw } = await db.query<{ password: string }>('SELECT password FROM ad_user WHERE ad_user_id = $1', [userId]);
      assert.match(pw[0]!.password, /^\$argon2id\$/);
      const again = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'SingleChoice', password: 'Single-Choice-1' } });
      assert.equal(again.status, 200, again.text);
    });
  });

  describe('secrets', () => {
    it('never shows a password, hash, token hash or private key in records', async () => {
      const { token } = await loginPair(server);
      for (const path of [
        '/api/v1/models/ad_user?$top=100',
        '/api/v1/models/rest_refreshtoken?$top=100',
        '/api/v1/models/rest_passwordreset?$top=100',
        '/api/v1/models/ad_session?$top=100',
        '/api/v1/auth/jwk',
      ]) {
        const r = await server.request('GET', path, { token });
        assert.ok(r.status < 500, `${path}: ${r.text}`);
        assertNoSecrets(r.text);
      }
      const users = await server.request('GET', '/api/v1/models/ad_user?$top=100', { token });
      assert.equal(users.status, 200, users.text);
      for (const u of users.body.records as Record<string, unknown>[]) assert.equal(u.Password, undefined);
      const { rows } = await server.services.db.query<{ password: string }>(`SELECT password FROM ad_user WHERE name = 'GardenAdmin'`);
      assert.ok(!users.text.includes(rows[0]!.password), 'the stored password value is not in the response');
    });
  });
});
