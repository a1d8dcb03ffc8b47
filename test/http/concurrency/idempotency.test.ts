import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import type { RunningServer } from '../../../src/server.js';
import { scopeDigest, sweepExpiredAnswers } from '../../../src/idempotency/kept-answers.js';
import { KEPT_ANSWER_SCHEMA } from '../../../src/idempotency/idempotency-schema.js';

const q = (s: string) => encodeURIComponent(s);
const partner = (name: string) => ({ Value: name, Name: name, C_BP_Group_ID: 104 });

describe('Idempotency-Key', () => {
  let server: TestServer;
  let token: string;
  let adminId: number;
  const post = (path: string, body: unknown, key?: string, as = token) => server.request('POST', path, { token: as, body, headers: key ? { 'Idempotency-Key': key } : {} });
  const partners = async (value: string) => (await server.request('GET', `/api/v1/models/c_bpartner?$filter=${q(`Value eq '${value}'`)}`, { token })).body['row-count'] as number;
  const keptRows = async (key: string) => Number((await server.services.db.query<{ n: number }>('SELECT count(*) AS n FROM dictum.idempotent_answer WHERE idempotency_key = $1', [key])).rows[0]!.n);

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    adminId = Number((await server.services.db.query<{ id: number }>("SELECT ad_user_id AS id FROM ad_user WHERE name = 'GardenAdmin'")).rows[0]!.id);
  });
  after(async () => {
    await server.close();
  });

  it('replays the first answer byte for byte, saying so, and creates the record once', async () => {
    const first = await post('/api/v1/models/c_bpartner', partner('idem-once'), 'key-once');
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await post('/api/v1/models/c_bpartner', partner('idem-once'), 'key-once');
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text, 'the same bytes');
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(await partners('idem-once'), 1);
  });

  it('answers 422 to the same key with another body, and 400 to a key that is not one', async () => {
    assert.equal((await post('/api/v1/models/c_bpartner', partner('idem-422'), 'key-422')).status, 201);
    const other = await post('/api/v1/models/c_bpartner', partner('idem-422-other'), 'key-422');
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body.status, 422);
    assert.match(other.body.detail, /another request/);
    assert.equal(await partners('idem-422-other'), 0);
    const bad = await server.request('POST', '/api/v1/models/c_bpartner', { token, body: partner('idem-bad'), headers: { 'Idempotency-Key': 'with space' } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(await partners('idem-bad'), 0);
  });

  it('keeps keys apart by path and leaves requests without a key as they were', async () => {
    assert.equal((await post('/api/v1/models/c_bpartner', partner('idem-path'), 'key-path')).status, 201);
    const group = await post('/api/v1/models/c_bp_group', { Value: 'idem-path', Name: 'idem-path' }, 'key-path');
    assert.equal(group.status, 201, group.text);
    assert.equal(group.headers.get('idempotent-replayed'), null);
    const plain = await post('/api/v1/models/c_bpartner', partner('idem-none'));
    assert.equal(plain.status, 201);
    assert.equal((await post('/api/v1/models/c_bpartner', partner('idem-none'))).status, 409, 'without a key a retry runs again (and meets the unique key)');
  });

  it("does not replay one user's answer to another user", async () => {
    const first = await post('/api/v1/models/c_bpartner', partner('idem-user'), 'key-user');
    assert.equal(first.status, 201);
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const other = await post('/api/v1/models/c_bpartner', partner('idem-user'), 'key-user', user);
    assert.equal(other.headers.get('idempotent-replayed'), null);
    assert.notEqual(other.text, first.text, 'the request ran for the other user (and met the record of the first)');
    const own = await post('/api/v1/models/c_bpartner', partner('idem-user-2'), 'key-user', user);
    assert.equal(own.status, 201, `the key is the other user's own, whatever body the first user sent: ${own.text}`);
    assert.equal(await keptRows('key-user'), 2, 'one answer per user');
  });

  it('runs concurrent retries once: the others get the answer or 409', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => post('/api/v1/models/c_bpartner', partner('idem-race'), 'key-race')));
    assert.equal(await partners('idem-race'), 1);
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    assert.equal(fresh.length, 1, answers.map((a) => `${a.status} ${a.text}`).join('\n'));
    for (const a of answers) if (a !== fresh[0]) assert.ok(a.status === 409 || (a.status === 201 && a.text === fresh[0]!.text), a.text);
  });

  it('answers 409 while the first run has not answered, and runs again once its lease ran out', async () => {
    const entries = [{ method: 'POST', path: 'v1/models/c_bpartner', body: partner('idem-running') }];
    const first = await post('/api/v1/batch', entries, 'key-running');
    assert.equal(first.status, 200, first.text);
    // The state a run in progress (or one whose instance died) leaves.
    await server.services.db.query("UPDATE dictum.idempotent_answer SET status = NULL, body = NULL WHERE idempotency_key = 'key-running'");
    const started = Date.now();
    const busy = await post('/api/v1/batch', entries, 'key-running');
    assert.equal(busy.status, 409, busy.text);
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.ok(Date.now() - started >= 1500, 'it waited for the first run a moment');
    await server.services.db.query("UPDATE dictum.idempotent_answer SET lease_until = now() - interval '1 second' WHERE idempotency_key = 'key-running'");
    const rerun = await post('/api/v1/batch', [{ ...entries[0], body: partner('idem-running-2') }], 'key-running');
    assert.equal(rerun.status, 422, 'another body stays another request');
    const taken = await post('/api/v1/batch', entries, 'key-running');
    assert.equal(taken.headers.get('idempotent-replayed'), null);
    assert.equal(taken.status, 400, 'the request runs again (and meets the record its first run wrote)');
    assert.equal(taken.body[0].body.title, 'Duplicate record');
  });

  it('answers 409 to a record write whose key a run elsewhere holds without an answer', async () => {
    await server.services.db.query(
      `INSERT INTO dictum.idempotent_answer (ad_client_id, scope_digest, ad_user_id, idempotency_key, request_hash, lease_until, expires_at)
       VALUES (11, $2, $1, 'key-held', 'x', now() + interval '1 minute', now() + interval '1 day')`,
      [adminId, scopeDigest({ userId: adminId, clientId: 11, key: 'key-held', method: 'POST', path: '/api/v1/models/c_bpartner' })],
    );
    const body = partner('idem-held');
    const hash = (await import('node:crypto')).createHash('sha256').update(JSON.stringify(body)).digest('base64url');
    await server.services.db.query("UPDATE dictum.idempotent_answer SET request_hash = $1 WHERE idempotency_key = 'key-held'", [hash]);
    const r = await post('/api/v1/models/c_bpartner', body, 'key-held');
    assert.equal(r.status, 409, r.text);
    assert.equal(await partners('idem-held'), 0);
  });

  it('forgets answers after a day: an expired key runs again, and the sweep deletes expired answers', async () => {
    assert.equal((await post('/api/v1/models/c_bp_group', { Value: 'idem-exp', Name: 'idem-exp' }, 'key-expired')).status, 201);
    await server.services.db.query("UPDATE dictum.idempotent_answer SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'key-expired'");
    const again = await post('/api/v1/models/c_bp_group', { Value: 'idem-exp', Name: 'idem-exp' }, 'key-expired');
    assert.equal(again.headers.get('idempotent-replayed'), null, 'not replayed');
    assert.equal(again.status, 201);
    const groups = await server.request('GET', `/api/v1/models/c_bp_group?$filter=${q("Value eq 'idem-exp'")}`, { token });
    assert.equal(groups.body['row-count'], 2, 'it ran again');
    const expires = await server.services.db.query<{ later: boolean }>("SELECT expires_at > now() + interval '23 hours' AS later FROM dictum.idempotent_answer WHERE idempotency_key = 'key-expired'");
    assert.equal(expires.rows[0]!.later, true, 'the new answer is kept a day');
    await server.services.db.query("UPDATE dictum.idempotent_answer SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'key-expired'");
    assert.ok((await sweepExpiredAnswers(server.services.db)) >= 1);
    assert.equal(await keptRows('key-expired'), 0);
  });

  it('replays an answer kept before the upgrade that keyed answers by digest (migration 274)', async () => {
    const body = partner('idem-upgraded');
    const hash = (await import('node:crypto')).createHash('sha256').update(JSON.stringify(body)).digest('base64url');
    await server.services.db.query(
      `INSERT INTO dictum.idempotent_request (ad_user_id, ad_client_id, idempotency_key, method, path, request_hash, lease_until, expires_at, status, headers, body)
       VALUES ($1, 11, 'key-upgraded', 'POST', '/api/v1/models/c_bpartner', $2, now(), now() + interval '1 day', 201, '{"content-type":"application/json; charset=utf-8"}', convert_to('{"kept":"before"}', 'UTF8'))`,
      [adminId, hash],
    );
    for (const statement of KEPT_ANSWER_SCHEMA) await server.services.db.query(statement);
    const r = await post('/api/v1/models/c_bpartner', body, 'key-upgraded');
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('idempotent-replayed'), 'true');
    assert.equal(r.text, '{"kept":"before"}', 'the answer kept in the old table, byte for byte');
    assert.equal(await partners('idem-upgraded'), 0, 'nothing created again');
  });

  it('replays batches, process runs and document actions', async () => {
    const entries = [{ method: 'POST', path: 'v1/models/c_bpartner', body: partner('idem-batch') }];
    const batch = await post('/api/v1/batch', entries, 'key-batch');
    assert.equal(batch.status, 200, batch.text);
    const batchAgain = await post('/api/v1/batch', entries, 'key-batch');
    assert.equal(batchAgain.text, batch.text);
    assert.equal(batchAgain.headers.get('idempotent-replayed'), 'true');
    assert.equal(await partners('idem-batch'), 1);

    const invoice = await post('/api/v1/models/c_invoice', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 116,
      IsSOTrx: true,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 10, PriceActual: 10, C_Tax_ID: 104 }],
    });
    const run = { 'model-name': 'c_invoice', 'record-id': invoice.body.id, DocAction: 'CO' };
    const done = await post('/api/v1/processes/rest_documentaction', run, 'key-process');
    assert.equal(done.status, 200, done.text);
    const doneAgain = await post('/api/v1/processes/rest_documentaction', run, 'key-process');
    assert.equal(doneAgain.text, done.text);
    assert.equal(doneAgain.headers.get('idempotent-replayed'), 'true');

    const action = (key: string) => server.request('PUT', `/api/v1/models/c_invoice/${invoice.body.id}`, { token, body: { 'doc-action': 'CL' }, headers: { 'Idempotency-Key': key } });
    const closed = await action('key-close');
    assert.equal(closed.status, 200, closed.text);
    const closedAgain = await action('key-close');
    assert.equal(closedAgain.text, closed.text, 'the retried action answers as the first, not as an action on a closed document');
    assert.equal(closedAgain.headers.get('idempotent-replayed'), 'true');
  });

  it('keeps no refusal of a record write (it wrote nothing): a retry runs again', async () => {
    const refused = { Name: 'no group', C_BP_Group_ID: 999999 };
    const first = await post('/api/v1/models/c_bpartner', refused, 'key-refused');
    assert.equal(first.status, 400, first.text);
    assert.equal(await keptRows('key-refused'), 0);
    const again = await post('/api/v1/models/c_bpartner', refused, 'key-refused');
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('idempotent-replayed'), null);
  });

  it('keeps the refusal of a batch as its first answer', async () => {
    const entries = [{ method: 'POST', path: 'v1/models/c_bpartner', body: { Name: 'no group', C_BP_Group_ID: 999999 } }];
    const first = await post('/api/v1/batch', entries, 'key-batch-refused');
    assert.equal(first.status, 400, first.text);
    const again = await post('/api/v1/batch', entries, 'key-batch-refused');
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });
});

