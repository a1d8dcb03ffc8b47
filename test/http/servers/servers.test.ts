import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import type { RunningServer } from '../../../src/server.js';

const DETAIL = ['id', 'name', 'nodeId', 'hostName', 'port', 'started', 'lastRun', 'info', 'nextRun', 'statistics', 'sleeping', 'interruptd'];

describe('server instances', () => {
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

  it('lists the background services of the node as started servers', async () => {
    const r = await server.request('GET', '/api/v1/servers', { token: system });
    assert.equal(r.status, 200, r.text);
    const node = server.services.nodes.id;
    const port = Number(new URL(server.url).port);
    assert.deepEqual(
      r.body.map((x: Record<string, unknown>) => [x.id, x.nodeId, x.port, x.started]).sort(),
      ['job-worker', 'scheduler-runner', 'session-cleaner', 'upload-cleaner', 'webhook-dispatcher', 'workflow-processor'].map((key) => [`${key}@${node}`, node, port, true]),
    );
    const d = await server.request('GET', `/api/v1/servers/${runner}`, { token: system });
    assert.equal(d.status, 200, d.text);
    assert.deepEqual(Object.keys(d.body), DETAIL);
    assert.equal(d.body.name, 'Scheduler runner');
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
    assert.notEqual(run.body.lastRun, '');
    const logs = await server.request('GET', `/api/v1/servers/${runner}/logs`, { token: system });
    assert.equal(logs.status, 200, logs.text);
    assert.deepEqual(logs.body.map((l: { summary: string }) => l.summary).slice(0, 2), ['started by user 100', 'stopped by user 100']);
    assert.deepEqual(Object.keys(logs.body[0]), ['created', 'summary', 'reference', 'error']);
    const worker = `job-worker@${server.services.nodes.id}`;
    const wOff = await server.request('POST', `/api/v1/servers/${worker}/state`, { token: system });
    assert.equal(wOff.body.started, false);
    assert.equal(server.services.queue.running, false);
    const wOn = await server.request('POST', `/api/v1/servers/${worker}/state`, { token: system });
    assert.equal(wOn.body.started, true);
    assert.equal(server.services.queue.running, true);
    const reload = await server.request('POST', '/api/v1/servers/reload', { token: system });
    assert.equal(reload.status, 200, reload.text);
    assert.equal(reload.body.length, 6);
  });

  it('makes the session cleaner, webhook dispatcher, upload cleaner and workflow processor servers with state, run now, logs and reload', async () => {
    const node = server.services.nodes.id;
    for (const [key, name] of [['session-cleaner', 'Session cleaner'], ['webhook-dispatcher', 'Webhook dispatcher'], ['upload-cleaner', 'Upload cleaner'], ['workflow-processor', 'Workflow Processor']] as const) {
      const id = `${key}@${node}`;
      const d = await server.request('GET', `/api/v1/servers/${id}`, { token: system });
      assert.equal(d.status, 200, d.text);
      assert.deepEqual(Object.keys(d.body), DETAIL);
      assert.equal(d.body.name, name);
      assert.equal(d.body.started, true);
      assert.notEqual(d.body.nextRun, '', `${key} says when it runs next`);
      const off = await server.request('POST', `/api/v1/servers/${id}/state`, { token: system });
      assert.equal(off.body.started, false, off.text);
      assert.equal(off.body.nextRun, '');
      assert.match(off.body.info, /stopped/);
      const run = await server.request('POST', `/api/v1/servers/${id}/run`, { token: system });
      assert.equal(run.status, 200, run.text);
      assert.notEqual(run.body.lastRun, '', `${key} ran on request while stopped`);
      assert.match(run.body.statistics, /passes: 1, failed: 0/);
    }
    // Reload starts every stopped server again.
    const reload = await server.request('POST', '/api/v1/servers/reload', { token: system });
    assert.equal(reload.status, 200, reload.text);
    assert.ok(reload.body.every((x: { started: boolean }) => x.started), reload.text);
    const logs = await server.request('GET', `/api/v1/servers/upload-cleaner@${node}/logs`, { token: system });
    assert.deepEqual(logs.body.map((l: { summary: string }) => l.summary), ['started by reload of user 100', 'stopped by user 100']);
  });

  it('answers 404 Invalid server Id for unknown servers and nodes', async () => {
    for (const id of ['nosuch', `nosuch@${server.services.nodes.id}`, 'job-worker@nonode']) {
      for (const [method, path] of [['GET', ''], ['GET', '/logs'], ['POST', '/state'], ['POST', '/run']] as const) {
        const r = await server.request(method, `/api/v1/servers/${id}${path}`, { token: system });
        assert.equal(r.status, 404, r.text);
        assert.equal(r.body.title, 'Invalid server Id');
      }
    }
  });

  it('refuses every role but System', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      for (const [method, path] of [['GET', '/api/v1/servers'], ['GET', `/api/v1/servers/${runner}`], ['POST', `/api/v1/servers/${runner}/state`], ['POST', `/api/v1/servers/${runner}/run`], ['POST', '/api/v1/servers/reload']] as const) {
        const r = await server.request(method, path, { token });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      }
    }
    assert.equal(server.services.schedulers.started, true);
  });

  it('lists the servers of every node and forwards to the node a server id names (PostgreSQL)', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server);
    const r = await server.request('GET', '/api/v1/servers', { token: system });
    assert.equal(r.body.length, 12, r.text);
    const other = `scheduler-runner@${second.services.nodes.id}`;
    const off = await server.request('POST', `/api/v1/servers/${other}/state`, { token: system });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.nodeId, second.services.nodes.id);
    assert.equal(second.services.schedulers.started, false);
    assert.equal(server.services.schedulers.started, true);
  });
});
