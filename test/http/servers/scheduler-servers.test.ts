import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { demoRoleTokens, type DemoRoleTokens } from '../../helpers/demo-roles.js';
import { assertUpstreamShape, upstreamDocsMissing } from '../../helpers/admin-schemas.js';
import { sleep } from '../../helpers/wait.js';
import { managedSchedulers } from '../../../src/schedulers/scheduler-runner.js';

const SCHEDULER_WINDOW = 200100;

describe("schedulers as servers: each client's own, under the original's access rules", () => {
  let server: TestServer;
  let system: string;
  let t: DemoRoleTokens;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const stateOf = async (id: number) => (await server.services.db.query<{ schedulerstate: string | null }>('SELECT schedulerstate FROM ad_scheduler WHERE ad_scheduler_id = $1', [id])).rows[0]!.schedulerstate;
  /**
   * A scheduler of GardenWorld, made by its administrator through /models, running Cache Reset daily
   * at 03:00 UTC: the runner does not fire it while a test counts the runs it asks for.
   */
  const tenantScheduler = async (name: string, orgId = 11): Promise<number> => {
    const r = await as(t.admin, 'POST', '/api/v1/models/ad_scheduler', { Name: name, Description: `${name} (test)`, AD_Org_ID: orgId, AD_Process_ID: 205, AD_Schedule_ID: 200000, Supervisor_ID: 101, KeepLogDays: 7 });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  const resetAccessCaches = async () => {
    const r = await as(system, 'DELETE', '/api/v1/caches');
    assert.equal(r.status, 200, r.text);
    await sleep(100);
  };

  before(async () => {
    server = await startTestServer();
    system = await systemLogin(server);
    t = await demoRoleTokens(server);
  });
  after(async () => {
    await server.close();
  });

  it("lets a client's administrator add its scheduler to the server manager, then list, read, toggle, run and remove its server", async () => {
    const id = await tenantScheduler('Tenant cache reset');
    const serverId = `Scheduler${id}`;
    const before = await as(t.admin, 'GET', `/api/v1/servers/schedulers/${id}`);
    assert.equal(before.status, 200, before.text);
    assert.equal(before.body['scheduler-state'], 'Not Schedule');
    assert.equal(before.body['server-id'], serverId);
    assert.equal('node-id' in before.body, false, 'no node while it has no server');
    assert.equal((await as(t.admin, 'GET', `/api/v1/servers/${serverId}`)).status, 404);

    const added = await as(t.admin, 'POST', `/api/v1/servers/schedulers/${id}`);
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body['scheduler-state'], 'Scheduler Started');
    assert.equal(added.body['node-id'], server.services.nodes.id);
    assert.equal(await stateOf(id), 'R');

    for (const token of [t.admin, t.user, t.ws]) {
      const list = await as(token, 'GET', '/api/v1/servers');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.servers.map((x: { id: string }) => x.id), [serverId], 'the roles of the client see its scheduler, and no service');
    }
    const detail = await as(t.user, 'GET', `/api/v1/servers/${serverId}`);
    assert.equal(detail.status, 200, detail.text);
    assert.deepEqual(Object.keys(detail.body), ['id', 'name', 'nodeId', 'hostName', 'port', 'started', 'description', 'info', 'nextRun', 'statistics', 'sleeping', 'interruptd']);
    assert.equal(detail.body.name, 'Tenant cache reset');
    assert.equal(detail.body.started, true);
    assert.ok(Date.parse(detail.body.nextRun) > Date.now(), detail.text);

    const off = await as(t.admin, 'POST', `/api/v1/servers/${serverId}/state`);
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.started, false);
    assert.equal(off.body.interruptd, true);
    assert.equal('nextRun' in off.body, false);
    assert.equal(await stateOf(id), 'S');
    assert.equal((await as(t.admin, 'GET', `/api/v1/servers/schedulers/${id}`)).body['scheduler-state'], 'Scheduler Stopped');
    assert.ok(!(await managedSchedulers(server.services)).some((sc) => sc.id === id), 'a stopped server does not fire');
    const on = await as(t.admin, 'POST', `/api/v1/servers/${serverId}/state`);
    assert.equal(on.body.started, true);
    assert.ok((await managedSchedulers(server.services)).some((sc) => sc.id === id), 'a started server fires');

    const run = await as(t.admin, 'POST', `/api/v1/servers/${serverId}/run`);
    assert.equal(run.status, 200, run.text);
    assert.ok(!Number.isNaN(Date.parse(run.body.lastRun)), run.text);
    assert.match(run.body.statistics, /^Runs: 1, failed: 0$/);
    let logs = await as(t.user, 'GET', `/api/v1/servers/${serverId}/logs`);
    for (let i = 0; i < 100 && !/Caches reset/.test(logs.text); i++) {
      await sleep(50);
      logs = await as(t.user, 'GET', `/api/v1/servers/${serverId}/logs`);
    }
    assert.equal(logs.status, 200, logs.text);
    assert.equal(logs.body.logs.length, 1, logs.text);
    const [entry] = logs.body.logs;
    assert.match(entry.summary, /^Caches reset/);
    assert.match(entry.reference, /^AD_PInstance_ID=\d+$/);
    assert.equal(entry.error, false);
    const { rows } = await server.services.db.query<{ ad_client_id: number; ad_user_id: number }>('SELECT ad_client_id, ad_user_id FROM ad_pinstance WHERE ad_pinstance_id = $1', [Number(entry.reference.split('=')[1])]);
    assert.deepEqual(rows.map((r) => [Number(r.ad_client_id), Number(r.ad_user_id)]), [[11, 101]], 'the run acted as the supervisor in the scheduler client');

    const removed = await as(t.admin, 'DELETE', `/api/v1/servers/schedulers/${id}`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body['scheduler-state'], 'Not Schedule');
    assert.equal(await stateOf(id), 'X');
    assert.equal((await as(t.admin, 'GET', `/api/v1/servers/${serverId}`)).status, 404);
    assert.deepEqual((await as(t.admin, 'GET', '/api/v1/servers')).body, { servers: [] });
  });

  it('answers the scheduler and server operations in the shapes of the upstream documents', { skip: upstreamDocsMissing }, async () => {
    const id = await tenantScheduler('Shape check');
    const serverId = `Scheduler${id}`;
    assertUpstreamShape('GET', '/servers/schedulers/{id}', await as(t.admin, 'GET', `/api/v1/servers/schedulers/${id}`), 200);
    assertUpstreamShape('POST', '/servers/schedulers/{id}', await as(t.admin, 'POST', `/api/v1/servers/schedulers/${id}`), 201);
    assertUpstreamShape('GET', '/servers', await as(t.admin, 'GET', '/api/v1/servers'), 200);
    assertUpstreamShape('GET', '/servers/{id}', await as(t.admin, 'GET', `/api/v1/servers/${serverId}`), 200);
    assertUpstreamShape('POST', '/servers/{id}/run', await as(t.admin, 'POST', `/api/v1/servers/${serverId}/run`), 200);
    assertUpstreamShape('POST', '/servers/{id}/state', await as(t.admin, 'POST', `/api/v1/servers/${serverId}/state`), 200);
    assertUpstreamShape('GET', '/servers/{id}/logs', await as(t.admin, 'GET', `/api/v1/servers/${serverId}/logs`), 200);
    assertUpstreamShape('DELETE', '/servers/schedulers/{id}', await as(t.admin, 'DELETE', `/api/v1/servers/schedulers/${id}`), 200);
  });

  it('lets a role control a scheduler server only with write access to the Scheduler window, in its own client and an organisation it may write', async () => {
    const id = await tenantScheduler('Access rules', 12);
    const serverId = `Scheduler${id}`;
    assert.equal((await as(t.admin, 'POST', `/api/v1/servers/schedulers/${id}`)).status, 201);
    const refused = async (token: string, expected: number) => {
      for (const [method, path, request] of [
        ['POST', `/api/v1/servers/${serverId}/state`, 'change server state'],
        ['POST', `/api/v1/servers/${serverId}/run`, 'run now'],
        ['DELETE', `/api/v1/servers/schedulers/${id}`, 'remove scheduler'],
        ['POST', `/api/v1/schedulers/${id}`, 'add scheduler'],
      ] as const) {
        const r = await as(token, method, path);
        assert.equal(r.status, expected, `${method} ${path}: ${r.text}`);
        if (expected === 403) assert.deepEqual(r.body, { title: 'Access denied', status: 403, detail: `Access denied for ${request} request: ${serverId}` });
      }
      assert.equal(await stateOf(id), 'R', 'nothing changed');
    };
    // GardenWorld User and WebService read the server but have no Scheduler window to write through.
    for (const token of [t.user, t.ws]) {
      assert.equal((await as(token, 'GET', `/api/v1/servers/${serverId}`)).status, 200);
      await refused(token, 403);
    }
    // The administrator loses the window's write access: refused too, although the table is writable to it.
    await server.services.db.query('UPDATE ad_window_access SET isreadwrite = $3 WHERE ad_window_id = $1 AND ad_role_id = $2', [SCHEDULER_WINDOW, 102, 'N']);
    try {
      await refused(t.admin, 403);
    } finally {
      await server.services.db.query('UPDATE ad_window_access SET isreadwrite = $3 WHERE ad_window_id = $1 AND ad_role_id = $2', [SCHEDULER_WINDOW, 102, 'Y']);
    }
    // The organisation of the scheduler becomes read-only for the administrator: it still reads the server, but may not touch it.
    await server.services.db.query('UPDATE ad_role_orgaccess SET isreadonly = $3 WHERE ad_role_id = $1 AND ad_org_id = $2', [102, 12, 'Y']);
    await resetAccessCaches();
    try {
      assert.equal((await as(t.admin, 'GET', `/api/v1/servers/${serverId}`)).status, 200);
      await refused(t.admin, 403);
    } finally {
      await server.services.db.query('UPDATE ad_role_orgaccess SET isreadonly = $3 WHERE ad_role_id = $1 AND ad_org_id = $2', [102, 12, 'N']);
      await resetAccessCaches();
    }
    const toggled = await as(t.admin, 'POST', `/api/v1/servers/${serverId}/state`);
    assert.equal(toggled.status, 200, toggled.text);
    assert.equal(await stateOf(id), 'S');
    assert.equal((await as(t.admin, 'DELETE', `/api/v1/schedulers/${id}`)).status, 200);
  });

  it("shows no tenant another client's scheduler server, nor the System role a tenant's", async () => {
    const id = await tenantScheduler('Hidden elsewhere');
    const serverId = `Scheduler${id}`;
    assert.equal((await as(t.admin, 'POST', `/api/v1/servers/schedulers/${id}`)).status, 201);
    const hidden = async (token: string) => {
      const list = await as(token, 'GET', '/api/v1/servers');
      assert.ok(!list.body.servers.some((x: { id: string }) => x.id === serverId), list.text);
      for (const [method, path] of [['GET', `/api/v1/servers/${serverId}`], ['GET', `/api/v1/servers/${serverId}/logs`], ['POST', `/api/v1/servers/${serverId}/state`], ['POST', `/api/v1/servers/${serverId}/run`]] as const) {
        const r = await as(token, method, path);
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
        assert.equal(r.body.title, 'Invalid server Id');
      }
      for (const method of ['GET', 'POST', 'DELETE']) {
        const r = await as(token, method, `/api/v1/servers/schedulers/${id}`);
        assert.equal(r.status, 404, `${method}: ${r.text}`);
        assert.equal(r.body.title, 'Invalid scheduler Id');
      }
    };
    await hidden(system);
    // The scheduler now belongs to another client: none of GardenWorld's roles sees or touches it.
    await server.services.db.query('UPDATE ad_scheduler SET ad_client_id = 12 WHERE ad_scheduler_id = $1', [id]);
    try {
      for (const token of [t.admin, t.user, t.ws]) await hidden(token);
      assert.equal(await stateOf(id), 'R', 'nothing changed');
    } finally {
      await server.services.db.query('DELETE FROM ad_scheduler WHERE ad_scheduler_id = $1', [id]);
    }
  });

  it("lets the System role run the System client's schedulers as servers; tenants see them but may not touch them", async () => {
    const added = await as(system, 'POST', '/api/v1/servers/schedulers/101');
    assert.equal(added.status, 201, added.text);
    const list = await as(system, 'GET', '/api/v1/servers');
    assert.ok(list.body.servers.some((x: { id: string }) => x.id === 'Scheduler101'), list.text);
    for (const token of [t.admin, t.user, t.ws]) {
      assert.ok((await as(token, 'GET', '/api/v1/servers')).body.servers.some((x: { id: string }) => x.id === 'Scheduler101'), 'the shared scheduler is listed');
      for (const [method, path] of [['POST', '/api/v1/servers/Scheduler101/state'], ['POST', '/api/v1/servers/Scheduler101/run'], ['DELETE', '/api/v1/servers/schedulers/101']] as const) {
        const r = await as(token, method, path);
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      }
    }
    assert.equal(await stateOf(101), 'R');
    const off = await as(system, 'POST', '/api/v1/servers/Scheduler101/state');
    assert.equal(off.body.started, false, off.text);
    // The reload starts the System client's stopped scheduler servers again.
    const reload = await as(system, 'POST', '/api/v1/servers/reload');
    assert.equal(reload.status, 200, reload.text);
    assert.equal(reload.body.servers.find((x: { id: string }) => x.id === 'Scheduler101')?.started, true, reload.text);
    const removed = await as(system, 'DELETE', '/api/v1/servers/schedulers/101');
    assert.equal(removed.body['scheduler-state'], 'Not Schedule');
  });

  it('answers a run that cannot be queued with 409 and its reason, and logs it on the server once', async () => {
    const id = await tenantScheduler('Supervisor without role');
    const serverId = `Scheduler${id}`;
    const { rows } = await server.services.db.query<{ ad_user_id: number }>(
      `SELECT u.ad_user_id FROM ad_user u WHERE u.ad_client_id IN (0, 11) AND NOT EXISTS
         (SELECT 1 FROM ad_user_roles ur JOIN ad_role r ON r.ad_role_id = ur.ad_role_id WHERE ur.ad_user_id = u.ad_user_id AND r.ad_client_id = 11) ORDER BY u.ad_user_id LIMIT 1`,
    );
    await server.services.db.query('UPDATE ad_scheduler SET supervisor_id = $2 WHERE ad_scheduler_id = $1', [id, rows[0]!.ad_user_id]);
    assert.equal((await as(t.admin, 'POST', `/api/v1/servers/schedulers/${id}`)).status, 201);
    const run = await as(t.admin, 'POST', `/api/v1/servers/${serverId}/run`);
    assert.equal(run.status, 409, run.text);
    assert.match(run.body.detail, /has no active role in client 11/);
    const logs = await as(t.admin, 'GET', `/api/v1/servers/${serverId}/logs`);
    assert.equal(logs.body.logs.length, 1, logs.text);
    assert.equal(logs.body.logs[0].error, true);
    assert.match(logs.body.logs[0].summary, /has no active role in client 11/);
    assert.equal('reference' in logs.body.logs[0], false, 'no process instance was made');
    const detail = await as(t.admin, 'GET', `/api/v1/servers/${serverId}`);
    assert.match(detail.body.statistics, /^Runs: 1, failed: 1$/);
    await as(t.admin, 'DELETE', `/api/v1/servers/schedulers/${id}`);
  });
});