describe('Idempotency-Key across instances sharing one PostgreSQL database', { skip: !process.env.DATABASE_URL }, () => {
  let a: TestServer;
  let b: RunningServer;
  let token: string;
  const postTo = (url: string, body: unknown, key: string) =>
    fetch(`${url}/api/v1/models/c_bpartner`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'Idempotency-Key': key }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      replayed: r.headers.get('idempotent-replayed'),
      text: await r.text(),
    }));

  before(async () => {
    a = await startTestServer();
    b = await startSecondInstance(a);
    token = await login(a);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('replays on one instance the answer another gave', async () => {
    const first = await postTo(a.url, partner('idem-two'), 'key-two');
    assert.equal(first.status, 201, first.text);
    const onB = await postTo(b.url, partner('idem-two'), 'key-two');
    assert.equal(onB.replayed, 'true');
    assert.equal(onB.text, first.text);
    const conflicting = await postTo(b.url, partner('idem-two-other'), 'key-two');
    assert.equal(conflicting.status, 422);
  });

  it('runs concurrent retries on two instances once', async () => {
    const answers = await Promise.all([a.url, b.url, a.url, b.url].map((url) => postTo(url, partner('idem-two-race'), 'key-two-race')));
    const fresh = answers.filter((x) => x.status === 201 && x.replayed === null);
    assert.equal(fresh.length, 1, answers.map((x) => `${x.status} ${x.text}`).join('\n'));
    for (const x of answers) if (x !== fresh[0]) assert.ok(x.status === 409 || x.text === fresh[0]!.text, x.text);
    const count = await a.request('GET', `/api/v1/models/c_bpartner?$filter=${q("Value eq 'idem-two-race'")}`, { token });
    assert.equal(count.body['row-count'], 1);
  });
});
