import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import { eventually } from '../../helpers/wait.js';
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

  it('lists the caches of this node with their size, hits, misses and expiry', async () => {
    const admin = await login(server);
    for (let i = 0; i < 2; i++) await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: admin });
    const r = await server.request('GET', '/api/v1/caches', { token: system });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.nodeId, server.services.nodes.id);
    const names = r.body.caches.map((c: { name: string }) => c.name);
    assert.deepEqual(names, ['dictionary', 'AD_SysConfig', 'role access', 'verified access tokens', 'Workflow definitions', 'Workflow approvers', 'reference identifiers']);
    for (const c of r.body.caches) assert.deepEqual(Object.keys(c), ['name', 'size', 'maxSize', 'hits', 'misses', 'expireMinutes']);
    const tokens = r.body.caches.find((c: { name: string }) => c.name === 'verified access tokens');
    assert.ok(tokens.size >= 2 && tokens.hits >= 1, JSON.stringify(tokens));
    const dictionary = r.body.caches.find((c: { name: string }) => c.name === 'dictionary');
    assert.ok(dictionary.size > 100 && dictionary.hits > 0, JSON.stringify(dictionary));
    assert.ok(sizeOf(server.services.caches, 'role access') >= 1);
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

  it('refuses every role but System', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      for (const method of ['GET', 'DELETE']) {
        const r = await server.request(method, '/api/v1/caches', { token });
        assert.equal(r.status, 403, r.text);
        assert.equal(r.body.title, 'Access denied');
      }
    }
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
