import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { eventually } from '../../helpers/wait.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids and the access log', () => {
  let server: TestServer;
  let dir: string;
  let token: string;
  const logLines = (): Array<Record<string, unknown>> =>
    fs
      .readFileSync(path.join(dir, server.services.logFiles!.currentFileName()), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const lineOf = (id: string) => logLines().find((l) => l.reqId === id && l.msg === 'request');
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-access-log-'));
    server = await startTestServer({ DICTUM_LOG_DIR: dir, LOG_LEVEL: 'info' });
    token = await login(server);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('returns the caller\'s X-Request-Id, and a new UUID for each request without one', async () => {
    const given = await server.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'order-sync:42/retry.1' } });
    assert.equal(given.headers.get('x-request-id'), 'order-sync:42/retry.1');
    const a = await server.request('GET', '/api/v1/health');
    const b = await server.request('GET', '/api/v1/health');
    assert.match(a.headers.get('x-request-id') ?? '', UUID);
    assert.match(b.headers.get('x-request-id') ?? '', UUID);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
  });

  it('replaces an id that is too long or holds other characters', async () => {
    for (const bad of ['x'.repeat(129), 'two words', 'a"b', '<script>']) {
      const r = await server.request('GET', '/api/v1/health', { headers: { 'x-request-id': bad } });
      assert.match(r.headers.get('x-request-id') ?? '', UUID, bad);
    }
    const longest = 'y'.repeat(128);
    assert.equal((await server.request('GET', '/api/v1/health', { headers: { 'x-request-id': longest } })).headers.get('x-request-id'), longest);
  });

  it('returns the id on errors too: not found, refused, bad JSON, a path that does not decode', async () => {
    const missing = await server.request('GET', '/api/v1/nothing-here', { headers: { 'x-request-id': 'e-404' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('x-request-id'), 'e-404');
    const refused = await server.request('GET', '/api/v1/models/c_order', { headers: { 'x-request-id': 'e-401' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-request-id'), 'e-401');
    const badJson = await server.request('POST', '/api/v1/auth/tokens', { raw: '{', headers: { 'x-request-id': 'e-400' } });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.headers.get('x-request-id'), 'e-400');
    const badPath = await server.request('GET', '/api/v1/models/c_bpartner/%FF%FE', { headers: { 'x-request-id': 'e-url' } });
    assert.equal(badPath.status, 400);
    assert.equal(badPath.headers.get('x-request-id'), 'e-url', 'an error raised before routing');
  });

  it('writes one info line per request: method, path without secrets, status, time, bytes, user, role, request id', async () => {
    const id = randomUUID();
    const r = await server.request('GET', '/api/v1/models/c_bpartner?$top=2&access_token=abc.def.ghi&X-ID-SIGNATURE=s3cr3tsig', {
      token,
      headers: { 'x-request-id': id, 'accept-encoding': 'identity' },
    });
    assert.equal(r.status, 200, r.text);
    await eventually(() => lineOf(id) !== undefined, 'the access line is written');
    const line = lineOf(id)!;
    assert.equal(line.level, 30, 'info');
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/api/v1/models/c_bpartner?$top=2&access_token=[redacted]&X-ID-SIGNATURE=[redacted]');
    assert.equal(line.status, 200);
    assert.equal(typeof line.ms, 'number');
    assert.ok((line.bytes as number) > Buffer.byteLength(r.text), `bytes sent, headers included: ${line.bytes}`);
    assert.equal(line.user, 101, 'GardenAdmin');
    assert.equal(line.role, 102);
    const all = fs.readFileSync(path.join(dir, server.services.logFiles!.currentFileName()), 'utf8');
    assert.doesNotMatch(all, /s3cr3tsig|abc\.def\.ghi/);
  });

  it('logs refused and anonymous requests without a user', async () => {
    const id = randomUUID();
    const r = await server.request('GET', '/api/v1/models/c_order', { headers: { 'x-request-id': id } });
    assert.equal(r.status, 401);
    await eventually(() => lineOf(id) !== undefined, 'the access line is written');
    const line = lineOf(id)!;
    assert.equal(line.status, 401);
    assert.equal(line.user, undefined);
    assert.equal(line.role, undefined);
  });
});
