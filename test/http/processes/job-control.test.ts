import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { sleep } from '../../helpers/wait.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { processImplementations } from '../../../src/processes/process-routes.js';
import { slugify } from '../../../src/dictionary/slug.js';

/** A process of the test's own whose implementation reports half its work, then waits to be cancelled (ids of the ops range). */
const WAITING_PROCESS_ID = 1_104_500;
const WAITING_CLASS = 'test.WaitsForCancel';

async function poll(server: TestServer, token: string, id: number, until: (job: Record<string, any>) => boolean): Promise<Record<string, any>> {
  let last: Record<string, any> = {};
  for (let i = 0; i < 300; i++) {
    const r = await server.request('GET', `/api/v1/processes/jobs/${id}`, { token });
    assert.equal(r.status, 200, r.text);
    last = r.body;
    if (until(last)) return last;
    await sleep(50);
  }
  assert.fail(`job ${id} stayed ${JSON.stringify(last)}`);
}

describe('background jobs: state, progress and cancellation', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let wrote: string[] = [];
  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const dict = server.services.dictionary.current;
    const now = new Date().toISOString();
    await insertSeedRows(server.services.db, dict.byName.get('ad_process')!, [
      { AD_Process_ID: WAITING_PROCESS_ID, AD_Client_ID: 0, AD_Org_ID: 0, Value: 'Test_WaitsForCancel', Name: 'Waits for cancel', AccessLevel: '3', EntityType: 'U', Classname: WAITING_CLASS, AllowMultipleExecution: 'P' },
    ], now);
    await insertSeedRows(server.services.db, dict.byName.get('ad_process_access')!, [
      { AD_Process_ID: WAITING_PROCESS_ID, AD_Role_ID: 102, AD_Client_ID: 11, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: randomUUID() },
    ], now);
    processImplementations(server.services).register(WAITING_CLASS, async (c) => {
      // Writes a row, then waits: a cancellation must roll the row back.
      await c.tx.query(`UPDATE ad_process SET description = 'written by the run' WHERE ad_process_id = $1`, [WAITING_PROCESS_ID]);
      wrote.push('row');
      c.progress(0.5);
      await new Promise<void>((resolve) => (c.signal.aborted ? resolve() : c.signal.addEventListener('abort', () => resolve(), { once: true })));
      return { summary: 'stopped' };
    });
  });
  after(() => server.close());

  it('cancels a queued job at once: it never runs, it ends cancelled, and it stays cancelled', async () => {
    await server.services.queue.stop(0);
    const r = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: { 'notification-type': 'N' } });
    assert.equal(r.status, 202, r.text);
    const id = r.body.id as number;
    const cancelled = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.state, 'cancelled');
    assert.equal(cancelled.body.processing, false);
    assert.equal(cancelled.body.isError, true);
    assert.equal(cancelled.body.summary, 'Cancelled');
    assert.equal(cancelled.body.startedAt, null, 'it never started');
    assert.match(cancelled.body.endedAt, /Z$/);
    assert.equal(await server.services.queue.drain(), 0, 'nothing left to run');
    const status = await server.request('GET', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.deepEqual(status.body, cancelled.body, 'one shape for cancel and status');
    const again = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(again.status, 409);
    assert.equal(again.body.title, 'Job already ended');
    assert.match(again.body.detail, /\(cancelled\)/);
    const notes = await server.request('GET', `/api/v1/models/ad_note?$filter=${encodeURIComponent(`Record_ID eq ${id}`)}`, { token: admin });
    assert.equal(notes.body.records.length, 0, 'a cancelled job notifies nobody');
  });

  it('lets only the creator or a client administrator cancel, and only in its client', async () => {
    const r = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: { 'notification-type': 'N' } });
    const id = r.body.id as number;
    const byUser = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: user });
    assert.equal(byUser.status, 403, byUser.text);
    assert.equal(byUser.body.title, 'Access denied');
    const bySystem = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: await systemLogin(server) });
    assert.equal(bySystem.status, 404);
    assert.equal((await server.request('DELETE', '/api/v1/processes/jobs/abc', { token: admin })).status, 400);
    assert.equal((await server.request('DELETE', '/api/v1/processes/jobs/999999999', { token: admin })).status, 404);
    assert.equal((await server.request('DELETE', `/api/v1/processes/jobs/${id}`)).status, 401);
    assert.equal((await server.request('GET', `/api/v1/processes/jobs/${id}`, { token: admin })).body.state, 'queued', 'refused cancellations changed nothing');
    assert.equal(await server.services.queue.drain(), 1);
    const done = await server.request('GET', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(done.body.state, 'done');
    assert.equal(done.body.progress, null, 'Cache Reset reports no progress');
    const ended = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(ended.status, 409);
    assert.match(ended.body.detail, /\(done\)/);
  });

  it('shows the progress a process reports', async () => {
    const groups = await server.services.db.query<{ id: number; n: number }>(
      `SELECT c_bp_group_id::int AS id, count(*)::int AS n FROM c_bpartner WHERE ad_client_id = 11 AND isactive = 'Y' GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    );
    const r = await server.request('POST', `/api/v1/processes/jobs/${slugify('C_BPartner Validate')}`, { token: admin, body: { C_BP_Group_ID: groups.rows[0]!.id, 'notification-type': 'N' } });
    assert.equal(r.status, 202, r.text);
    assert.equal(await server.services.queue.drain(), 1);
    const done = await server.request('GET', `/api/v1/processes/jobs/${r.body.id}`, { token: admin });
    assert.equal(done.body.state, 'done', done.text);
    assert.equal(done.body.progress, 1);
  });

  it('cancels a running job: the run is told to stop, what it wrote is rolled back, and it ends cancelled', async (t) => {
    if (server.services.db.kind !== 'pg') {
      // Embedded PGlite has one connection, held by the running job's transaction: a status read or a
      // cancellation waits for the run to end.
      return t.skip('needs PostgreSQL: on embedded PGlite a request waits for the running job');
    }
    await server.services.queue.start();
    const r = await server.request('POST', '/api/v1/processes/jobs/test_waitsforcancel', { token: admin, body: { 'notification-type': 'N' } });
    assert.equal(r.status, 202, r.text);
    const id = r.body.id as number;
    const running = await poll(server, admin, id, (j) => j.state === 'running' && j.progress === 0.5);
    assert.match(running.startedAt, /Z$/);
    assert.equal(running.endedAt, null);
    const asked = await server.request('DELETE', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.body.cancelRequested, true);
    const ended = await poll(server, admin, id, (j) => j.state === 'cancelled');
    assert.equal(ended.processing, false);
    assert.equal(ended.summary, 'Cancelled');
    assert.deepEqual(wrote, ['row'], 'the run started');
    const { rows } = await server.services.db.query<{ description: string | null }>('SELECT description FROM ad_process WHERE ad_process_id = $1', [WAITING_PROCESS_ID]);
    assert.notEqual(rows[0]!.description, 'written by the run', 'the cancelled run wrote nothing');
    const listed = await server.request('GET', '/api/v1/processes/jobs', { token: admin });
    assert.deepEqual(listed.body.jobs.find((j: { id: number }) => j.id === id), ended);
  });
});
