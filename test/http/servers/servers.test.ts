import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import { assertUpstreamShape, upstreamDocsMissing } from '../../helpers/admin-schemas.js';
import type { RunningServer } from '../../../src/server.js';

/** The detail of a service, in the original's order; the times appear only once there is one. */
const DETAIL = ['id', 'name', 'nodeId', 'hostName', 'port', 'started', 'lastRun', 'info', 'nextRun', 'statistics', 'sleeping', 'interruptd'];

describe('server instances: the services of each instance', () => {
  let server: TestServer;
  let system: string;
  let second: RunningServer | null = null;
  let runner: string;
  before(async () => {
    server = await startTestServer();
    system = await systemLogin(server);
    runner = `scheduler-runner@${server.services.nodes.id}`;
  });
  after(async () => {
    await second?.close();
    await server.close();
  });

  it('lists the background services of the node as started servers, wrapped in {servers}', async () => {
    const r = await server.request('GET', '/api/v1/servers', { token: system });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['servers']);
    const node = server.services.nodes.id;
    const port = Number(new URL(server.url).port);
    assert.deepEqual(
      r.body.servers.map((x: Record<string, unknown>) => [x.id, x.nodeId, x.port, x.started]).sort(),
      ['job-worker', 'scheduler-runner', 'session-cleaner', 'upload-cleaner', 'webhook-dispatcher', 'workflow-processor'].map((key) => [`${key}@${node}`, node, port, true]),
    );
    for (const s of r.body.servers) assert.deepEqual(Object.keys(s), ['id', 'name', 'nodeId', 'hostName', 'port', 'started']);
    await server.request('POST', `/api/v1/servers/${runner}/run`, { token: system });
    const d = await server.request('GET', `/api/v1/servers/${runner}`, { token: system });
    assert.equal(d.status, 200, d.text);
    assert.deepEqual(Object.keys(d.body), DETAIL);
    assert.equal(d.body.name, 'Scheduler runner');
    assert.ok(!Number.isNaN(Date.parse(d.body.lastRun)) && !Number.isNaN(Date.parse(d.body.nextRun)), d.text);
  });

  it('answers every server operation in the shapes of the upstream documents', { skip: upstreamDocsMissing }, async () => {
    const id = `upload-cleaner@${server.services.nodes.id}`;
    assertUpstreamShape('GET', '/servers', await server.request('GET', '/api/v1/servers', { token: system }), 200);
    assertUpstreamShape('GET', '/servers/{id}', await server.request('GET', `/api/v1/servers/${id}`, { token: system }), 200);
    assertUpstreamShape('POST', '/servers/{id}/state', await server.request('POST', `/api/v1/servers/${id}/state`, { token: system }), 200);
    assertUpstreamShape('POST', '/servers/{id}/run', await server.request('POST', `/api/v1/servers/${id}/run`, { token: system }), 200);
    assertUpstreamShape('GET', '/servers/{id}/logs', await server.request('GET', `/api/v1/servers/${id}/logs`, { token: system }), 200);
    assertUpstreamShape('POST', '/servers/reload', await server.request('POST', '/api/v1/servers/reload', { token: system }), 200);
  });

  it('toggles a server, runs it now and keeps a log of both', async () => {
    const off = await server.request('POST', `/api/v1/servers/${runner}/state`, { token: system });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.started, false);
    assert.equal(server.services.schedulers.started, false);
    const on = await server.request('POST', `/api/v1/servers/${runner}/state`, { token: system });
    assert.equal(on.body.started, true);
    assert.equal(server.services.schedulers.started, true);
    const before = server.services.schedulers.runs;
    const run = await server.request('POST', `/api/v1/servers/${runner}/run`, { token: system });
    assert.equal(run.status, 200, run.text);
    assert.ok(server.services.schedulers.runs > before);
    assert.ok(!Number.isNaN(Date.parse(run.body.lastRun)), run.text);
    const logs = await server.request('GET', `/api/v1/servers/${runner}/logs`, { token: system });
    assert.equal(logs.status, 200, logs.text);
    assert.deepEqual(Object.keys(logs.body), ['logs']);
    assert.deepEqual(logs.body.logs.map((l: { summary: string }) => l.summary).slice(0, 2), ['started by user 100', 'stopped by user 100']);
    // Empty texts are left out, as the original leaves them out.
    assert.deepEqual(Object.keys(logs.body.logs[0]), ['created', 'summary', 'error']);
    const worker = `job-worker@${server.services.nodes.id}`;
    const wOff = await server.request('POST', `/api/v1/servers/${worker}/state`, { token: system });
    assert.equal(wOff.body.started, false);
    assert.equal(server.services.queue.running, false);
    const wOn = await server.request('POST', `/api/v1/servers/${worker}/state`, { token: system });
    assert.equal(wOn.body.started, true);
    assert.equal(server.services.queue.running, true);
    const reload = await server.request('POST', '/api/v1/servers/reload', { token: system });
    assert.equal(reload.status, 200, reload.text);
    assert.equal(reload.body.servers.length, 6);
  });

  it('makes the session cleaner, webhook dispatcher, upload cleaner and workflow processor servers with state, run now, logs and reload', async () => {
    const node = server.services.nodes.id;
    for (const [key, name] of [['session-cleaner', 'Session cleaner'], ['webhook-dispatcher', 'Webhook dispatcher'], ['upload-cleaner', 'Upload cleaner'], ['workflow-processor', 'Workflow Processor']] as const) {
      const id = `${key}@${node}`;
      // A stopped server has no next run: the property is left out rather than empty.
      const d = await server.request('GET', `/api/v1/servers/${id}`, { token: system });
      assert.equal(d.status, 200, d.text);
      assert.equal(d.body.name, name);
      if (d.body.started === false) await server.request('POST', `/api/v1/servers/${id}/state`, { token: system });
      const on = await server.request('GET', `/api/v1/servers/${id}`, { token: system });
      assert.equal(on.body.started, true);
      assert.ok(!Number.isNaN(Date.parse(on.body.nextRun)), `${key} says when it runs next`);
      const off = await server.request('POST', `/api/v1/servers/${id}/state`, { token: system });
      assert.equal(off.body.started, false, off.text);
      assert.equal('nextRun' in off.body, false, 'no nextRun while stopped');
      assert.deepEqual(Object.keys(off.body), DETAIL.filter((k) => k !== 'nextRun' && (k !== 'lastRun' || 'lastRun' in off.body)));
      assert.match(off.body.info, /stopped/);
      const run = await server.request('POST', `/api/v1/servers/${id}/run`, { token: system });
      assert.equal(run.status, 200, run.text);
      assert.ok(!Number.isNaN(Date.parse(run.body.lastRun)), `${key} ran on request while stopped`);
      assert.match(run.body.statistics, /passes: [12], failed: 0/);
    }
    // Reload starts every stopped server again.
    const reload = await server.request('POST', '/api/v1/servers/reload', { token: system });
    assert.equal(reload.status, 200, reload.text);
    assert.ok(reload.body.servers.every((x: { started: boolean }) => x.started), reload.text);
    const logs = await server.request('GET', `/api/v1/servers/upload-cleaner@${node}/logs`, { token: system });
    assert.deepEqual(logs.body.logs.map((l: { summary: string }) => l.summary).slice(0, 2), ['started by reload of user 100', 'stopped by user 100']);
  });

  it('answers 404 Invalid server Id for unknown servers and nodes', async () => {
    for (const id of ['nosuch', `nosuch@${server.services.nodes.id}`, 'job-worker@nonode', 'Scheduler999999', 'Scheduler100']) {
      for (const [method, path] of [['GET', ''], ['GET', '/logs'], ['POST', '/state'], ['POST', '/run']] as const) {
        const r = await server.request(method, `/api/v1/servers/${id}${path}`, { token: system });
        assert.equal(r.status, 404, `${method} ${id}${path}: ${r.text}`);
        assert.equal(r.body.title, 'Invalid server Id');
      }
    }
  });

  it("keeps the instance's services and the reload for the System role; a tenant's list holds none of them", async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      const list = await server.request('GET', '/api/v1/servers', { token });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body, { servers: [] }, 'no service and, on the demo data, no scheduler in the server manager');
      for (const [method, path, request] of [
        ['GET', `/api/v1/servers/${runner}`, 'get server'],
        ['GET', `/api/v1/servers/${runner}/logs`, 'get server logs'],
        ['POST', `/api/v1/servers/${runner}/state`, 'change server state'],
        ['POST', `/api/v1/servers/${runner}/run`, 'run now'],
        ['POST', '/api/v1/servers/reload', 'reload servers'],
      ] as const) {
        const r = await server.request(method, path, { token });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
        assert.equal(r.body.title, 'Access denied');
        assert.match(r.body.detail, new RegExp(`^Access denied for ${request} request`));
      }
    }
    assert.equal(server.services.schedulers.started, true);
    const anonymous = await server.request('GET', '/api/v1/servers');
    assert.equal(anonymous.status, 401);
  });

  it('lists the servers of every node and forwards to the node a server id names (PostgreSQL)', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server);
    const r = await server.request('GET', '/api/v1/servers', { token: system });
    assert.equal(r.body.servers.length, 12, r.text);
    const other = `scheduler-runner@${second.services.nodes.id}`;
    const off = await server.request('POST', `/api/v1/servers/${other}/state`, { token: system });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.nodeId, second.services.nodes.id);
    assert.equal(second.services.schedulers.started, false);
    assert.equal(server.services.schedulers.started, true);
  });
});
