import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { serverUrl } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';
import { insertRow } from '../../../src/auth/util.js';
import { tsMillis } from '../../../src/auth/util.js';
import { ManualClock, systemClock } from '../../../src/queue/clock.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../src/queue/retry.js';
import { claimDue, IN_PROGRESS_RECOVERY_MS } from '../../../src/webhooks/delivery-store.js';
import { webhookDispatcher } from '../../../src/webhooks/register.js';
import type { RunningServer } from '../../../src/server.js';
import { Receiver } from './receiver.js';

const BPARTNER_TABLE = 291;

describe('outbound webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;
  let admin: string;
  let user: string;

  const q = (text: string, values: unknown[] = []) => server.services.db.query<any>(text, values);
  const setConfig = async (name: string, value: string, clientId = 0) => {
    await q('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = $2', [name, clientId]);
    await insertRow(server.services.db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
    server.services.sysConfig.clear();
  };
  const delivery = async (id: number) => (await q('SELECT * FROM rest_webhook_out_log WHERE rest_webhook_out_log_id = $1', [id])).rows[0];
  const deliveriesOf = async (endpoint: number) => (await q('SELECT * FROM rest_webhook_out_log WHERE rest_webhook_out_id = $1 ORDER BY rest_webhook_out_log_id', [endpoint])).rows;
  /** Waits until the delivery reaches one of the states. */
  const settled = async (id: number, states: string[]) => {
    for (let i = 0; i < 300; i++) {
      const d = await delivery(id);
      if (d && states.includes(d.deliverystatus)) return d;
      await sleep(30);
    }
    assert.fail(`delivery ${id} did not reach ${states.join('/')}: ${JSON.stringify(await delivery(id))}`);
  };
  const received = async (n: number) => {
    for (let i = 0; i < 300 && receiver.received.length < n; i++) await sleep(30);
    assert.equal(receiver.received.length, n, 'requests received');
  };
  /** A new endpoint, the only active one: earlier tests' endpoints would receive the same events. */
  const endpoint = async (body: Record<string, unknown>) => {
    await q(`UPDATE rest_webhook_out SET isactive = 'N'`);
    await q(`SELECT pg_notify('dictum_webhooks', 'test')`);
    const r = await server.request('POST', '/api/v1/models/REST_Webhook_Out', { token: admin, body: { Name: 'Receiver', URL: receiver.url + '/hook', ...body } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  const subscribe = async (endpointId: number, code: string, extra: Record<string, unknown> = {}) => {
    const r = await server.request('POST', '/api/v1/models/REST_Webhook_Out_Event', {
      token: admin,
      body: { REST_Webhook_Out_ID: endpointId, AD_Table_ID: BPARTNER_TABLE, EventModelValidator: code, ...extra },
    });
    assert.equal(r.status, 201, r.text);
    // The subscription cache is dropped by the change's notification.
    await sleep(50);
    return r.body.id as number;
  };
  const newPartner = async (name: string) => {
    const r = await server.request('POST', '/api/v1/models/C_BPartner', { token: admin, body: { Name: name } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  const lastDelivery = async (endpointId: number) => {
    const all = await deliveriesOf(endpointId);
    assert.ok(all.length, 'a delivery was written');
    return all[all.length - 1];
  };

  before(async () => {
    receiver = await new Receiver().start();
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    await setConfig('REST_WEBHOOK_ENABLED', 'Y', 11);
    await setConfig('REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1');
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('generates a secret for a standard endpoint, keeps a given one, and never shows either', async () => {
    const id = await endpoint({ Name: 'Generated' });
    const row = (await q('SELECT webhooksecret, ispaused, maxconsecutivefailures FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0];
    assert.match(row.webhooksecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(row.webhooksecret.slice(6), 'base64').length, 32);
    assert.equal(row.ispaused, 'N');
    assert.equal(Number(row.maxconsecutivefailures), 50);
    const given = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const kept = await endpoint({ Name: 'Given', WebhookSecret: given });
    assert.equal((await q('SELECT webhooksecret FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [kept])).rows[0].webhooksecret, given);
    const read = await server.request('GET', `/api/v1/models/REST_Webhook_Out/${kept}`, { token: admin });
    assert.equal(read.status, 200);
    assert.equal(read.body.Name, 'Given');
    assert.equal(read.body.WebhookSecret, undefined);
    const raw = await endpoint({ Name: 'Raw', IsStandardWebhook: false });
    assert.equal((await q('SELECT webhooksecret FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [raw])).rows[0].webhooksecret, null);
  });

  it('refuses invalid configuration with 400 naming the column', async () => {
    for (const [body, column] of [
      [{ URL: 'ftp://example.com/x' }, 'URL'],
      [{ URL: 'not a url' }, 'URL'],
      [{ MaxConsecutiveFailures: -1 }, 'MaxConsecutiveFailures'],
      [{ WebhookSecret: 'whsec_***' }, 'WebhookSecret'],
    ] as const) {
      const r = await server.request('POST', '/api/v1/models/REST_Webhook_Out', { token: admin, body: { Name: 'Bad', URL: receiver.url, ...body } });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, new RegExp(column));
    }
    const bad = await server.request('POST', '/api/v1/models/REST_Webhook_Out_Event', {
      token: admin,
      body: { REST_Webhook_Out_ID: await endpoint({}), AD_Table_ID: BPARTNER_TABLE, EventModelValidator: 'TAN', PayloadTemplate: '{"a": @Name' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /PayloadTemplate/);
  });

  it('lets only client administrators write the configuration, and nobody the delivery log', async () => {
    const r = await server.request('POST', '/api/v1/models/REST_Webhook_Out', { token: user, body: { Name: 'Mine', URL: receiver.url } });
    assert.equal(r.status, 403, r.text);
    const id = await endpoint({ Name: 'Admin only' });
    const put = await server.request('PUT', `/api/v1/models/REST_Webhook_Out/${id}`, { token: user, body: { URL: 'http://evil.example/' } });
    assert.equal(put.status, 403, put.text);
    const del = await server.request('DELETE', `/api/v1/models/REST_Webhook_Out/${id}`, { token: user });
    assert.equal(del.status, 403, del.text);
    assert.equal((await q('SELECT url FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].url, receiver.url + '/hook');
    const log = await server.request('POST', '/api/v1/models/REST_Webhook_Out_Log', { token: admin, body: { REST_Webhook_Out_ID: id, DeliveryStatus: 'S' } });
    assert.equal(log.status, 403, log.text);
  });

  it('delivers a new record signed, in the envelope, verified by the standardwebhooks library', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Signed' });
    await subscribe(id, 'TAN');
    const bp = await newPartner('Webhook Partner');
    await received(1);
    const secret = (await q('SELECT webhooksecret FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].webhooksecret;
    const got = receiver.received[0]!;
    const payload = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as any;
    assert.equal(payload.type, 'C_BPartner.TAN');
    assert.equal(payload.data.id, bp);
    assert.equal(payload.data.Name, 'Webhook Partner');
    assert.equal(payload.data['model-name'], 'c_bpartner');
    assert.match(String(got.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
    assert.equal(got.headers['content-type'], 'application/json');
    const d = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['S']);
    assert.equal(d.webhookmessageid, got.headers['webhook-id']);
    assert.equal(Number(d.attempts), 1);
    assert.equal(Number(d.httpstatus), 200);
    assert.equal(Number(d.record_id), bp);
    const listed = await server.request('GET', `/api/v1/models/REST_Webhook_Out_Log?$filter=REST_Webhook_Out_ID eq ${id} and DeliveryStatus eq 'S'`, { token: admin });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body['row-count'], 1);
    assert.equal(listed.body.records[0].WebhookMessageId, d.webhookmessageid);
  });

  it('delivers a document event (DACO) when an order is completed', async () => {
    const id = await endpoint({});
    const sub = await server.request('POST', '/api/v1/models/REST_Webhook_Out_Event', { token: admin, body: { REST_Webhook_Out_ID: id, AD_Table_ID: 259, EventModelValidator: 'DACO' } });
    assert.equal(sub.status, 201, sub.text);
    await sleep(50);
    const before = receiver.received.length;
    const order = await server.request('POST', '/api/v1/models/c_order', {
      token: admin,
      body: { IsSOTrx: true, C_DocTypeTarget_ID: 132, C_BPartner_ID: 118, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' },
    });
    assert.equal(order.status, 201, order.text);
    assert.equal(order.body.DocStatus.id, 'CO');
    await received(before + 1);
    const body = JSON.parse(receiver.received[receiver.received.length - 1]!.body);
    assert.equal(body.type, 'C_Order.DACO');
    assert.equal(body.data.id, order.body.id);
    assert.equal(body.data.DocStatus.id, 'CO');
  });

  it('sends nothing for a change that rolls back, or while REST_WEBHOOK_ENABLED is N', async () => {
    const id = await endpoint({ Name: 'Rollback' });
    await subscribe(id, 'TAN');
    const batch = await server.request('POST', '/api/v1/batch?transaction=true', {
      token: admin,
      body: [
        { method: 'POST', path: 'v1/models/C_BPartner', body: { Name: 'Rolled back' } },
        { method: 'POST', path: 'v1/models/C_BPartner', body: { Name: 'Rolled back', C_BP_Group_ID: 999999999 } },
      ],
    });
    assert.equal(batch.status, 400, batch.text);
    assert.equal(batch.body[0].statusCode, 201, batch.text);
    assert.equal((await q(`SELECT count(*)::int AS n FROM c_bpartner WHERE name = 'Rolled back'`)).rows[0].n, 0);
    assert.equal((await deliveriesOf(id)).length, 0);
    await setConfig('REST_WEBHOOK_ENABLED', 'N', 11);
    await newPartner('Switched off');
    assert.equal((await deliveriesOf(id)).length, 0);
    await setConfig('REST_WEBHOOK_ENABLED', 'Y', 11);
  });

  it('signs with both secrets during rotation and with the new one after expiry', async () => {
    receiver.received.length = 0;
    const oldSecret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const newSecret = 'whsec_' + Buffer.alloc(32, 2).toString('base64');
    const id = await endpoint({ Name: 'Rotating', WebhookSecret: newSecret, PreviousSecret: oldSecret, PreviousSecretExpiry: new Date(Date.now() + 3600_000).toISOString().slice(0, 19) + 'Z' });
    await subscribe(id, 'TAN');
    await newPartner('Rotation 1');
    await received(1);
    const first = receiver.received[0]!;
    assert.equal(String(first.headers['webhook-signature']).split(' ').length, 2);
    new Webhook(oldSecret).verify(first.body, first.headers as Record<string, string>);
    new Webhook(newSecret).verify(first.body, first.headers as Record<string, string>);
    await q(`UPDATE rest_webhook_out SET previoussecretexpiry = $2 WHERE rest_webhook_out_id = $1`, [id, new Date(Date.now() - 1000).toISOString()]);
    await newPartner('Rotation 2');
    await received(2);
    const second = receiver.received[1]!;
    assert.equal(String(second.headers['webhook-signature']).split(' ').length, 1);
    new Webhook(newSecret).verify(second.body, second.headers as Record<string, string>);
    assert.throws(() => new Webhook(oldSecret).verify(second.body, second.headers as Record<string, string>));
  });

  it('fills payload templates and sends non-standard endpoints the raw payload unsigned', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Raw template', IsStandardWebhook: false });
    await subscribe(id, 'TAN', { PayloadTemplate: '{"partner": "@Name@", "id": @C_BPartner_ID@, "desc": "@Description@", "raw": @Description@}' });
    const bp = await newPartner('Templated');
    await received(1);
    const got = receiver.received[0]!;
    assert.deepEqual(JSON.parse(got.body), { partner: 'Templated', id: bp, raw: null });
    assert.equal(got.headers['webhook-signature'], undefined);
    assert.equal(got.headers['webhook-id'], undefined);
  });

  it('narrows the record by IncludeColumns and fires on change and delete', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Changes' });
    await subscribe(id, 'TAC', { IncludeColumns: 'Name' });
    await subscribe(id, 'TAD');
    const bp = await newPartner('Before change');
    const put = await server.request('PUT', `/api/v1/models/C_BPartner/${bp}`, { token: admin, body: { Name: 'After change' } });
    assert.equal(put.status, 200, put.text);
    await received(1);
    const changed = JSON.parse(receiver.received[0]!.body);
    assert.equal(changed.type, 'C_BPartner.TAC');
    assert.deepEqual(Object.keys(changed.data).sort(), ['Name', 'id', 'model-name', 'uid']);
    assert.equal(changed.data.Name, 'After change');
    const del = await server.request('DELETE', `/api/v1/models/C_BPartner/${bp}`, { token: admin });
    assert.equal(del.status, 200, del.text);
    await received(2);
    const deleted = JSON.parse(receiver.received[1]!.body);
    assert.equal(deleted.type, 'C_BPartner.TAD');
    assert.equal(deleted.data.Name, 'After change');
  });

  it('drops payloads over REST_WEBHOOK_MAX_PAYLOAD_SIZE with the reason on the delivery', async () => {
    receiver.received.length = 0;
    await setConfig('REST_WEBHOOK_MAX_PAYLOAD_SIZE', '100', 11);
    const id = await endpoint({ Name: 'Small' });
    await subscribe(id, 'TAN');
    await newPartner('Too large for the limit');
    const d = await lastDelivery(id);
    assert.equal(d.deliverystatus, 'A');
    assert.match(d.errormessage, /exceeds REST_WEBHOOK_MAX_PAYLOAD_SIZE \(100\)/);
    assert.equal(d.payload, null);
    await sleep(200);
    assert.equal(receiver.received.length, 0);
    await setConfig('REST_WEBHOOK_MAX_PAYLOAD_SIZE', '20480', 11);
  });

  it('retries a failure after about 5 s (±15%), cuts the stored response, and succeeds on the retry', async () => {
    receiver.received.length = 0;
    await setConfig('REST_WEBHOOK_LOG_MAX_LENGTH', '5', 11);
    receiver.responseBody = 'a long error body';
    receiver.statuses.push(500);
    const id = await endpoint({ Name: 'Flaky' });
    await subscribe(id, 'TAN');
    const before = Date.now();
    await newPartner('Retried');
    await received(1);
    const d = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['P']);
    await settled(d.rest_webhook_out_log_id, ['P']);
    const failed = await delivery(d.rest_webhook_out_log_id);
    assert.equal(Number(failed.attempts), 1);
    assert.equal(Number(failed.httpstatus), 500);
    assert.equal(failed.responsebody, 'a lon');
    assert.equal(failed.errormessage, 'HTTP ');
    const next = Date.parse(String(failed.nextretryat).replace(' ', 'T') + 'Z');
    assert.ok(next >= before + 5000 * 0.85 - 50 && next <= Date.now() + 5000 * 1.15 + 50, `next retry ${failed.nextretryat}`);
    const ep = (await q('SELECT consecutivefailures, lastfailureat FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0];
    assert.equal(Number(ep.consecutivefailures), 1);
    assert.ok(ep.lastfailureat);
    receiver.responseBody = 'ok';
    // Bring the retry forward instead of waiting for it.
    await q(`UPDATE rest_webhook_out_log SET nextretryat = $2 WHERE rest_webhook_out_log_id = $1`, [d.rest_webhook_out_log_id, new Date(Date.now() - 1000).toISOString()]);
    webhookDispatcher(server.services)!.wake();
    const ok = await settled(d.rest_webhook_out_log_id, ['S']);
    assert.equal(Number(ok.attempts), 2);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[0]!.headers['webhook-id'], receiver.received[1]!.headers['webhook-id']);
    assert.equal(Number((await q('SELECT consecutivefailures FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].consecutivefailures), 0);
    await setConfig('REST_WEBHOOK_LOG_MAX_LENGTH', '2000', 11);
  });

  it('abandons at REST_WEBHOOK_MAX_RETRIES, does not follow redirects, and abandons and pauses on 410', async () => {
    await setConfig('REST_WEBHOOK_MAX_RETRIES', '1');
    receiver.statuses.push(302);
    const id = await endpoint({ Name: 'Redirecting' });
    await subscribe(id, 'TAN');
    receiver.received.length = 0;
    await newPartner('Redirected');
    const d = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['A']);
    assert.equal(Number(d.httpstatus), 302);
    assert.match(d.errormessage, /Redirect not followed/);
    assert.equal(receiver.received.length, 1, 'the redirect target was not called');
    await setConfig('REST_WEBHOOK_MAX_RETRIES', '10');
    receiver.statuses.push(410);
    const gone = await endpoint({ Name: 'Gone' });
    await subscribe(gone, 'TAN');
    await newPartner('Gone partner');
    const g = await settled((await lastDelivery(gone)).rest_webhook_out_log_id, ['A']);
    assert.equal(Number(g.httpstatus), 410);
    assert.equal((await q('SELECT ispaused FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [gone])).rows[0].ispaused, 'Y');
  });

  it('pauses at Max Consecutive Failures, queues while paused, and delivers when unpaused', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Pausing', MaxConsecutiveFailures: 1 });
    await subscribe(id, 'TAN');
    receiver.statuses.push(503);
    await newPartner('Pause 1');
    const first = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['P']);
    for (let i = 0; i < 100 && (await q('SELECT ispaused FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].ispaused !== 'Y'; i++) await sleep(30);
    assert.equal((await q('SELECT ispaused FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].ispaused, 'Y');
    await newPartner('Pause 2');
    await sleep(300);
    assert.equal(receiver.received.length, 1, 'nothing sent while paused');
    const all = await deliveriesOf(id);
    assert.deepEqual(all.map((d: any) => d.deliverystatus), ['P', 'P']);
    const put = await server.request('PUT', `/api/v1/models/REST_Webhook_Out/${id}`, { token: admin, body: { IsPaused: false } });
    assert.equal(put.status, 200, put.text);
    for (const d of all) await settled(d.rest_webhook_out_log_id, ['S']);
    assert.equal(receiver.received.length, 3);
    assert.equal(Number((await delivery(first.rest_webhook_out_log_id)).attempts), 2);
    assert.equal(Number((await q('SELECT consecutivefailures FROM rest_webhook_out WHERE rest_webhook_out_id = $1', [id])).rows[0].consecutivefailures), 0);
  });

  it('refuses internal addresses that REST_WEBHOOK_ALLOWED_HOSTS does not allow', async () => {
    await setConfig('REST_WEBHOOK_ALLOWED_HOSTS', '');
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Internal' });
    await subscribe(id, 'TAN');
    try {
      await newPartner('Internal target');
      const logId = (await lastDelivery(id)).rest_webhook_out_log_id;
      for (let i = 0; i < 300 && Number((await delivery(logId)).attempts) < 1; i++) await sleep(30);
      const d = await settled(logId, ['P', 'A']);
      assert.equal(Number(d.attempts), 1);
      assert.match(d.errormessage, /internal address 127\.0\.0\.1/);
      assert.equal(receiver.received.length, 0);
    } finally {
      await setConfig('REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.0/8');
    }
  });

  it('recovers a delivery whose worker died mid-flight: claimed again after 5 minutes, and by the retry processor', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Recovering' });
    await subscribe(id, 'TAN');
    const dispatcher = webhookDispatcher(server.services)!;
    await dispatcher.stop(0);
    const clock = new ManualClock(Date.now());
    try {
      await newPartner('Crash 1');
      const d = await lastDelivery(id);
      // A worker claims the delivery (P → I) and dies before it sends or records anything.
      const [claimed] = await claimDue(server.services.db, clock.now(), 1);
      assert.equal(claimed?.id, Number(d.rest_webhook_out_log_id));
      assert.equal((await delivery(claimed!.id)).deliverystatus, 'I');
      dispatcher.useClock(clock);
      await dispatcher.start();
      clock.advance(IN_PROGRESS_RECOVERY_MS - 1000);
      dispatcher.wake();
      await sleep(300);
      assert.equal(receiver.received.length, 0, 'a fresh In Progress claim is left to its worker');
      assert.equal((await delivery(claimed!.id)).deliverystatus, 'I');
      clock.advance(2000);
      dispatcher.wake();
      const s = await settled(claimed!.id, ['S']);
      assert.equal(Number(s.attempts), 2);
      assert.equal(receiver.received.length, 1);
      // Stalled past 5 minutes while no dispatcher runs: the retry processor puts it back to Pending.
      await dispatcher.stop(0);
      await newPartner('Crash 2');
      const [second] = await claimDue(server.services.db, clock.now(), 1);
      assert.ok(second);
      clock.advance(IN_PROGRESS_RECOVERY_MS + 1000);
      const r = await dispatcher.process();
      assert.ok(r.recovered >= 1 && r.queued >= 1, JSON.stringify(r));
      assert.equal((await delivery(second.id)).deliverystatus, 'P');
      await dispatcher.start();
      assert.equal(Number((await settled(second.id, ['S'])).attempts), 2);
      assert.equal(receiver.received.length, 2);
    } finally {
      dispatcher.useClock(systemClock);
      await dispatcher.start();
    }
  });

  it('hands unfinished deliveries back as Pending when the instance stops past its grace period', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Hanging' });
    await subscribe(id, 'TAN');
    const dispatcher = webhookDispatcher(server.services)!;
    receiver.hold = true;
    try {
      await newPartner('Hung');
      const d = await lastDelivery(id);
      await received(1);
      assert.equal((await delivery(d.rest_webhook_out_log_id)).deliverystatus, 'I');
      await dispatcher.stop(100);
      const back = await delivery(d.rest_webhook_out_log_id);
      assert.equal(back.deliverystatus, 'P', 'handed back, not left In Progress for 5 minutes');
      assert.equal(Number(back.attempts), 1, 'the attempt that was sent counts');
    } finally {
      receiver.hold = false;
      await dispatcher.start();
    }
    const s = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['S']);
    assert.equal(Number(s.attempts), 2);
  });

  it('follows the retry schedule by the clock: immediate, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (±15%), then abandons', async () => {
    await setConfig('REST_WEBHOOK_MAX_RETRIES', '10');
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Failing', MaxConsecutiveFailures: 0 });
    await subscribe(id, 'TAN');
    const dispatcher = webhookDispatcher(server.services)!;
    const clock = new ManualClock(Date.now());
    dispatcher.useClock(clock);
    receiver.statuses.push(...Array<number>(10).fill(503));
    try {
      await newPartner('Never accepted');
      const logId = (await lastDelivery(id)).rest_webhook_out_log_id;
      const attemptsOf = async (n: number) => {
        for (let i = 0; i < 300; i++) {
          const d = await delivery(logId);
          if (Number(d.attempts) >= n && d.deliverystatus !== 'I') return d;
          await sleep(20);
        }
        assert.fail(`attempt ${n} was not recorded: ${JSON.stringify(await delivery(logId))}`);
      };
      // The first attempt is immediate: the clock has not moved.
      let d = await attemptsOf(1);
      for (let attempt = 1; attempt < 10; attempt++) {
        assert.equal(d.deliverystatus, 'P', `after attempt ${attempt}`);
        assert.equal(Number(d.httpstatus), 503);
        const delay = tsMillis(d.nextretryat)! - clock.now().getTime();
        const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
        assert.ok(delay >= base * 0.85 - 1 && delay <= base * 1.15 + 1, `attempt ${attempt}: next after ${delay} ms, schedule ${base} ms ±15%`);
        // Not before it is due, sent once it is.
        clock.advance(delay - 1000);
        dispatcher.wake();
        await sleep(100);
        assert.equal(receiver.received.length, attempt, `attempt ${attempt + 1} waits for its time`);
        clock.advance(1000);
        dispatcher.wake();
        d = await attemptsOf(attempt + 1);
      }
      assert.equal(d.deliverystatus, 'A', 'abandoned at REST_WEBHOOK_MAX_RETRIES');
      assert.equal(Number(d.attempts), 10);
      assert.equal(d.nextretryat, null);
      assert.equal(receiver.received.length, 10);
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'every attempt sends the same message');
      clock.advance(48 * 3600_000);
      dispatcher.wake();
      await sleep(200);
      assert.equal(receiver.received.length, 10, 'nothing after abandonment');
    } finally {
      dispatcher.useClock(systemClock);
      receiver.statuses.length = 0;
    }
  });

  it('runs the Webhook Retry Processor as a process of the System client', async () => {
    const system = await systemLogin(server);
    const r = await server.request('POST', '/api/v1/processes/rest_webhookretryprocessor', { token: system, body: {} });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false);
    assert.match(r.body.summary, /^Recovered \d+ stalled and queued \d+ pending deliveries$/);
    const denied = await server.request('POST', '/api/v1/processes/rest_webhookretryprocessor', { token: user, body: {} });
    assert.ok(denied.status === 403 || denied.status === 404, denied.text);
  });

  it('replays one delivery, an endpoint since a time, and sends a test event; administrators only', async () => {
    receiver.received.length = 0;
    const id = await endpoint({ Name: 'Replays' });
    await subscribe(id, 'TAN');
    await newPartner('Replay me');
    const d = await settled((await lastDelivery(id)).rest_webhook_out_log_id, ['S']);
    const r = await server.request('POST', `/api/v1/webhooks/outbound/deliveries/${d.rest_webhook_out_log_id}/replay`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.WebhookMessageId, d.webhookmessageid);
    await settled(d.rest_webhook_out_log_id, ['S']);
    await received(2);
    assert.equal(receiver.received[1]!.headers['webhook-id'], d.webhookmessageid);
    const since = await server.request('POST', `/api/v1/webhooks/outbound/endpoints/${id}/replay`, { token: admin, body: { since: '2000-01-01T00:00:00Z' } });
    assert.equal(since.status, 200, since.text);
    assert.equal(since.body.replayed, 1);
    await received(3);
    const bad = await server.request('POST', `/api/v1/webhooks/outbound/endpoints/${id}/replay`, { token: admin, body: { since: 'yesterday' } });
    assert.equal(bad.status, 400);
    const test = await server.request('POST', `/api/v1/webhooks/outbound/endpoints/${id}/test`, { token: admin });
    assert.equal(test.status, 201, test.text);
    assert.equal(test.body.EventType, 'webhook.test');
    await received(4);
    assert.equal(JSON.parse(receiver.received[3]!.body).type, 'webhook.test');
    for (const path of [`deliveries/${d.rest_webhook_out_log_id}/replay`, `endpoints/${id}/replay`, `endpoints/${id}/test`]) {
      const denied = await server.request('POST', `/api/v1/webhooks/outbound/${path}`, { token: user, body: { since: '2000-01-01' } });
      assert.equal(denied.status, 403, path);
      const anonymous = await server.request('POST', `/api/v1/webhooks/outbound/${path}`, { body: { since: '2000-01-01' } });
      assert.equal(anonymous.status, 401, path);
    }
    const missing = await server.request('POST', `/api/v1/webhooks/outbound/deliveries/999999999/replay`, { token: admin });
    assert.equal(missing.status, 404);
  });

  it('two instances on one database send each delivery once', { skip: !serverUrl && 'needs PostgreSQL (DATABASE_URL)' }, async () => {
    let second: RunningServer | null = null;
    try {
      second = await startSecondInstance(server);
      receiver.received.length = 0;
      const id = await endpoint({ Name: 'Shared' });
      await subscribe(id, 'TAN');
      await sleep(100);
      for (let i = 0; i < 40; i++) await newPartner(`Shared ${i}`);
      for (const d of await deliveriesOf(id)) await settled(d.rest_webhook_out_log_id, ['S']);
      // A backlog released at once: both instances are woken by the same commit and claim side by side.
      await q(`UPDATE rest_webhook_out SET ispaused = 'Y' WHERE rest_webhook_out_id = $1`, [id]);
      for (let i = 0; i < 300; i++) await newPartner(`Backlog ${i}`);
      const put = await server.request('PUT', `/api/v1/models/REST_Webhook_Out/${id}`, { token: admin, body: { IsPaused: false } });
      assert.equal(put.status, 200, put.text);
      for (const d of await deliveriesOf(id)) await settled(d.rest_webhook_out_log_id, ['S']);
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      assert.equal(ids.length, 340);
      assert.equal(new Set(ids).size, 340);
      const attempts = (await deliveriesOf(id)).map((d: any) => Number(d.attempts));
      assert.deepEqual([...new Set(attempts)], [1], 'each delivery was claimed once');
    } finally {
      await second?.close();
    }
  });
});
