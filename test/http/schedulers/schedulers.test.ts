import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { serverUrl } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';
import type { RunningServer } from '../../../src/server.js';

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
  before(async () => {
    server = await startTestServer({ DICTUM_SCHEDULER_TICK_MS: '200' });
    system = await systemLogin(server);
  });
  after(async () => {
    await second?.close();
    await server.close();
  });

  it('shows a scheduler with its state and node under both paths', async () => {
    for (const path of ['/api/v1/schedulers/100', '/api/v1/servers/schedulers/100']) {
      const r = await server.request('GET', path, { token: system });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, 100);
      assert.equal(r.body.Name, 'Cache Reset');
      assert.equal(r.body.AD_Process_ID.id, 205);
      assert.equal(r.body['scheduler-state'], 'Stopped');
      assert.equal(r.body['server-id'], 'scheduler-100');
      assert.equal(r.body['node-id'], server.services.nodes.id);
      assert.equal(r.body['node-port'], Number(new URL(server.url).port));
    }
  });

  it('starts managing a scheduler (201), refuses a second start (409) and stops it', async () => {
    const start = await server.request('POST', '/api/v1/schedulers/101', { token: system });
    assert.equal(start.status, 201, start.text);
    assert.equal(start.body['scheduler-state'], 'Scheduled');
    const again = await server.request('POST', '/api/v1/servers/schedulers/101', { token: system });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.title, 'Scheduler already managed');
    const stop = await server.request('DELETE', '/api/v1/schedulers/101', { token: system });
    assert.equal(stop.status, 200, stop.text);
    assert.equal(stop.body['scheduler-state'], 'Stopped');
    const { rows } = await server.services.db.query<{ schedulerstate: string }>('SELECT schedulerstate FROM ad_scheduler WHERE ad_scheduler_id = 101');
    assert.equal(rows[0]!.schedulerstate, 'X');
  });

  it('answers 404 Invalid scheduler Id for an unknown scheduler and 400 for a malformed id', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await server.request(method, '/api/v1/schedulers/999999', { token: system });
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.title, 'Invalid scheduler Id');
      const bad = await server.request(method, '/api/v1/servers/schedulers/abc', { token: system });
      assert.equal(bad.status, 400, bad.text);
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

  it('refuses every role but System', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const r = await server.request(method, '/api/v1/schedulers/100', { token });
        assert.equal(r.status, 403, `${method}: ${r.text}`);
      }
    }
    const { rows } = await server.services.db.query<{ schedulerstate: string }>('SELECT schedulerstate FROM ad_scheduler WHERE ad_scheduler_id = 100');
    assert.equal(rows[0]!.schedulerstate, 'X', 'nothing changed');
  });

  it('fires every 2 s exactly once across two instances, and goes on when the runner that fired last is closed (PostgreSQL)', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server, { DICTUM_SCHEDULER_TICK_MS: '200' });
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
    // The instance that fired last closes (or its runner does, when it is the one the test talks to).
    const lastNode = first[first.length - 1]!.node;
    if (lastNode === second.services.nodes.id) {
      await second.close();
      second = null;
    } else await server.services.schedulers.stop();
    const closedAt = Date.now();
    await sleep(5_000);
    const later = (await firings(server, 100)).filter((f) => f.due > closedAt);
    assert.ok(later.length >= 2, `fired ${later.length} times after the runner closed`);
    assert.ok(later.every((f) => f.node !== lastNode), 'the closed runner fired no more');
    assertNoGaps(await firings(server, 100), 2000);
    await server.request('DELETE', '/api/v1/schedulers/100', { token: system });
  });
});
