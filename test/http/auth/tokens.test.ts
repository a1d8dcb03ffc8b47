import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { rotateSigningKey } from '../../../src/auth/jwt-keys.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertNoSecrets, assertUnauthorized, claims, clearSysConfig, header, loginPair, probe, setSysConfig, sleep } from './auth-helpers.js';

describe('bearer tokens', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('are required on every non-public endpoint: 401 with the error body and WWW-Authenticate', async () => {
    const r = await server.request('GET', '/api/v1/models/c_bpartner');
    assertUnauthorized(r, /bearer token is required/);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="dictum"');
    assertUnauthorized(await server.request('POST', '/api/v1/batch', { body: [] }));
    assertUnauthorized(await server.request('GET', '/api/v1/models'));
  });

  it('refuse a malformed header, a token that is not a JWT, a bad signature and a refresh token', async () => {
    const { token, refresh_token } = await loginPair(server);
    // Used first, so that the server has verified and kept it: a changed copy must still fail.
    assert.equal((await probe(server, token)).status, 200);
    assertUnauthorized(await server.request('GET', '/api/v1/models/c_bpartner', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }));
    assertUnauthorized(await server.request('GET', '/api/v1/models/c_bpartner', { headers: { authorization: 'Bearer not-a-token' } }));
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(p, 'base64url').toString());
    forged.AD_Role_ID = 0;
    const tampered = `${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`;
    const bad = await probe(server, tampered);
    assertUnauthorized(bad, /not valid/);
    assert.match(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    // The first character changes real bits of the signature (the last one's low bits are padding).
    const otherSignature = `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    assertUnauthorized(await probe(server, otherSignature), /not valid/);
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    assertUnauthorized(await server.request('GET', '/api/v1/models/c_bpartner', { headers: { authorization: `Bearer ${noneAlg}x` } }));
    assertUnauthorized(await probe(server, refresh_token), /refresh token/);
    assert.equal((await probe(server, token)).status, 200);
  });

  it('leave public endpoints and unknown routes alone', async () => {
    assert.equal((await server.request('GET', '/api/v1/health')).status, 200);
    assert.equal((await server.request('GET', '/api/v1/auth/jwk')).status, 200);
    assert.equal((await server.request('GET', '/api/v1/no-such-route')).status, 404);
    // Health needs its key, not a bearer token, once REST_HEALTH_MONITORING_KEY is set.
    await setSysConfig(server, 'REST_HEALTH_MONITORING_KEY', 'health-key-123');
    try {
      assert.equal((await server.request('GET', '/api/v1/health')).status, 401);
      assert.equal((await server.request('GET', '/api/v1/health?key=health-key-123')).status, 200);
    } finally {
      await clearSysConfig(server, 'REST_HEALTH_MONITORING_KEY');
    }
  });

  it('expire after REST_TOKEN_EXPIRE_IN_MINUTES', async () => {
    await setSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES', '0.03');
    try {
      const { token, refresh_token } = await loginPair(server);
      const c = claims(token);
      assert.ok(c.exp! - c.iat! <= 2);
      assert.equal((await probe(server, token)).status, 200);
      await sleep(2600);
      const r = await probe(server, token);
      assertUnauthorized(r, /expired/);
      assert.match(r.headers.get('www-authenticate') ?? '', /invalid_token/);
      // The refresh token lives longer and gives a new pair.
      const refreshed = await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token } });
      assert.equal(refreshed.status, 200, refreshed.text);
      assert.equal((await probe(server, refreshed.body.token)).status, 200);
    } finally {
      await clearSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES');
    }
    const { token } = await loginPair(server);
    const c = claims(token);
    assert.ok(Math.abs(c.exp! - c.iat! - 3600) <= 1);
  });

  it('take the lifetime of the client from a client-level SysConfig row', async () => {
    await setSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES', '5', 11);
    try {
      const c = claims((await loginPair(server)).token);
      assert.ok(Math.abs(c.exp! - c.iat! - 300) <= 1);
    } finally {
      await clearSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES');
    }
  });
});

describe('signing keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('are generated on first start and stored in REST_SigningKey', async () => {
    const { rows } = await server.services.db.query<{ kid: string; algorithm: string; iscurrent: string; privatekey: string | null }>(
      `SELECT kid, algorithm, iscurrent, privatekey FROM rest_signingkey WHERE isactive = 'Y'`,
    );
    const current = rows.filter((r) => r.iscurrent === 'Y');
    assert.equal(current.length, 1);
    assert.equal(current[0]!.algorithm, 'ES256');
    assert.ok(current[0]!.privatekey);
    const { token } = await loginPair(server);
    assert.equal(header(token).kid, current[0]!.kid);
  });

  it('publish the public keys only at GET /auth/jwk, and tokens verify against them', async () => {
    const r = await server.request('GET', '/api/v1/auth/jwk');
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body.keys) && r.body.keys.length >= 1);
    for (const k of r.body.keys) {
      assert.equal(k.kty, 'EC');
      assert.equal(k.crv, 'P-256');
      assert.equal(k.alg, 'ES256');
      assert.equal(k.use, 'sig');
      assert.equal(k.d, undefined, 'no private part');
    }
    assertNoSecrets(r.text);
    const { token } = await loginPair(server);
    const { payload } = await jwtVerify(token, createLocalJWKSet(r.body), { issuer: 'idempiere.org' });
    assert.equal(payload.AD_Client_ID, 11);
  });

  it('rotate: new tokens use the new key, tokens signed by the old one stay valid until they expire', async () => {
    const before = await loginPair(server);
    const oldKid = header(before.token).kid;
    const newKid = await rotateSigningKey(server.services.db);
    assert.notEqual(newKid, oldKid);
    // The NOTIFY reaches this instance's key set; wait for it.
    for (let i = 0; i < 50 && server.services.auth.keys.currentKid !== newKid; i++) await sleep(20);
    const after = await loginPair(server);
    assert.equal(header(after.token).kid, newKid);
    assert.equal((await probe(server, before.token)).status, 200);
    assert.equal((await probe(server, after.token)).status, 200);
    const refreshed = await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: before.refresh_token } });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(header(refreshed.body.token).kid, newKid);
    const jwk = await server.request('GET', '/api/v1/auth/jwk');
    const kids = jwk.body.keys.map((k: { kid: string }) => k.kid);
    assert.ok(kids.includes(oldKid) && kids.includes(newKid));
    const { rows } = await server.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rest_signingkey WHERE iscurrent = 'Y' AND validto IS NULL`);
    assert.equal(Number(rows[0]!.n), 1);
  });

  it('survive a restart: the stored key keeps verifying tokens issued before', async () => {
    const { token } = await loginPair(server);
    const keys = server.services.auth.keys;
    await keys.load();
    server.services.auth.verified.clear();
    assert.equal((await probe(server, token)).status, 200);
  });
});
