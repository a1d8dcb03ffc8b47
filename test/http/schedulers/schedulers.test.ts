import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';
import { startInstanceProcess, type InstanceProcess } from '../../helpers/instance-process.js';
import type { RunningServer } from '../../../src/server.js';

const TIMING = { DICTUM_SCHEDULER_TICK_MS: '200', DICTUM_NODE_HEARTBEAT_MS: '300', DICTUM_NODE_WINDOW_MS: '1200' };

interface Firing {
  due: number;
  node: string;
  instance: number | null;
}

async function firings(server: TestServer, schedulerId: number): Promise<Firing[]> {
  const { rows } = await server.services.db.query<{ due_at: Date; node_id: string; ad_pinstance_id: number | null }>(
    'SELECT due_at, node_id, ad_pinstance_id FROM dictum.scheduler_firing WHERE ad_scheduler_id = $1 ORDER BY due_at',
    [schedulerId],
  );
  return rows.map((r) => ({ due: new Date(r.due_at).getTime(), node: r.node_id, instance: r.ad_pinstance_id === null ? null : Number(r.ad_pinstance_id) }));
}

/** Consecutive firings are one period apart: none was skipped. */
function assertNoGaps(list: Firing[], periodMs: number): void {
  for (let i = 1; i < list.length; i++) assert.equal(list[i]!.due - list[i - 1]!.due, periodMs, `firing ${i} follows the one before by one period`);
}

