import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { login, systemLogin } from '../../helpers/login.js';
import { clearRoleType } from '../../../src/auth/clear-role-type.js';

type Row = Record<string, unknown>;

/** Role Access Update (ad_role_accessupdate): a role's access rows made again from its user level. */
describe('Role Access Update', () => {
  const f = serverWithDemoRoles();
  const sql = async <R = Row>(text: string, params: unknown[] = []) => (await f.server.services.db.query<R>(text, params)).rows;
  const run = (body: unknown, token = f.admin) => f.server.request('POST', '/api/v1/processes/ad_role_accessupdate', { token, body });
  const ids = async (table: string, key: string, roleId: number) => (await sql<{ id: number }>(`SELECT ${key} AS id FROM ${table} WHERE ad_role_id = $1 ORDER BY 1`, [roleId])).map((r) => Number(r.id));
  /** What the role's user level reaches, computed here from the dictionary. */
  const expected = async (clientId: number, levels: string[]) => ({
    windows: (
      await sql<{ id: number }>(
        `SELECT w.ad_window_id AS id FROM ad_window w WHERE w.isactive = 'Y' AND w.ad_client_id IN (0, $1)
            AND (SELECT tt.accesslevel FROM ad_tab t JOIN ad_table tt ON tt.ad_table_id = t.ad_table_id WHERE t.ad_window_id = w.ad_window_id ORDER BY t.seqno, t.ad_tab_id LIMIT 1) = ANY($2::text[])
          ORDER BY 1`,
        [clientId, levels],
      )
    ).map((r) => Number(r.id)),
    processes: (await sql<{ id: number }>(`SELECT ad_process_id AS id FROM ad_process WHERE isactive = 'Y' AND ad_client_id IN (0, $1) AND accesslevel = ANY($2::text[]) ORDER BY 1`, [clientId, levels])).map((r) =>
      Number(r.id),
    ),
  });
  const newRole = async (name: string, userLevel: string) => {
    const r = await f.server.request('POST', '/api/v1/models/ad_role', { token: f.admin, body: { Name: name, UserLevel: userLevel, IsManual: false } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };

  it('gives an organisation role what its level reaches, and nothing of client or System level', async () => {
    const roleId = await newRole('Store Clerk', '  O');
    const r = await run({ AD_Role_ID: roleId });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    assert.equal(r.body.summary, 'Store Clerk: role access updated');
    const want = await expected(11, ['3', '1', '7']);
    assert.deepEqual(await ids('ad_window_access', 'ad_window_id', roleId), want.windows);
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', roleId), want.processes);
    const processes = await ids('ad_process_access', 'ad_process_id', roleId);
    for (const [id, why] of [[205, 'Cache Reset: System+Client'], [167, 'Open/Close All: Client'], [200300, 'Rotate Signing Key: System'], [295, 'Role Access Update itself: System+Client']] as const) {
      assert.ok(!processes.includes(id), why);
    }
    assert.ok(processes.includes(104) && processes.includes(236), 'Process Order and Storage Detail are open to organisation roles');
    assert.ok(!(await ids('ad_window_access', 'ad_window_id', roleId)).includes(111), 'the Role window (System+Client table) stays closed');
    const forms = await ids('ad_form_access', 'ad_form_id', roleId);
    assert.deepEqual(forms, [104, 108, 50010]);
    const workflows = await ids('ad_workflow_access', 'ad_workflow_id', roleId);
    assert.deepEqual(workflows, [116, 117, 118, 120, 125, 50000]);
    const [docActions] = await sql<{ n: number; expected: number }>(
      `SELECT (SELECT count(*)::int FROM ad_document_action_access WHERE ad_role_id = $1) AS n,
              (SELECT count(*)::int FROM c_doctype d, ad_ref_list l WHERE d.ad_client_id = 11 AND d.isactive = 'Y' AND l.ad_reference_id = 135) AS expected`,
      [roleId],
    );
    assert.ok(docActions!.expected > 0);
    assert.equal(docActions!.n, docActions!.expected, 'every document action on every document type of the client');
    const rows = await sql<{ ad_client_id: number; isreadwrite: string; uu: string }>(`SELECT ad_client_id, isreadwrite, ad_process_access_uu AS uu FROM ad_process_access WHERE ad_role_id = $1`, [roleId]);
    assert.ok(rows.every((x) => Number(x.ad_client_id) === 11 && x.isreadwrite === 'Y' && /^[0-9a-f-]{36}$/.test(x.uu)));
    assert.match(r.body.logs[0].msg, /^GardenWorld - Store Clerk: Window #\d+ - Process #\d+ - Form #3 - Workflow #6 - Document Action #\d+ - Info Window #\d+$/);
    // The new access takes effect: a user with the role opens what the rows give.
    await sql(`INSERT INTO ad_user_roles (ad_user_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_user_roles_uu)
               VALUES (102, $1, 11, 0, 'Y', now(), 100, now(), 100, $2)`, [roleId, randomUUID()]);
    await sql(`INSERT INTO ad_role_orgaccess (ad_role_id, ad_org_id, ad_client_id, isactive, isreadonly, created, createdby, updated, updatedby, ad_role_orgaccess_uu)
               VALUES ($1, 11, 11, 'Y', 'N', now(), 100, now(), 100, $2)`, [roleId, randomUUID()]);
    const clerk = await login(f.server, { userName: 'GardenUser', password: 'GardenUser', roleId });
    const storage = await f.server.request('GET', '/api/v1/processes/rv_storage', { token: clerk });
    assert.equal(storage.status, 200, storage.text);
  });

  it('removes the access the settings do not give (ResetAccess), or keeps it when asked not to', async () => {
    const roleId = await newRole('Counter', ' CO');
    await run({ AD_Role_ID: roleId });
    const processes = await ids('ad_process_access', 'ad_process_id', roleId);
    assert.ok(processes.includes(205) && processes.includes(167), 'client roles get System+Client and Client processes');
    assert.ok(!processes.includes(50010) && !processes.includes(200200), 'never System processes');
    // Access beyond the role's level, written by hand (the Java Version process is System level).
    const extra = () => sql(`INSERT INTO ad_process_access (ad_process_id, ad_role_id, ad_client_id, ad_org_id, isactive, isreadwrite, created, createdby, updated, updatedby, ad_process_access_uu)
                             VALUES (50010, $1, 11, 0, 'Y', 'Y', now(), 100, now(), 100, $2)`, [roleId, randomUUID()]);
    await extra();
    const kept = await run({ AD_Role_ID: roleId, ResetAccess: false });
    assert.equal(kept.body.isError, false, kept.text);
    assert.match(kept.body.logs[0].msg, /Window #0 - Process #0 - Form #0 - Workflow #0 - Document Action #0 - Info Window #0$/, 'nothing lacking');
    assert.ok((await ids('ad_process_access', 'ad_process_id', roleId)).includes(50010));
    const reset = await run({ AD_Role_ID: roleId, ResetAccess: 'Y' });
    assert.equal(reset.body.isError, false, reset.text);
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', roleId), processes, 'made again from the settings');
  });

  it('never gives a tenant role System objects, even when its user level says System', async () => {
    const roleId = await newRole('Odd Level', ' CO');
    await sql(`UPDATE ad_role SET userlevel = 'S  ' WHERE ad_role_id = $1`, [roleId]);
    const r = await run({ AD_Role_ID: roleId });
    assert.equal(r.body.isError, false, r.text);
    const processes = await ids('ad_process_access', 'ad_process_id', roleId);
    assert.ok(processes.includes(205), 'System+Client');
    const systemOnly = await sql<{ id: number }>(`SELECT ad_process_id AS id FROM ad_process WHERE accesslevel = '4'`);
    assert.ok(systemOnly.length > 0);
    assert.ok(systemOnly.every((p) => !processes.includes(Number(p.id))), 'no System-only process');
  });

  it('leaves a manual role as it is, and refuses a role of another tenant', async () => {
    const before = await ids('ad_process_access', 'ad_process_id', 50004);
    const manual = await run({ AD_Role_ID: 50004 });
    assert.equal(manual.body.isError, false, manual.text);
    assert.equal(manual.body.logs[0].msg, 'GardenWorld - Web Service Execution: -');
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', 50004), before);
    const systemRows = await ids('ad_process_access', 'ad_process_id', 0);
    const other = await run({ AD_Role_ID: 0 });
    assert.equal(other.status, 200);
    assert.equal(other.body.isError, true);
    assert.equal(other.body.summary, 'No role 0 in this client');
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', 0), systemRows);
    const bad = await run({ AD_Role_ID: 'x' });
    assert.equal(bad.status, 400);
  });

  it('is run by the roles that administer the client only (403 without access; refused for a role that does not administer)', async () => {
    for (const token of [f.user, f.ws]) {
      const r = await run({ AD_Role_ID: 103 }, token);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.title, 'Access denied');
    }
    // GardenWorld Admin Not Advanced is a web-interface role: as an administrator does, clear its Role Type to log in over REST.
    await clearRoleType(f.server.services.db, 200001);
    const notAdvanced = await login(f.server, { roleId: 200001 });
    const byNotAdvanced = await run({ AD_Role_ID: 50004 }, notAdvanced);
    assert.equal(byNotAdvanced.body.isError, false, byNotAdvanced.text);
    // GardenWorld User given the process by hand still may not rewrite access rows: it does not administer the client.
    await sql(`INSERT INTO ad_process_access (ad_process_id, ad_role_id, ad_client_id, ad_org_id, isactive, isreadwrite, created, createdby, updated, updatedby, ad_process_access_uu)
               VALUES (295, 103, 11, 0, 'Y', 'Y', now(), 100, now(), 100, $1)`, [randomUUID()]);
    const before = await ids('ad_window_access', 'ad_window_id', 103);
    const byUser = await run({ AD_Role_ID: 103 }, f.user);
    assert.equal(byUser.status, 200, byUser.text);
    assert.equal(byUser.body.isError, true);
    assert.match(byUser.body.summary, /Only a role that administers the client/);
    assert.deepEqual(await ids('ad_window_access', 'ad_window_id', 103), before, 'nothing changed');
    await sql(`DELETE FROM ad_process_access WHERE ad_process_id = 295 AND ad_role_id = 103`);
  });

  it('updates every role of the client without a role; from System, a role of any client', async () => {
    const system = await systemLogin(f.server);
    const fromSystem = await run({ AD_Role_ID: 103 }, system);
    assert.equal(fromSystem.body.isError, false, fromSystem.text);
    const want = await expected(11, ['7', '6', '3', '2', '1']);
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', 103), want.processes, 'GardenWorld User (not manual) gets what a client and organisation role reaches');
    const systemRows = await ids('ad_process_access', 'ad_process_id', 0);
    const all = await run({});
    assert.equal(all.body.isError, false, all.text);
    const roles = await sql<{ name: string }>(`SELECT name FROM ad_role WHERE ad_client_id = 11 AND isactive = 'Y' ORDER BY name`);
    assert.equal(all.body.summary, `Role access updated: ${roles.length} roles`);
    assert.deepEqual(all.body.logs.map((l: { msg: string }) => l.msg.split(':')[0]), roles.map((x) => `GardenWorld - ${x.name}`));
    assert.deepEqual(await ids('ad_process_access', 'ad_process_id', 0), systemRows, 'the System role is not touched from a client');
  });
});
