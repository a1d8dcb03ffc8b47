import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import { eventually } from '../../helpers/wait.js';
import { assertUpstreamShape, upstreamDocsMissing } from '../../helpers/admin-schemas.js';
import type { RunningServer } from '../../../src/server.js';
import type { CacheRegistry } from '../../../src/cache/cache-registry.js';

const sizeOf = (caches: CacheRegistry, name: string): number => caches.list().find((c) => c.name === name)!.size;

describe('caches', () => {
  let server: TestServer;
  let system: string;
  let second: RunningServer | null = null;
  before(async () => {
    server = await startTestServer();
    system = await systemLogin(server);
  });
  after(async () => {
    await second?.close();
    await server.close();
  });

  it('lists the caches of this node with their table, size, expiry, bound, hits and misses', async () => {
    const admin = await login(server);
    for (let i = 0; i < 2; i++) await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: admin });
    const r = await server.request('GET', '/api/v1/caches', { token: system });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['caches']);
    const names = r.body.caches.map((c: { name: string }) => c.name);
    assert.deepEqual(names, ['dictionary', 'AD_SysConfig', 'role access', 'verified access tokens', 'Workflow definitions', 'Workflow approvers', 'reference identifiers']);
    for (const c of r.body.caches) {
      assert.deepEqual(Object.keys(c), ['name', 'tableName', 'size', 'expireMinutes', 'maxSize', 'distributed', 'nodeId', 'hits', 'misses']);
      assert.equal(c.nodeId, server.services.nodes.id);
      assert.equal(c.distributed, false);
      assert.ok(Number.isInteger(c.maxSize) && c.maxSize >= 0, 'an unbounded cache says 0, as the original');
    }
    assert.equal(r.body.caches.find((c: { name: string }) => c.name === 'AD_SysConfig').tableName, 'AD_SysConfig');
    assert.equal(r.body.caches.find((c: { name: string }) => c.name === 'dictionary').maxSize, 0);
    const tokens = r.body.caches.find((c: { name: string }) => c.name === 'verified access tokens');
    assert.ok(tokens.size >= 2 && tokens.hits >= 1, JSON.stringify(tokens));
    const dictionary = r.body.caches.find((c: { name: string }) => c.name === 'dictionary');
    assert.ok(dictionary.size > 100 && dictionary.hits > 0, JSON.stringify(dictionary));
    assert.ok(sizeOf(server.services.caches, 'role access') >= 1);
  });

  it('filters the list by table_name and by name', async () => {
    const byTable = await server.request('GET', '/api/v1/caches?table_name=AD_SysConfig', { token: system });
    assert.equal(byTable.status, 200, byTable.text);
    assert.deepEqual(byTable.body.caches.map((c: { name: string }) => c.name), ['AD_SysConfig']);
    // A table several caches hold lists each of them, whatever the case of its name.
    const holding = server.services.caches.matching('ad_role').map((c) => c.name);
    assert.ok(holding.length >= 2, holding.join());
    const byRole = await server.request('GET', '/api/v1/caches?table_name=ad_role', { token: system });
    assert.deepEqual(byRole.body.caches.map((c: { name: string }) => c.name), holding);
    const byName = await server.request('GET', '/api/v1/caches?name=role%20access', { token: system });
    assert.deepEqual(byName.body.caches.map((c: { name: string }) => c.name), ['role access']);
    const none = await server.request('GET', '/api/v1/caches?name=nosuch', { token: system });
    assert.deepEqual(none.body, { caches: [] });
  });

  it('answers the list and the reset in the shapes of the upstream documents', { skip: upstreamDocsMissing }, async () => {
    const { admin, ws } = await demoRoleTokens(server);
    assertUpstreamShape('GET', '/caches', await server.request('GET', '/api/v1/caches', { token: ws }), 200);
    assertUpstreamShape('DELETE', '/caches', await server.request('DELETE', '/api/v1/caches?table_name=AD_SysConfig', { token: admin }), 200);
  });

  it('resets the caches of one table, then all of them', async () => {
    await server.request('GET', '/api/v1/caches', { token: system });
    const access = sizeOf(server.services.caches, 'role access');
    assert.ok(access >= 1);
    const one = await server.request('DELETE', '/api/v1/caches?table_name=AD_SysConfig', { token: system });
    assert.equal(one.status, 200, one.text);
    await eventually(() => sizeOf(server.services.caches, 'AD_SysConfig') === 0, 'the SysConfig cache emptied');
    assert.ok(sizeOf(server.services.caches, 'role access') >= 1, 'the role access cache stays');
    const all = await server.request('DELETE', '/api/v1/caches', { token: system });
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.entriesReset >= access, JSON.stringify(all.body));
    await eventually(() => sizeOf(server.services.caches, 'role access') === 0 && sizeOf(server.services.caches, 'verified access tokens') === 0, 'all caches emptied');
  });

  it('refuses bad parameters with 400', async () => {
    const r = await server.request('DELETE', '/api/v1/caches?table_name=no_such_table', { token: system });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.title, 'Invalid table name');
    const id = await server.request('DELETE', '/api/v1/caches?table_name=AD_Role&record_id=x', { token: system });
    assert.equal(id.status, 400, id.text);
  });

  it('lists the caches to every role, and lets a role reset them when it may run the Cache Reset process', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      const r = await server.request('GET', '/api/v1/caches', { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.caches.length, 7);
    }
    // GardenWorld User and WebService have no access to Cache Reset: refused, nothing reset.
    const before = sizeOf(server.services.caches, 'role access');
    assert.ok(before >= 1);
    for (const token of [user, ws]) {
      const r = await server.request('DELETE', '/api/v1/caches', { token });
      assert.deepEqual(r.body, { title: 'Access denied', status: 403, detail: 'Access denied for cache reset request' });
    }
    assert.ok(sizeOf(server.services.caches, 'role access') >= 1, 'nothing was reset');
    // GardenWorld Admin may run Cache Reset: its reset empties the shared caches, as the process does.
    const reset = await server.request('DELETE', '/api/v1/caches', { token: admin });
    assert.equal(reset.status, 200, reset.text);
    assert.ok(reset.body.entriesReset >= before, reset.text);
    await eventually(() => sizeOf(server.services.caches, 'role access') === 0, 'the role access cache emptied');
    // Without that access (the row made inactive) the administrator is refused too.
    await server.services.db.query(`UPDATE ad_process_access SET isactive = 'N' WHERE ad_process_id = 205 AND ad_role_id = 102`);
    try {
      const refused = await server.request('DELETE', '/api/v1/caches', { token: admin });
      assert.equal(refused.status, 403, refused.text);
    } finally {
      await server.services.db.query(`UPDATE ad_process_access SET isactive = 'Y' WHERE ad_process_id = 205 AND ad_role_id = 102`);
    }
    const anonymous = await server.request('GET', '/api/v1/caches');
    assert.equal(anonymous.status, 401);
  });

  it('resets the caches on every node (PostgreSQL)', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server);
    const other = second.services.caches;
    const r = await fetch(`${second.url}/api/v1/models/c_bpartner?$top=1`, { headers: { authorization: `Bearer ${await login(server)}` } });
    assert.equal(r.status, 200);
    assert.ok(sizeOf(other, 'role access') >= 1 && sizeOf(other, 'verified access tokens') >= 1);
    const d = await server.request('DELETE', '/api/v1/caches', { token: system });
    assert.equal(d.status, 200, d.text);
    await eventually(() => sizeOf(other, 'role access') === 0 && sizeOf(other, 'verified access tokens') === 0, 'the other node emptied its caches');
  });
});
