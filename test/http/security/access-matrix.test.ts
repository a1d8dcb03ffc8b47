import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestResponse, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

/**
 * Every demo role against every security table and a shared business table, for read, create,
 * update and delete, with the answer the original gives written down beside each. Writes are
 * attempted by the least privileged roles first, so that an escalation would show as a 2xx
 * where the table says 403 (and would then have changed what later rows see).
 */
type Role = 'admin' | 'user' | 'ws' | 'system';
type Op = 'read' | 'create' | 'update' | 'delete';
/**
 * ok: 2xx; deny: 403; '-': not applicable (the table is not written that way, or, for the System
 * role, a create lands in its own client, which is its right).
 */
type Expect = 'ok' | 'deny' | '-';

// role order inside a row: admin, user, ws, system
const MATRIX: Record<string, Record<Op, [Expect, Expect, Expect, Expect]>> = {
  ad_user: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_user_roles: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_role: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_role_orgaccess: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_user_orgaccess: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_window_access: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_process_access: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_form_access: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_document_action_access: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_table_access: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
  ad_session: { read: ['ok', 'ok', 'ok', 'ok'], create: ['-', '-', '-', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['-', '-', '-', '-'] },
  rest_refreshtoken: { read: ['ok', 'ok', 'ok', 'ok'], create: ['-', '-', '-', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['-', '-', '-', '-'] },
  rest_signingkey: { read: ['deny', 'deny', 'deny', 'ok'], create: ['-', '-', '-', '-'], update: ['deny', 'deny', 'deny', '-'], delete: ['-', '-', '-', '-'] },
  // A shared business table: rows of organisation * (0). Every role reads every table (the System role
  // only its own client's rows, none here), as the original's role access reads no level for reading.
  c_bp_group: { read: ['ok', 'ok', 'ok', 'ok'], create: ['ok', 'deny', 'deny', '-'], update: ['ok', 'deny', 'deny', 'deny'], delete: ['ok', 'deny', 'deny', 'deny'] },
};
const ROLES: Role[] = ['system', 'ws', 'user', 'admin'];
const COLUMN: Record<Role, number> = { admin: 0, user: 1, ws: 2, system: 3 };

describe('access matrix: demo roles against security tables', () => {
  let server: TestServer;
  const token = {} as Record<Role, string>;
  /** Per table: a body to create, a record to update with its body, a record to delete. */
  const fixture: Record<string, { create?: Record<string, unknown>; update?: { ref: string; body: Record<string, unknown> }; remove?: () => Promise<string> }> = {};
  const as = (role: Role, method: string, path: string, body?: unknown): Promise<TestResponse> => server.request(method, path, { token: token[role], body });
  let adminUserId = 0;

  /** A record created by the administrator, for another role to try to change or delete. */
  const created = async (table: string, body: Record<string, unknown>): Promise<string> => {
    const r = await as('admin', 'POST', `/api/v1/models/${table}`, body);
    assert.equal(r.status, 201, `fixture ${table}: ${r.text}`);
    return String(r.body.id ?? r.body.uid);
  };

  before(async () => {
    server = await startTestServer();
    token.admin = await login(server);
    token.user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    token.ws = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    token.system = await systemLogin(server);
    adminUserId = 101;
    const victim = await created('ad_user', { Name: 'Matrix victim', Password: 'Victim-pass-1', AD_Org_ID: 0 });
    const role = await created('ad_role', { Name: 'Matrix role', UserLevel: ' CO', IsManual: true });
    const roleId = Number(role);
    const userRole = await created('ad_user_roles', { AD_User_ID: Number(victim), AD_Role_ID: 103 });
    const roleOrg = await created('ad_role_orgaccess', { AD_Role_ID: roleId, AD_Org_ID: 11 });
    const userOrg = await created('ad_user_orgaccess', { AD_User_ID: Number(victim), AD_Org_ID: 11 });
    const window = await created('ad_window_access', { AD_Role_ID: roleId, AD_Window_ID: 123, IsReadWrite: true });
    const proc = await created('ad_process_access', { AD_Role_ID: roleId, AD_Process_ID: 136, IsReadWrite: true });
    const form = await created('ad_form_access', { AD_Role_ID: roleId, AD_Form_ID: 104, IsReadWrite: true });
    const docAction = await created('ad_document_action_access', { AD_Role_ID: roleId, C_DocType_ID: 132, AD_Ref_List_ID: 197 });
    const tableRule = await created('ad_table_access', { AD_Role_ID: roleId, AD_Table_ID: 291, IsExclude: true });
    const group = await created('c_bp_group', { Name: 'Matrix group', Value: 'MATRIX', AD_Org_ID: 0 });
    const sessions = await as('admin', 'GET', `/api/v1/models/ad_session?$filter=${encodeURIComponent('CreatedBy eq 102')}`);
    const tokens = await as('admin', 'GET', `/api/v1/models/rest_refreshtoken?$filter=${encodeURIComponent('AD_User_ID eq 102')}`);
    const keys = await as('system', 'GET', '/api/v1/models/rest_signingkey');
    assert.ok(sessions.body.records.length && tokens.body.records.length && keys.body.records.length);

    const fresh = (table: string, body: Record<string, unknown>) => () => created(table, body);
    fixture.ad_user = { create: { Name: 'Matrix new', Password: 'Matrix-pass-1' }, update: { ref: victim, body: { Password: 'Changed-pass-2' } }, remove: fresh('ad_user', { Name: 'Matrix gone', AD_Org_ID: 0 }) };
    fixture.ad_user_roles = { create: { AD_User_ID: Number(victim), AD_Role_ID: roleId }, update: { ref: userRole, body: { IsActive: true } }, remove: fresh('ad_user_roles', { AD_User_ID: Number(victim), AD_Role_ID: 50004 }) };
    fixture.ad_role = { create: { Name: 'Matrix role 2', UserLevel: ' CO' }, update: { ref: role, body: { Description: 'changed' } }, remove: fresh('ad_role', { Name: 'Matrix gone role', UserLevel: ' CO' }) };
    fixture.ad_role_orgaccess = { create: { AD_Role_ID: roleId, AD_Org_ID: 12 }, update: { ref: roleOrg, body: { IsReadOnly: true } }, remove: fresh('ad_role_orgaccess', { AD_Role_ID: roleId, AD_Org_ID: 50000 }) };
    fixture.ad_user_orgaccess = { create: { AD_User_ID: Number(victim), AD_Org_ID: 12 }, update: { ref: userOrg, body: { IsReadOnly: true } }, remove: fresh('ad_user_orgaccess', { AD_User_ID: Number(victim), AD_Org_ID: 50000 }) };
    fixture.ad_window_access = { create: { AD_Role_ID: roleId, AD_Window_ID: 143 }, update: { ref: window, body: { IsReadWrite: false } }, remove: fresh('ad_window_access', { AD_Role_ID: roleId, AD_Window_ID: 102 }) };
    fixture.ad_process_access = { create: { AD_Role_ID: roleId, AD_Process_ID: 104 }, update: { ref: proc, body: { IsReadWrite: false } }, remove: fresh('ad_process_access', { AD_Role_ID: roleId, AD_Process_ID: 205 }) };
    fixture.ad_form_access = { create: { AD_Role_ID: roleId, AD_Form_ID: 108 }, update: { ref: form, body: { IsReadWrite: false } }, remove: fresh('ad_form_access', { AD_Role_ID: roleId, AD_Form_ID: 50010 }) };
    fixture.ad_document_action_access = { create: { AD_Role_ID: roleId, C_DocType_ID: 132, AD_Ref_List_ID: 200 }, update: { ref: docAction, body: { IsActive: true } }, remove: fresh('ad_document_action_access', { AD_Role_ID: roleId, C_DocType_ID: 132, AD_Ref_List_ID: 201 }) };
    fixture.ad_table_access = { create: { AD_Role_ID: roleId, AD_Table_ID: 259, IsExclude: true }, update: { ref: tableRule, body: { IsReadOnly: true } }, remove: fresh('ad_table_access', { AD_Role_ID: roleId, AD_Table_ID: 208 }) };
    fixture.ad_session = { update: { ref: String(sessions.body.records[0].id), body: { Description: 'changed' } } };
    fixture.rest_refreshtoken = { update: { ref: String(tokens.body.records[0].id), body: { IsActive: true } } };
    fixture.rest_signingkey = { update: { ref: String(keys.body.records[0].id), body: { IsActive: true } } };
    fixture.c_bp_group = { create: { Name: 'Matrix group 2', Value: 'MATRIX2', AD_Org_ID: 0 }, update: { ref: group, body: { Description: 'changed' } }, remove: fresh('c_bp_group', { Name: 'Matrix gone group', Value: 'MATRIXGONE', AD_Org_ID: 0 }) };
  });
  after(async () => {
    await server.close();
  });

  const outcome = (r: TestResponse): Expect => (r.status >= 200 && r.status < 300 ? 'ok' : r.status === 403 ? 'deny' : (`status ${r.status}` as Expect));

  for (const table of Object.keys(MATRIX)) {
    it(`${table}: every role gets the original's answer for read, create, update and delete`, async () => {
      const seen: string[] = [];
      const want: string[] = [];
      for (const role of ROLES) {
        const row = MATRIX[table]!;
        const f = fixture[table]!;
        const check = (op: Op, r: TestResponse) => {
          const expected = row[op][COLUMN[role]];
          seen.push(`${role} ${op}: ${outcome(r)}${outcome(r) === expected ? '' : ` (${r.text.slice(0, 160)})`}`);
          want.push(`${role} ${op}: ${expected}`);
        };
        if (row.read[COLUMN[role]] !== '-') check('read', await as(role, 'GET', `/api/v1/models/${table}`));
        if (row.create[COLUMN[role]] !== '-') check('create', await as(role, 'POST', `/api/v1/models/${table}`, f.create));
        if (row.update[COLUMN[role]] !== '-') check('update', await as(role, 'PUT', `/api/v1/models/${table}/${f.update!.ref}`, f.update!.body));
        if (row.delete[COLUMN[role]] !== '-') check('delete', await as(role, 'DELETE', `/api/v1/models/${table}/${await f.remove!()}`));
      }
      assert.deepEqual(seen.map((s) => s.replace(/ \(.*$/, '')), want, seen.join('\n'));
    });
  }

  it('shows sessions and refresh tokens only to their own user, unless the role administers the client', async () => {
    for (const [table, owner] of [['ad_session', 'CreatedBy'], ['rest_refreshtoken', 'AD_User_ID']] as const) {
      const mine = await as('user', 'GET', `/api/v1/models/${table}`);
      assert.equal(mine.status, 200);
      assert.ok(mine.body.records.length > 0, `${table}: ${mine.text.slice(0, 300)}`);
      for (const r of mine.body.records) assert.equal(r[owner].id, 102, `${table} shows a row of user ${r[owner].id}`);
      const all = await as('admin', 'GET', `/api/v1/models/${table}`);
      const users = new Set(all.body.records.map((r: Record<string, { id: number }>) => r[owner]!.id));
      assert.ok(users.has(adminUserId) && users.has(102), `the administrator sees every user's ${table}`);
      const other = all.body.records.find((r: Record<string, { id: number }>) => r[owner]!.id === adminUserId);
      const byId = await as('user', 'GET', `/api/v1/models/${table}/${other.id}`);
      assert.equal(byId.status, 403);
    }
    const tokens = await as('admin', 'GET', '/api/v1/models/rest_refreshtoken');
    for (const r of tokens.body.records) assert.ok(!('Token' in r) && !('RefreshToken' in r), 'token hashes are never returned');
  });
});
