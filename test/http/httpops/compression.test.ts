import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { rawRequest, type RawAnswer } from './raw-request.js';

/** The body as the client reads it once it undoes the answer's Content-Encoding. */
function decoded(r: RawAnswer): Buffer {
  switch (r.headers['content-encoding']) {
    case 'gzip':
      return zlib.gunzipSync(r.bytes);
    case 'br':
      return zlib.brotliDecompressSync(r.bytes);
    case undefined:
      return r.bytes;
    default:
      throw new Error(`unexpected encoding ${r.headers['content-encoding']}`);
  }
}

describe('compressed answers', () => {
  let server: TestServer;
  let token: string;
  const get = (path: string, acceptEncoding?: string) =>
    rawRequest(`${server.url}${path}`, 'GET', { authorization: `Bearer ${token}`, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) });
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('sends a large JSON answer as gzip or brotli as the client asks, identical once decoded', async () => {
    const list = '/api/v1/models/c_bpartner?$top=20&$orderby=C_BPartner_ID';
    const plain = await get(list);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: no compression');
    assert.ok(plain.bytes.length > 4096, `a large answer: ${plain.bytes.length} bytes`);
    const identity = await get(list, 'identity');
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.deepEqual(identity.bytes, plain.bytes);
    for (const [accept, encoding] of [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip;q=0.5, br;q=1.0', 'br'],
      ['br;q=0.1, gzip', 'gzip'],
    ] as const) {
      const r = await get(list, accept);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], encoding, accept);
      assert.match(String(r.headers.vary), /accept-encoding/i);
      assert.ok(r.bytes.length < plain.bytes.length / 3, `${encoding} is smaller: ${r.bytes.length} of ${plain.bytes.length}`);
      assert.deepEqual(decoded(r), plain.bytes, `${accept}: the same body`);
    }
  });

  it('leaves small answers as they are', async () => {
    const r = await rawRequest(`${server.url}/api/v1/health`, 'GET', { 'accept-encoding': 'gzip, br' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.deepEqual(JSON.parse(r.bytes.toString()), { status: 'UP' });
  });

  it('leaves binary answers as they are', async () => {
    const r = await get('/api/v1/charts/50002', 'gzip, br');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'image/png');
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.bytes.subarray(1, 4).toString('latin1'), 'PNG');
  });

  it('compresses a streamed JSON answer (an attachment as base64) and it decodes to the same bytes', async () => {
    const content = Buffer.from('line of an attached file\n'.repeat(400));
    const p = '/api/v1/models/c_order/1000022/attachments';
    const created = await server.request('POST', p, { token, body: { name: 'long.txt', data: content.toString('base64') } });
    assert.equal(created.status, 201, created.text);
    const plain = await get(`${p}/long.txt?json=true`);
    assert.equal(plain.status, 200, plain.bytes.toString());
    for (const encoding of ['gzip', 'br']) {
      const r = await get(`${p}/long.txt?json=true`, encoding);
      assert.equal(r.headers['content-encoding'], encoding);
      assert.deepEqual(decoded(r), plain.bytes);
      assert.deepEqual(Buffer.from(JSON.parse(decoded(r).toString()).data, 'base64'), content);
    }
  });

  it('decompresses nothing it is sent: a gzip request body is refused as before', async () => {
    const body = zlib.gzipSync(JSON.stringify({ userName: 'GardenAdmin', password: 'GardenAdmin' }));
    const r = await rawRequest(`${server.url}/api/v1/auth/tokens`, 'POST', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body);
    assert.equal(r.status, 400);
  });
});
