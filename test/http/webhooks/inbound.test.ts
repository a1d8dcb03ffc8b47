import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { insertRow } from '../../../src/auth/util.js';
import { processImplementations } from '../../../src/processes/process-routes.js';
import { signatureHeader } from '../../../src/webhooks/signature.js';

const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64');

describe('inbound webhooks', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let processId: number;
  const payloads: string[] = [];
  const q = (text: string, values: unknown[] = []) => server.services.db.query<any>(text, values);
  const setConfig = async (name: string, value: string, clientId = 0) => {
    await q('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = $2', [name, clientId]);
    await insertRow(server.services.db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
    server.services.sysConfig.clear();
  };
  const createEndpoint = (body: Record<string, unknown>) =>
    server.request('POST', '/api/v1/models/REST_Webhook_In', {
      token: admin,
      body: { Name: 'In', EndpointKey: 'orders-in', WebhookSecret: SECRET, IsVerifySignature: true, AD_Process_ID: processId, AD_User_ID: 101, ...body },
    });
  const signed = (key: string, body: string, o: { id?: string; ts?: number; secret?: string; headers?: Record<string, string> } = {}) => {
    const id = o.id ?? `msg_${Math.random().toString(36).slice(2)}`;
    const stamp = o.ts ?? Math.floor(Date.now() / 1000);
    return server.request('POST', `/api/v1/webhooks/${key}`, {
      raw: body,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(stamp), 'webhook-signature': signatureHeader([o.secret ?? SECRET], id, stamp, body), ...(o.headers ?? {}) },
    });
  };
  const logs = async () => (await q('SELECT * FROM rest_webhook_in_log ORDER BY rest_webhook_in_log_id')).rows;

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    // A process of the client that records what it receives, and fails on demand.
    processImplementations(server.services).register('test.webhook.Receive', async (c) => {
      const body = String(c.param('WebhookPayload')?.value ?? '');
      if (body.includes('fail')) return { summary: 'The payload asked to fail', isError: true };
      payloads.push(`${c.auth.userId}:${body}`);
      return { summary: 'received' };
    });
    processId = await insertRow(
      server.services.db,
      'AD_Process',
      { value: 'Test_Webhook_Receive', name: 'Receive webhook', accesslevel: '3', isreport: 'N', isbetafunctionality: 'N', allowmultipleexecution: 'P', entitytype: 'U', classname: 'test.webhook.Receive' },
      { clientId: 11 },
    );
  });
  after(async () => {
    await server.close();
  });

  it('validates endpoints: URL-safe lowercase unique key, user required, secret of 24 bytes; administrators only', async () => {
    for (const [body, column] of [
      [{ EndpointKey: 'Orders In' }, 'EndpointKey'],
      [{ EndpointKey: 'UPPER' }, 'EndpointKey'],
      [{ WebhookSecret: 'whsec_' + Buffer.alloc(23).toString('base64') }, 'WebhookSecret'],
      [{ WebhookSecret: null }, 'WebhookSecret'],
      [{ AD_User_ID: null }, 'AD_User_ID'],
    ] as const) {
      const r = await createEndpoint(body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, new RegExp(column));
    }
    const ok = await createEndpoint({});
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.WebhookSecret, undefined);
    const again = await createEndpoint({ Name: 'Again' });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /EndpointKey is already used/);
    const denied = await server.request('POST', '/api/v1/models/REST_Webhook_In', {
      token: user,
      body: { Name: 'Mine', EndpointKey: 'mine', WebhookSecret: SECRET, AD_Process_ID: processId, AD_User_ID: 102 },
    });
    assert.equal(denied.status, 403, denied.text);
    const log = await server.request('POST', '/api/v1/models/REST_Webhook_In_Log', { token: admin, body: { REST_Webhook_In_ID: ok.body.id } });
    assert.equal(log.status, 403);
  });

  it('answers 404 for an unknown key and 503 while inbound webhooks are disabled for the client', async () => {
    const unknown = await signed('no-such-key', '{}');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'Unknown endpoint');
    assert.equal(unknown.body.status, 404);
    const disabled = await signed('orders-in', '{}');
    assert.equal(disabled.status, 503);
    assert.equal(disabled.body.error, 'Inbound webhooks disabled');
    assert.equal(payloads.length, 0);
    await setConfig('REST_WEBHOOK_INBOUND_ENABLED', 'Y', 11);
  });

  it('checks the signature: 400 without webhook-id, 401 for a wrong, stale or missing signature', async () => {
    const noId = await server.request('POST', '/api/v1/webhooks/orders-in', { raw: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(noId.status, 400);
    assert.equal(noId.body.error, 'Missing webhook-id header');
    const wrong = await signed('orders-in', '{"a":1}', { secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'Signature verification failed');
    const stale = await signed('orders-in', '{"a":1}', { ts: Math.floor(Date.now() / 1000) - 301 });
    assert.equal(stale.status, 401);
    const unsigned = await server.request('POST', '/api/v1/webhooks/orders-in', { raw: '{}', headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) } });
    assert.equal(unsigned.status, 401);
    assert.equal(payloads.length, 0);
  });

  it('runs the process as the endpoint user with the raw body, once per webhook-id, and logs every call', async () => {
    const body = '{"order": 42,  "spaced": true}';
    const ok = await signed('orders-in', body, { id: 'msg_once' });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { status: 'ok' });
    assert.deepEqual(payloads, [`101:${body}`]);
    // A rotated sender lists two signatures; any match is enough.
    const other = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
    const stamp = Math.floor(Date.now() / 1000);
    const dup = await server.request('POST', '/api/v1/webhooks/orders-in', {
      raw: body,
      headers: { 'webhook-id': 'msg_once', 'webhook-timestamp': String(stamp), 'webhook-signature': signatureHeader([other, SECRET], 'msg_once', stamp, body) },
    });
    assert.equal(dup.status, 200);
    assert.deepEqual(dup.body, { status: 'duplicate' });
    assert.equal(payloads.length, 1);
    const failed = await signed('orders-in', '{"please":"fail"}');
    assert.equal(failed.status, 500);
    assert.equal(failed.body.error, 'Processing failed');
    assert.equal(failed.body.message, 'The payload asked to fail');
    const all = await logs();
    const mine = all.filter((l: any) => l.webhookmessageid === 'msg_once');
    assert.deepEqual(mine.map((l: any) => [Number(l.httpstatus), l.processed]), [[200, 'Y'], [200, 'N']]);
    assert.equal(mine[0].payload, body);
    assert.deepEqual([...new Set(all.map((l: any) => Number(l.httpstatus)))].sort(), [200, 400, 401, 500, 503]);
    const read = await server.request('GET', `/api/v1/models/REST_Webhook_In_Log?$filter=WebhookMessageId eq 'msg_once'`, { token: admin });
    assert.equal(read.status, 200);
    assert.equal(read.body['row-count'], 2);
  });

  it('restricts callers to Allowed IPs, reading X-Forwarded-For only behind a trusted proxy', async () => {
    const id = (await q(`SELECT rest_webhook_in_id FROM rest_webhook_in WHERE endpointkey = 'orders-in'`)).rows[0].rest_webhook_in_id;
    const put = await server.request('PUT', `/api/v1/models/REST_Webhook_In/${id}`, { token: admin, body: { AllowedIPs: '10.0.0.0/8, 192.168.7.7' } });
    assert.equal(put.status, 200, put.text);
    const direct = await signed('orders-in', '{"ip":1}', { headers: { 'x-forwarded-for': '10.1.2.3' } });
    assert.equal(direct.status, 403, 'X-Forwarded-For is ignored without a trusted proxy');
    assert.equal(direct.body.error, 'IP not allowed');
    await setConfig('REST_WEBHOOK_TRUSTED_PROXIES', '127.0.0.1, ::1');
    const proxied = await signed('orders-in', '{"ip":2}', { headers: { 'x-forwarded-for': '10.1.2.3, 127.0.0.1' } });
    assert.equal(proxied.status, 200, proxied.text);
    const outside = await signed('orders-in', '{"ip":3}', { headers: { 'x-forwarded-for': '10.1.2.3, 8.8.8.8' } });
    assert.equal(outside.status, 403);
    const logged = (await logs()).filter((l: any) => Number(l.httpstatus) === 403).map((l: any) => l.remoteaddr);
    assert.ok(logged.includes('8.8.8.8'), JSON.stringify(logged));
    await q(`UPDATE rest_webhook_in SET allowedips = NULL WHERE rest_webhook_in_id = $1`, [id]);
  });

  it('accepts unsigned calls without webhook-id when Verify Signature is N, each as a new message', async () => {
    const r = await createEndpoint({ Name: 'Open', EndpointKey: 'open_in', IsVerifySignature: false, WebhookSecret: null });
    assert.equal(r.status, 201, r.text);
    const before = payloads.length;
    for (let i = 0; i < 2; i++) {
      const call = await server.request('POST', '/api/v1/webhooks/open_in', { raw: 'plain text body', headers: { 'content-type': 'text/plain' } });
      assert.equal(call.status, 200, call.text);
      assert.deepEqual(call.body, { status: 'ok' });
    }
    assert.equal(payloads.length, before + 2);
    assert.equal(payloads.at(-1), '101:plain text body');
  });
});