describe('schedulers', () => {
  let server: TestServer;
  let system: string;
  let second: RunningServer | null = null;
  let third: InstanceProcess | null = null;
  before(async () => {
    server = await startTestServer(TIMING);
    system = await systemLogin(server);
  });
  after(async () => {
    third?.child.kill('SIGKILL');
    await second?.close();
    await server.close();
  });

  it('shows a scheduler with its server id and state under both paths; the node only while it has a server', async () => {
    for (const path of ['/api/v1/schedulers/100', '/api/v1/servers/schedulers/100']) {
      const r = await server.request('GET', path, { token: system });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, 100);
      assert.equal(r.body.Name, 'Cache Reset');
      assert.equal(r.body.AD_Process_ID.id, 205);
      assert.equal(r.body.SchedulerState, 'X', 'the state column as text, as the original shows it');
      assert.equal(r.body['scheduler-state'], 'Not Schedule');
      assert.equal(r.body['server-id'], 'Scheduler100');
      assert.equal('node-id' in r.body, false);
    }
    await server.request('POST', '/api/v1/schedulers/100', { token: system });
    const managed = await server.request('GET', '/api/v1/servers/schedulers/100', { token: system });
    assert.equal(managed.body['node-id'], server.services.nodes.id);
    assert.equal(managed.body['node-host-name'], server.services.nodes.self.hostName);
    assert.equal(managed.body['node-port'], Number(new URL(server.url).port));
    await server.request('DELETE', '/api/v1/schedulers/100', { token: system });
  });

  it('adds a scheduler to the server manager and starts it (201), refuses a second add (409) and removes it', async () => {
    const start = await server.request('POST', '/api/v1/schedulers/101', { token: system });
    assert.equal(start.status, 201, start.text);
    assert.equal(start.body['scheduler-state'], 'Scheduler Started');
    const again = await server.request('POST', '/api/v1/servers/schedulers/101', { token: system });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.title, 'Scheduler already managed');
    const stop = await server.request('DELETE', '/api/v1/schedulers/101', { token: system });
    assert.equal(stop.status, 200, stop.text);
    assert.equal(stop.body['scheduler-state'], 'Not Schedule');
    const { rows } = await server.services.db.query<{ schedulerstate: string }>('SELECT schedulerstate FROM ad_scheduler WHERE ad_scheduler_id = 101');
    assert.equal(rows[0]!.schedulerstate, 'X');
  });

  it('answers 404 Invalid scheduler Id for an unknown scheduler and 400 for a malformed id', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await server.request(method, '/api/v1/schedulers/999999', { token: system });
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.title, 'Invalid scheduler Id');
      for (const id of ['abc', '0']) {
        const bad = await server.request(method, `/api/v1/servers/schedulers/${id}`, { token: system });
        assert.equal(bad.status, 400, bad.text);
        assert.equal(bad.body.title, 'Invalid scheduler id');
      }
    }
  });

  it('refuses an invalid schedule with 400', async () => {
    await server.services.db.query(`UPDATE ad_schedule SET cronpattern = 'not a pattern' WHERE ad_schedule_id = 200000`);
    try {
      const r = await server.request('POST', '/api/v1/schedulers/100', { token: system });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /cron pattern/);
    } finally {
      await server.services.db.query(`UPDATE ad_schedule SET cronpattern = '0 3 * * *' WHERE ad_schedule_id = 200000`);
    }
  });

  it('shows the shared System schedulers to roles that may read AD_Scheduler, but lets no tenant role start or stop them', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    const read = await server.request('GET', '/api/v1/schedulers/100', { token: admin });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.Name, 'Cache Reset');
    for (const token of [admin, user, ws]) {
      for (const [method, request] of [['POST', 'add scheduler'], ['DELETE', 'remove scheduler']]) {
        const r = await server.request(method!, '/api/v1/schedulers/100', { token });
        assert.equal(r.status, 403, `${method}: ${r.text}`);
        assert.deepEqual(r.body, { title: 'Access denied', status: 403, detail: `Access denied for ${request} request: Scheduler100` });
      }
    }
    const { rows } = await server.services.db.query<{ schedulerstate: string }>('SELECT schedulerstate FROM ad_scheduler WHERE ad_scheduler_id = 100');
    assert.equal(rows[0]!.schedulerstate, 'X', 'nothing changed');
    const anonymous = await server.request('GET', '/api/v1/schedulers/100');
    assert.equal(anonymous.status, 401);
  });

  it("lets a client's administrator start and stop its own client's scheduler, and hides it from other clients' roles (System included)", async () => {
    const { admin, user } = await demoRoleTokens(server);
    const created = await server.request('POST', '/api/v1/models/ad_scheduler', {
      token: admin,
      body: { Name: 'Nightly tenant job', AD_Org_ID: 0, AD_Process_ID: 205, AD_Schedule_ID: 200000, Supervisor_ID: 101, KeepLogDays: 7 },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as number;
    try {
      const start = await server.request('POST', `/api/v1/schedulers/${id}`, { token: admin });
      assert.equal(start.status, 201, start.text);
      assert.equal(start.body['scheduler-state'], 'Scheduler Started');
      const byUser = await server.request('DELETE', `/api/v1/schedulers/${id}`, { token: user });
      assert.equal(byUser.status, 403, byUser.text);
      const stop = await server.request('DELETE', `/api/v1/schedulers/${id}`, { token: admin });
      assert.equal(stop.status, 200, stop.text);
      assert.equal(stop.body['scheduler-state'], 'Not Schedule');
      // Other clients' roles, System's included, do not see it.
      const bySystem = await server.request('POST', `/api/v1/schedulers/${id}`, { token: system });
      assert.equal(bySystem.status, 404, bySystem.text);
      const hidden = await server.services.db.query('UPDATE ad_scheduler SET ad_client_id = 12 WHERE ad_scheduler_id = $1', [id]);
      assert.equal(hidden.rowCount, 1);
      for (const method of ['GET', 'POST', 'DELETE']) {
        const r = await server.request(method, `/api/v1/schedulers/${id}`, { token: admin });
        assert.equal(r.status, 404, `${method}: ${r.text}`);
        assert.equal(r.body.title, 'Invalid scheduler Id');
      }
    } finally {
      await server.services.db.query('DELETE FROM ad_scheduler WHERE ad_scheduler_id = $1', [id]);
    }
  });

  it("does not run a tenant's scheduler whose supervisor has no role in that tenant (never as role 0 there)", async () => {
    const admin = await login(server);
    const created = await server.request('POST', '/api/v1/models/ad_scheduler', {
      token: admin,
      body: { Name: 'Supervisor without role', AD_Org_ID: 0, AD_Process_ID: 205, AD_Schedule_ID: 200001, Supervisor_ID: 101, KeepLogDays: 7 },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as number;
    const { rows: users } = await server.services.db.query<{ ad_user_id: number }>(
      `SELECT u.ad_user_id FROM ad_user u WHERE u.ad_client_id IN (0, 11) AND NOT EXISTS
         (SELECT 1 FROM ad_user_roles ur JOIN ad_role r ON r.ad_role_id = ur.ad_role_id WHERE ur.ad_user_id = u.ad_user_id AND r.ad_client_id = 11) ORDER BY u.ad_user_id LIMIT 1`,
    );
    assert.ok(users[0], 'a user without a role in GardenWorld');
    const { rows: schedule } = await server.services.db.query<{ cronpattern: string; scheduletype: string }>('SELECT cronpattern, scheduletype FROM ad_schedule WHERE ad_schedule_id = 200001');
    try {
      await server.services.db.query('UPDATE ad_scheduler SET supervisor_id = $2 WHERE ad_scheduler_id = $1', [id, users[0].ad_user_id]);
      await server.services.db.query(`UPDATE ad_schedule SET scheduletype = 'C', cronpattern = '* * * * * *' WHERE ad_schedule_id = 200001`);
      const start = await server.request('POST', `/api/v1/schedulers/${id}`, { token: admin });
      assert.equal(start.status, 201, start.text);
      await sleep(1_500);
      // Each firing is claimed as failed, with no process run behind it.
      const fired = await firings(server, id);
      assert.ok(fired.length >= 1 && fired.every((f) => f.instance === null), JSON.stringify(fired));
      const { rows: errors } = await server.services.db.query<{ is_error: boolean; summary: string }>('SELECT is_error, summary FROM dictum.scheduler_firing WHERE ad_scheduler_id = $1', [id]);
      assert.ok(errors.every((e) => e.is_error && /has no active role in client 11/.test(e.summary)), JSON.stringify(errors));
      const logs = await server.request('GET', `/api/v1/servers/scheduler-runner@${server.services.nodes.id}/logs`, { token: system });
      assert.ok(logs.body.logs.some((l: { summary: string; error: boolean }) => l.error && /has no active role in client 11/.test(l.summary)), logs.text);
      const own = await server.request('GET', `/api/v1/servers/Scheduler${id}/logs`, { token: admin });
      assert.ok(own.body.logs.length >= 1 && own.body.logs.every((l: { error: boolean; summary: string }) => l.error && /has no active role/.test(l.summary)), own.text);
    } finally {
      await server.services.db.query('DELETE FROM ad_scheduler WHERE ad_scheduler_id = $1', [id]);
      await server.services.db.query('UPDATE ad_schedule SET scheduletype = $1::text, cronpattern = $2::text WHERE ad_schedule_id = 200001', [schedule[0]!.scheduletype, schedule[0]!.cronpattern]);
    }
  });

  it('fires every 2 s exactly once across three instances, and goes on when the runner that fires is killed with SIGKILL (PostgreSQL)', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server, TIMING);
    third = await startInstanceProcess(server, TIMING);
    const thirdId = (await server.services.nodes.list()).map((n) => n.id).find((id) => id !== server.services.nodes.id && id !== second!.services.nodes.id)!;
    assert.ok(thirdId, 'the third instance registered');
    await server.services.db.query(`UPDATE ad_schedule SET cronpattern = '*/2 * * * * *' WHERE ad_schedule_id = 200000`);
    const start = await server.request('POST', '/api/v1/schedulers/100', { token: system });
    assert.equal(start.status, 201, start.text);
    await sleep(7_000);
    const first = await firings(server, 100);
    assert.ok(first.length >= 3, `fired ${first.length} times in 7 s`);
    assertNoGaps(first, 2000);
    // Exactly one queued run per firing: as many Cache Reset instances as firings, each firing naming its own.
    const ids = first.map((f) => f.instance);
    assert.ok(ids.every((id) => id !== null));
    assert.equal(new Set(ids).size, ids.length);
    const { rows } = await server.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM ad_pinstance WHERE ad_process_id = 205 AND ad_pinstance_id = ANY($1::bigint[])`, [ids]);
    assert.equal(Number(rows[0]!.n), ids.length);
    // The third instance becomes the runner that fires (the others pause), then dies as a crash would.
    await server.services.schedulers.stop();
    await second.services.schedulers.stop();
    const handedAt = Date.now();
    for (;;) {
      const last = (await firings(server, 100)).at(-1)!;
      if (last.node === thirdId && last.due > handedAt - 2000 && last.instance !== null) break;
      assert.ok(Date.now() - handedAt < 6_000, 'the third instance fired');
      await sleep(100);
    }
    third.child.kill('SIGKILL');
    const killedAt = Date.now();
    server.services.schedulers.start();
    second.services.schedulers.start();
    await sleep(5_000);
    const later = (await firings(server, 100)).filter((f) => f.due > killedAt);
    assert.ok(later.length >= 2, `fired ${later.length} times after the runner was killed`);
    assert.ok(later.every((f) => f.node !== thirdId), 'the killed runner fired no more');
    assertNoGaps(await firings(server, 100), 2000);
    await server.request('DELETE', '/api/v1/schedulers/100', { token: system });
  });
});
