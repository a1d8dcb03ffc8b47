import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { rawRequest } from './raw-request.js';

const ALLOWED = 'https://app.example.com';
const FROM_SYSCONFIG = 'https://portal.example.org';
const OTHER = 'https://evil.example.net';

const preflight = (origin: string, method = 'PUT') => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': 'authorization, content-type',
});

describe('cross-origin calls', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ CORS_ORIGINS: ALLOWED, CORS_MAX_AGE: '321' });
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('answers the preflight of an allowed origin with 204, the methods, the asked headers and the max age, without a token', async () => {
    const r = await rawRequest(`${server.url}/api/v1/models/c_order`, 'OPTIONS', preflight(ALLOWED));
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], ALLOWED);
    assert.match(String(r.headers['access-control-allow-methods']), /\bPUT\b/);
    assert.match(String(r.headers['access-control-allow-methods']), /\bDELETE\b/);
    assert.equal(r.headers['access-control-allow-headers'], 'authorization, content-type');
    assert.equal(r.headers['access-control-max-age'], '321');
    assert.equal(r.headers['access-control-allow-credentials'], undefined, 'credentials are off by default');
    assert.match(String(r.headers.vary), /Origin/);
  });

  it('refuses the preflight of an origin not listed: 403 without any Access-Control header', async () => {
    const r = await rawRequest(`${server.url}/api/v1/models/c_order`, 'OPTIONS', preflight(OTHER));
    assert.equal(r.status, 403);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    assert.equal(r.headers['access-control-allow-methods'], undefined);
    const body = JSON.parse(r.bytes.toString());
    assert.equal(body.status, 403);
    assert.match(body.detail, /evil\.example\.net/);
  });

  it('lets an allowed page read answers and errors, and names the headers it may read', async () => {
    const ok = await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token, headers: { origin: ALLOWED } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), ALLOWED);
    assert.match(ok.headers.get('access-control-expose-headers') ?? '', /x-request-id/i);
    const denied = await server.request('GET', '/api/v1/models/c_bpartner', { headers: { origin: ALLOWED } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), ALLOWED, 'a page can read why it was refused');
    const other = await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token, headers: { origin: OTHER } });
    assert.equal(other.status, 200, 'the server answers; the browser keeps the answer from the page');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  it('answers an OPTIONS request that is no preflight as before: 405 with the methods of the path', async () => {
    const r = await rawRequest(`${server.url}/api/v1/models/c_order`, 'OPTIONS');
    assert.equal(r.status, 405);
    assert.match(String(r.headers.allow), /GET/);
    assert.doesNotMatch(String(r.headers.allow), /OPTIONS/);
  });

  it('takes more origins from SysConfig REST_CORS_ORIGINS, at once', async () => {
    const before = await rawRequest(`${server.url}/api/v1/auth/tokens`, 'OPTIONS', preflight(FROM_SYSCONFIG, 'POST'));
    assert.equal(before.status, 403);
    const system = await systemLogin(server);
    const created = await server.request('POST', '/api/v1/models/ad_sysconfig', {
      token: system,
      body: { Name: 'REST_CORS_ORIGINS', Value: `${FROM_SYSCONFIG}/`, ConfigurationLevel: 'S', Description: 'pages that call the API' },
    });
    assert.equal(created.status, 201, created.text);
    const r = await rawRequest(`${server.url}/api/v1/auth/tokens`, 'OPTIONS', preflight(FROM_SYSCONFIG, 'POST'));
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], FROM_SYSCONFIG);
  });
});

describe('cross-origin calls with credentials', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' });
  });
  after(async () => {
    await server.close();
  });

  it('echoes the origin (never *) and allows credentials when turned on', async () => {
    const r = await rawRequest(`${server.url}/api/v1/health`, 'OPTIONS', preflight(OTHER, 'GET'));
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], OTHER);
    assert.equal(r.headers['access-control-allow-credentials'], 'true');
  });
});

describe('cross-origin configuration', () => {
  it('refuses an origin with a path at start', async () => {
    const { loadConfig } = await import('../../../src/config.js');
    assert.throws(() => loadConfig({ CORS_ORIGINS: 'https://a.example.com/app' }), /CORS_ORIGINS/);
    assert.throws(() => loadConfig({ CORS_CREDENTIALS: 'maybe' }), /CORS_CREDENTIALS/);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: ' https://A.example.com , http://localhost:3000' }).corsOrigins, ['https://a.example.com', 'http://localhost:3000']);
    assert.deepEqual(loadConfig({}).corsOrigins, []);
  });
});
