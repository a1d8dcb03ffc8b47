import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../../src/server.js';
import { keptIdentifiersSettled } from '../../../src/records/read/identifier-cache.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { serverUrl } from '../../helpers/database.js';
import { login, systemLogin } from '../../helpers/login.js';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';

const GROUP = 1_000_950;
const BP = 1_000_951;
const OTHER_CLIENT = 1_000_960;
const OTHER_ORG = 1_000_961;
const OTHER_ROLE = 1_000_962;
const OTHER_USER = 1_000_963;
const OTHER_GROUP = 1_000_964;
const OTHER_BP = 1_000_965;
const FOREIGN_BP = 1_000_966;

type Lookup = { id: number; identifier?: string; 'model-name': string };

/** Identifiers of small tables, and of the tenant, organisation and writers of every record, are kept in memory. */
describe('kept identifiers', () => {
  let server: TestServer;
  let admin: string;
  let other: string;
  const kept = (s: RunningServer) => s.services.caches.list().find((c) => c.name === 'reference identifiers')!;
  const partner = async (token: string, id: number, s: RunningServer = server) => {
    const res = await fetch(`${s.url}/api/v1/models/c_bpartner/${id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, Lookup>;
  };
  /** Reads until the instance keeps identifiers: the first read has the tables counted in the background. */
  const untilKept = async (token: string, s: RunningServer) => {
    for (let i = 0; i < 150 && kept(s).size === 0; i++) {
      await partner(token, BP, s);
      if (kept(s).size === 0) await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(kept(s).size > 0, 'the small tables are counted and a read keeps their identifiers');
  };
  const listed = async (token: string, filter: string) => {
    const r = await server.request('GET', `/api/v1/models/c_bpartner?$filter=${encodeURIComponent(filter)}`, { token });
    assert.equal(r.status, 200, r.text);
    return r.body.records as Record<string, Lookup>[];
  };

  before(async () => {
    server = await startTestServer();
    const dict = server.services.dictionary.current;
    // A start counts no table: that waits for the first read that needs the identifiers (see untilKept).
    assert.equal(keptIdentifiersSettled(dict), false);
    const now = new Date().toISOString();
    const put = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(server.services.db, dict.byName.get(table.toLowerCase())!, rows, now);
    await put('C_BP_Group', [{ C_BP_Group_ID: GROUP, AD_Client_ID: 11, AD_Org_ID: 0, Value: 'KEPT', Name: 'Kept group' }]);
    await put('C_BPartner', [{ C_BPartner_ID: BP, AD_Client_ID: 11, AD_Org_ID: 11, Value: 'KEPTBP', Name: 'Kept partner', C_BP_Group_ID: GROUP }]);
    // A second tenant: one partner in a group of its own, one in a group of GardenWorld's.
    await put('AD_Client', [{ AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Value: 'KeptCo', Name: 'Kept Company', AD_Language: 'en_US' }]);
    await put('AD_Org', [{ AD_Org_ID: OTHER_ORG, AD_Client_ID: OTHER_CLIENT, Value: 'KHQ', Name: 'Kept HQ' }]);
    await put('AD_Role', [{ AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'Kept Admin', UserLevel: ' CO', IsAccessAllOrgs: 'Y', IsManual: 'N' }]);
    await put('AD_User', [{ AD_User_ID: OTHER_USER, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'KeptAdmin', Password: 'KeptAdmin1!' }]);
    await put('AD_User_Roles', [{ AD_User_ID: OTHER_USER, AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);
    await put('C_BP_Group', [{ C_BP_Group_ID: OTHER_GROUP, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Value: 'OTHER', Name: 'Other group' }]);
    await put('C_BPartner', [
      { C_BPartner_ID: OTHER_BP, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: OTHER_ORG, Value: 'KOBP', Name: 'Other kept partner', C_BP_Group_ID: OTHER_GROUP },
      { C_BPartner_ID: FOREIGN_BP, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: OTHER_ORG, Value: 'KFBP', Name: 'Foreign group partner', C_BP_Group_ID: GROUP },
    ]);
    admin = await login(server);
    other = await login(server, { userName: 'KeptAdmin', password: 'KeptAdmin1!', clientId: OTHER_CLIENT, roleId: OTHER_ROLE, organizationId: OTHER_ORG, warehouseId: 0 });
    await untilKept(admin, server);
  });
  after(async () => {
    await server.close();
  });

  it('reads no identifier subquery for a kept lookup, and shows the same record', async () => {
    const r = await server.request('GET', `/api/v1/models/c_bpartner/${BP}?showsql=true`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.doesNotMatch(r.body['sql-command'], /FROM "c_bp_group"/);
    assert.equal(r.body.C_BP_Group_ID.identifier, 'Kept group');
    assert.equal(r.body.AD_Client_ID.identifier, 'GardenWorld');
    assert.equal(r.body.AD_Org_ID.identifier, 'HQ');
    assert.equal(r.body.CreatedBy['model-name'], 'ad_user');
  });

  it('a PUT of an identifier shows in the next read on this instance', async () => {
    const hits = kept(server).hits;
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, 'Kept group');
    assert.ok(kept(server).hits > hits, 'the identifier came from memory');
    const r = await server.request('PUT', `/api/v1/models/c_bp_group/${GROUP}`, { token: admin, body: { Name: 'Renamed group' } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, 'Renamed group');
    assert.equal((await listed(admin, `C_BPartner_ID eq ${BP}`))[0]!.C_BP_Group_ID!.identifier, 'Renamed group');
  });

  it('a write response shows the identifiers its own transaction wrote', async () => {
    const created = await server.request('POST', '/api/v1/models/c_bp_group', { token: admin, body: { Value: 'NEWKEPT', Name: 'New group' } });
    assert.equal(created.status, 201, created.text);
    const moved = await server.request('PUT', `/api/v1/models/c_bpartner/${BP}`, { token: admin, body: { C_BP_Group_ID: created.body.id } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.C_BP_Group_ID.identifier, 'New group');
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, 'New group');
    const back = await server.request('PUT', `/api/v1/models/c_bpartner/${BP}`, { token: admin, body: { C_BP_Group_ID: GROUP } });
    assert.equal(back.status, 200, back.text);
  });

  it('a role of another tenant sees its own tenant, organisation and group, and no record of GardenWorld', async () => {
    await partner(admin, BP);
    const own = await partner(other, OTHER_BP);
    assert.equal(own.AD_Client_ID!.identifier, 'Kept Company');
    assert.equal(own.AD_Org_ID!.identifier, 'Kept HQ');
    assert.equal(own.C_BP_Group_ID!.identifier, 'Other group');
    const list = await listed(other, `startswith(Value, 'K')`);
    assert.deepEqual(list.map((p) => p.id).sort(), [OTHER_BP, FOREIGN_BP].sort());
    for (const p of list) assert.equal(p.AD_Client_ID!.identifier, 'Kept Company');
    const gw = await server.request('GET', `/api/v1/models/c_bpartner/${BP}`, { token: other });
    assert.ok(gw.status === 403 || gw.status === 404, gw.text);
  });

  it('a lookup of a record the role may not read shows its identifier as the statement reads it', async () => {
    const group = await server.request('GET', `/api/v1/models/c_bp_group/${GROUP}`, { token: other });
    assert.ok(group.status === 403 || group.status === 404, group.text);
    const { rows } = await server.services.db.query<{ name: string }>('SELECT name FROM c_bp_group WHERE c_bp_group_id = $1', [GROUP]);
    const seen = await partner(other, FOREIGN_BP);
    assert.equal(seen.C_BP_Group_ID!.id, GROUP);
    assert.equal(seen.C_BP_Group_ID!.identifier, rows[0]!.name);
  });

  it('a deleted record no longer shows its identifier', async () => {
    const created = await server.request('POST', '/api/v1/models/c_bp_group', { token: admin, body: { Value: 'GONE', Name: 'Group to delete' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as number;
    // A partner that still names it afterwards (no constraint holds it), written behind the API.
    await server.services.db.query('UPDATE c_bpartner SET c_bp_group_id = $1 WHERE c_bpartner_id = $2', [id, BP]);
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, 'Group to delete');
    // The identifier is now kept. The partner lets go of the group (behind the API) so that the API deletes it,
    // then names the deleted key again: the read must not show what was kept for it.
    await server.services.db.query('UPDATE c_bpartner SET c_bp_group_id = $1 WHERE c_bpartner_id = $2', [GROUP, BP]);
    const del = await server.request('DELETE', `/api/v1/models/c_bp_group/${id}`, { token: admin });
    assert.equal(del.status, 200, del.text);
    await server.services.db.query('UPDATE c_bpartner SET c_bp_group_id = $1 WHERE c_bpartner_id = $2', [id, BP]);
    try {
      assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, undefined);
    } finally {
      await server.services.db.query('UPDATE c_bpartner SET c_bp_group_id = $1 WHERE c_bpartner_id = $2', [GROUP, BP]);
    }
  });

  it('a rename read inside a transaction that rolls back is not kept', async () => {
    const was = (await partner(admin, BP)).C_BP_Group_ID!.identifier;
    const batch = await server.request('POST', '/api/v1/batch?transaction=true', {
      token: admin,
      body: [
        { method: 'PUT', path: `v1/models/c_bp_group/${GROUP}`, body: { Name: 'Renamed, then rolled back' } },
        { method: 'PUT', path: `v1/models/c_bpartner/${BP}`, body: { Description: 'read inside the transaction' } },
        { method: 'POST', path: 'v1/models/C_BPartner', body: { Name: 'Fails', C_BP_Group_ID: 999999999 } },
      ],
    });
    assert.equal(batch.status, 400, batch.text);
    assert.equal(batch.body[1].statusCode, 200, JSON.stringify(batch.body));
    // Inside the transaction the partner's answer shows what the transaction wrote ...
    assert.equal(batch.body[1].body.C_BP_Group_ID.identifier, 'Renamed, then rolled back');
    // ... and after the rollback every read shows the committed name again.
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, was);
    assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, was);
  });

  it('a name changed by SQL outside the service shows once the caches of its table are reset', async () => {
    const was = (await partner(admin, BP)).C_BP_Group_ID!.identifier;
    await server.services.db.query('UPDATE c_bp_group SET name = $1 WHERE c_bp_group_id = $2', ['Renamed behind the service', GROUP]);
    try {
      // Kept: the write raised no event.
      assert.equal((await partner(admin, BP)).C_BP_Group_ID!.identifier, was);
      const reset = await server.request('DELETE', '/api/v1/caches?table_name=C_BP_Group', { token: await systemLogin(server) });
      assert.equal(reset.status, 200, reset.text);
      // The reset travels by NOTIFY, which reaches this instance a moment after the answer on a server.
      let seen = was;
      for (let i = 0; i < 150 && seen !== 'Renamed behind the service'; i++) {
        seen = (await partner(admin, BP)).C_BP_Group_ID!.identifier;
        if (seen !== 'Renamed behind the service') await new Promise((res) => setTimeout(res, 20));
      }
      assert.equal(seen, 'Renamed behind the service');
    } finally {
      await server.services.db.query('UPDATE c_bp_group SET name = $1 WHERE c_bp_group_id = $2', [was, GROUP]);
      await server.request('DELETE', '/api/v1/caches?table_name=C_BP_Group', { token: await systemLogin(server) });
    }
  });

  describe('on another instance sharing the database', { skip: !serverUrl }, () => {
    let second: RunningServer;
    before(async () => {
      second = await startSecondInstance(server);
      await untilKept(admin, second);
    });
    after(async () => {
      await second.close();
    });

    it('a PUT on one instance shows in the reads of the other once it commits', async () => {
      const before = (await partner(admin, BP, second)).C_BP_Group_ID!.identifier;
      const r = await server.request('PUT', `/api/v1/models/c_bp_group/${GROUP}`, { token: admin, body: { Name: 'Renamed on the first' } });
      assert.equal(r.status, 200, r.text);
      assert.notEqual(before, 'Renamed on the first');
      let seen: string | undefined;
      for (let i = 0; i < 150 && seen !== 'Renamed on the first'; i++) {
        seen = (await partner(admin, BP, second)).C_BP_Group_ID!.identifier;
        if (seen !== 'Renamed on the first') await new Promise((res) => setTimeout(res, 20));
      }
      assert.equal(seen, 'Renamed on the first');
    });
  });
});
