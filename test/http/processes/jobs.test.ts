import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { serverUrl } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';
import type { RunningServer } from '../../../src/server.js';
import { setSysConfig } from '../auth/auth-helpers.js';

/** Polls GET /processes/jobs/{id} until the job has finished (about ten seconds at most). */
async function finished(server: TestServer, token: string, id: number): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const r = await server.request('GET', `/api/v1/processes/jobs/${id}`, { token });
    assert.equal(r.status, 200, r.text);
    if (r.body.processing === false) return r.body;
    await sleep(50);
  }
  assert.fail(`job ${id} did not finish`);
}

describe('background process jobs', () => {
  let server: TestServer;
  let second: RunningServer | null = null;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await second?.close();
    await server.close();
  });

  it('queues a run, shows it as running, and leaves a notice and a mail when it finishes', async () => {
    // Workers of this instance stopped: the job waits in the queue where the list shows it.
    await server.services.queue.stop(0);
    const r = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: { 'notification-type': 'B' } });
    assert.equal(r.status, 202, r.text);
    const id = r.body.id as number;
    assert.equal(r.headers.get('location'), `/api/v1/processes/jobs/${id}`);
    assert.deepEqual(
      r.body,
      { id, client: 'GardenWorld', user: 'GardenAdmin', process: 'cachereset', since: r.body.since, processing: true, state: 'queued', progress: null, queuedAt: r.body.queuedAt, startedAt: null, endedAt: null, cancelRequested: false },
      "the original's fields, then the state and times of the run",
    );
    assert.match(r.body.since, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(r.body.queuedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = await server.request('GET', '/api/v1/processes/jobs', { token: admin });
    assert.deepEqual(Object.keys(list.body), ['jobs'], 'the original wraps the list');
    const job = list.body.jobs.find((j: { id: number }) => j.id === id);
    assert.deepEqual(job, r.body);
    assert.equal(await server.services.queue.drain(), 1);
    const done = await server.request('GET', `/api/v1/processes/jobs/${id}`, { token: admin });
    assert.equal(done.body.processing, false);
    assert.equal(done.body.isError, false);
    assert.equal(done.body.state, 'done');
    assert.match(done.body.summary, /Caches reset/);
    assert.ok(done.body.queuedAt <= done.body.startedAt && done.body.startedAt <= done.body.endedAt, done.text);
    const after = await server.request('GET', '/api/v1/processes/jobs', { token: admin });
    assert.deepEqual(
      after.body.jobs.find((j: { id: number }) => j.id === id),
      done.body,
      'a finished job stays listed for the retention period, in the shape of its status',
    );
    await setSysConfig(server, 'REST_PROCESS_JOB_RETENTION_MINUTES', '0', 11);
    const running = await server.request('GET', '/api/v1/processes/jobs', { token: admin });
    assert.ok(!running.body.jobs.some((j: { id: number }) => j.id === id), 'with no retention, finished jobs leave the list as in the original');
    await setSysConfig(server, 'REST_PROCESS_JOB_RETENTION_MINUTES', '1440', 11);
    const notes = await server.request('GET', `/api/v1/models/ad_note?$filter=${encodeURIComponent(`Record_ID eq ${id}`)}`, { token: admin });
    assert.equal(notes.status, 200, notes.text);
    assert.equal(notes.body.records.length, 1);
    const note = notes.body.records[0];
    assert.equal(note.AD_User_ID.id, 101);
    assert.equal(note.AD_Table_ID.id, 282);
    assert.match(note.TextMsg, /^Cache Reset\nCaches reset/);
    const mails = await server.services.db.query<{ mailto: string; subject: string; bodytext: string }>(`SELECT mailto, subject, bodytext FROM rest_mail WHERE subject = $1`, [`Cache Reset (${id})`]);
    assert.equal(mails.rows.length, 1);
    assert.equal(mails.rows[0]!.mailto, 'admin @ gardenworld.com');
    assert.match(mails.rows[0]!.bodytext, /Caches reset/);
  });

  it('a job of another client is not found; a bad id is refused', async () => {
    const r = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: { 'notification-type': 'N' } });
    const system = await systemLogin(server);
    const other = await server.request('GET', `/api/v1/processes/jobs/${r.body.id}`, { token: system });
    assert.equal(other.status, 404);
    assert.equal(other.body.title, 'Job not found');
    const bad = await server.request('GET', '/api/v1/processes/jobs/abc', { token: admin });
    assert.equal(bad.status, 400);
    const badType = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: { 'notification-type': 'X' } });
    assert.equal(badType.status, 400);
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const listed = await server.request('GET', '/api/v1/processes/jobs', { token: user });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.jobs.some((j: { id: number; user: string }) => j.id === r.body.id && j.user === 'GardenAdmin'), 'the running jobs of the client, as the original lists them');
    await server.services.queue.drain();
  });

  it('notifies by mail and notice when the request names no notification type, as the original does', async () => {
    const r = await server.request('POST', '/api/v1/processes/jobs/cachereset', { token: admin, body: {} });
    assert.equal(r.status, 202, r.text);
    const [instance] = (await server.services.db.query<{ notificationtype: string }>(`SELECT notificationtype FROM ad_pinstance WHERE ad_pinstance_id = $1`, [r.body.id])).rows;
    assert.equal(instance!.notificationtype, 'B');
    await server.services.queue.drain();
    const notes = await server.request('GET', `/api/v1/models/ad_note?$filter=${encodeURIComponent(`Record_ID eq ${r.body.id}`)}`, { token: admin });
    assert.equal(notes.body.records.length, 1);
    const mails = await server.services.db.query(`SELECT 1 FROM rest_mail WHERE subject = $1`, [`Cache Reset (${r.body.id})`]);
    assert.equal(mails.rows.length, 1);
  });

  it('names the file of a finished report job as the run names it, with its archive', async () => {
    const r = await server.request('POST', '/api/v1/processes/jobs/rv_orderdetail', { token: admin, body: { C_BPartner_ID: 118, 'report-type': 'HTML', 'notification-type': 'N' } });
    assert.equal(r.status, 202, r.text);
    await server.services.queue.drain();
    const done = await server.request('GET', `/api/v1/processes/jobs/${r.body.id}`, { token: admin });
    assert.equal(done.body.isError, false, done.text);
    assert.match(done.body.exportFileName, /^Order_Detail_\d+\.html$/);
    assert.equal(done.body.reportFileName, undefined, 'an HTML report is an export file, as in a run');
    assert.equal(typeof done.body.archiveId, 'number');
  });

  it('a job queued on one instance completes on another (PostgreSQL) and its notice arrives', { skip: serverUrl ? false : 'needs PostgreSQL: PGlite serves one process' }, async () => {
    second = await startSecondInstance(server);
    const r = await server.request('POST', '/api/v1/processes/jobs/rest_exportrecords', { token: admin, body: { AD_Table_ID: 291, 'notification-type': 'N' } });
    assert.equal(r.status, 202, r.text);
    // Only the second instance has running workers: the first stopped its own in the first test.
    const done = await finished(server, admin, r.body.id);
    assert.equal(done.isError, false, String(done.summary));
    assert.match(String(done.summary), /Exported \d+ C_BPartner records/);
    const notes = await server.request('GET', `/api/v1/models/ad_note?$filter=${encodeURIComponent(`Record_ID eq ${r.body.id}`)}`, { token: admin });
    assert.equal(notes.body.records.length, 1);
    assert.match(notes.body.records[0].TextMsg, /^Export Records\nExported/);
    const items = await server.services.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM dictum.queue_item WHERE payload->>'instanceId' = $1`, [String(r.body.id)]);
    assert.deepEqual(items.rows, [{ state: 'done', attempts: 1 }]);
  });
});
