import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { Socket } from 'node:net';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { clientErrors } from '../../../src/http/framework-errors.js';
import { PUBLIC_BODY_LIMIT } from '../../../src/http/limits.js';

/** Sends raw bytes and returns what the server answers before it closes the connection. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}

const specBody = (text: string): { title: string; status: number; detail: string } => {
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  assert.deepEqual(Object.keys(body).sort(), ['detail', 'status', 'title']);
  return body;
};

describe('errors the framework raises answer the spec error body', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('a path with invalid percent-encoding: 400', async () => {
    const r = await server.request('GET', '/api/v1/models/c_bpartner/%FF%FE', { token });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.body).sort(), ['detail', 'status', 'title']);
    assert.equal(r.body.status, 400);
    assert.match(r.body.detail, /percent-encoding/);
  });

  it('an unsupported content type: 415', async () => {
    const r = await server.request('POST', '/api/v1/models/c_bpartner', { token, raw: '<x/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(r.status, 415);
    assert.equal(r.body.title, 'Unsupported Media Type');
    assert.equal(r.body.status, 415);
  });

  it('a public route takes small bodies only: 413 past the limit, before any login work', async () => {
    const big = JSON.stringify({ userName: 'GardenAdmin', password: 'x'.repeat(PUBLIC_BODY_LIMIT) });
    for (const path of ['/api/v1/auth/tokens', '/api/v1/auth/password-reset/request', '/api/v1/auth/refresh']) {
      const r = await server.request('POST', path, { raw: big });
      assert.equal(r.status, 413, `${path}: ${r.text}`);
      assert.deepEqual(Object.keys(r.body).sort(), ['detail', 'status', 'title']);
    }
    const hook = await server.request('POST', '/api/v1/webhooks/any-key', { raw: 'z'.repeat(70 * 1024), headers: { 'content-type': 'application/json' } });
    assert.equal(hook.status, 413, hook.text.slice(0, 200));
    const small = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin', password: 'GardenAdmin' } });
    assert.equal(small.status, 200);
  });

  it('an unauthenticated request to a private route is refused before its body is read', async () => {
    const r = await server.request('POST', '/api/v1/models/c_bpartner', { raw: JSON.stringify({ Name: 'y'.repeat(2 * PUBLIC_BODY_LIMIT) }) });
    assert.equal(r.status, 401);
  });

  it('a method the path does not take: 405 with Allow', async () => {
    const r = await server.request('PATCH', '/api/v1/models/c_bpartner/118', { token });
    assert.equal(r.status, 405);
    assert.equal(r.body.title, 'Method Not Allowed');
    assert.match(r.headers.get('allow') ?? '', /GET/);
    assert.match(r.headers.get('allow') ?? '', /PUT/);
    const unknown = await server.request('GET', '/api/v1/no-such-thing', { token });
    assert.equal(unknown.status, 404);
  });

  it('malformed HTTP and oversized headers: 400 and 431 with the spec body', async () => {
    const bad = await raw(server.url, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    assert.match(bad, /^HTTP\/1\.1 400/);
    assert.equal(specBody(bad).status, 400);
    const huge = await raw(server.url, `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431/);
    assert.equal(specBody(huge).status, 431);
  });

  it('a request not received in time: 408 (the handler Node calls on its request timeout)', () => {
    let written = '';
    const socket = { writable: true, end: (s: string) => (written = s), destroy: () => undefined } as unknown as Socket;
    clientErrors(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
    assert.match(written, /^HTTP\/1\.1 408 Request Timeout/);
    assert.equal(specBody(written).status, 408);
  });
});
