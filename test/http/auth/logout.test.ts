import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/server.js';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { rotateSigningKey } from '../../../src/auth/jwt-keys.js';
import { assertError, assertUnauthorized, claims, header, loginPair, loginRequest, probe, sleep } from './auth-helpers.js';

describe('logout', () => {
  let server: TestServer;
  const logout = (body: unknown, token?: string) => server.request('POST', '/api/v1/auth/logout', { body, ...(token ? { token } : {}) });
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('ends the session: the token and its refresh token stop working at once', async () => {
    const p = await loginPair(server);
    assert.equal((await probe(server, p.token)).status, 200);
    const r = await logout({ token: p.token });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { summary: 'OK' });
    assertUnauthorized(await probe(server, p.token), /ended/);
    assertUnauthorized(await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: p.refresh_token } }), /revoked/);
    const { rows } = await server.services.db.query<{ processed: string; description: string }>('SELECT processed, description FROM ad_session WHERE ad_session_id = $1', [
      claims(p.token).AD_Session_ID,
    ]);
    assert.equal(rows[0]!.processed, 'Y');
    assert.match(rows[0]!.description, /logout/);
    const { rows: tokens } = await server.services.db.query<{ cause: string }>(`SELECT rest_revokecause AS cause FROM rest_refreshtoken WHERE ad_session_id = $1 AND isactive = 'Y'`, [
      claims(p.token).AD_Session_ID,
    ]);
    assert.deepEqual(tokens.map((t) => t.cause), ['L']);
  });

  it('ends only its own session', async () => {
    const a = await loginPair(server);
    const b = await loginPair(server);
    assert.equal((await logout({ token: a.token })).status, 200);
    assert.equal((await probe(server, b.token)).status, 200);
    assert.equal((await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: b.refresh_token } })).status, 200);
  });

  it('also takes the token from the Authorization header', async () => {
    const p = await loginPair(server);
    assert.equal((await logout({}, p.token)).status, 200);
    assertUnauthorized(await probe(server, p.token));
  });

  it('reaches tokens this instance has not verified yet (a session ended in the database)', async () => {
    const p = await loginPair(server);
    await server.services.db.query(`UPDATE ad_session SET processed = 'Y' WHERE ad_session_id = $1`, [claims(p.token).AD_Session_ID]);
    assertUnauthorized(await probe(server, p.token), /ended/);
  });

  it('locking a user through the API ends its sessions and refresh families at once', async () => {
    const admin = await loginPair(server);
    const su = await loginRequest(server, { userName: 'SuperUser', password: 'System', parameters: { clientId: 11, roleId: 102, organizationId: 11 } });
    assert.equal(su.status, 200, su.text);
    const r = await server.request('PUT', `/api/v1/models/ad_user/${admin.body.userId}`, { token: su.body.token, body: { IsLocked: true } });
    assert.equal(r.status, 200, r.text);
    assertUnauthorized(await probe(server, admin.token), /ended/);
    assertUnauthorized(await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: admin.refresh_token } }));
    assert.equal((await probe(server, su.body.token)).status, 200, 'the other user is not touched');
    await server.services.db.query(`UPDATE ad_user SET islocked = 'N' WHERE ad_user_id = $1`, [admin.body.userId]);
    assert.equal((await loginPair(server)).token.length > 0, true);
  });

  it('answers 401 for a bad token, 404 for a token without session, 400 without a token', async () => {
    assertUnauthorized(await logout({ token: 'a.b.c' }));
    const first = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin', password: 'GardenAdmin' } });
    const noSession = await logout({ token: first.body.token });
    assertError(noSession, 404);
    assert.equal(noSession.body.title, 'AD_Session_ID not found');
    assertError(await logout({}), 400, /token/);
    assertError(await logout({ token: 5 }), 400, /token/);
  });
});

describe('logout on several instances sharing one PostgreSQL database', { skip: !process.env.DATABASE_URL }, () => {
  let a: TestServer;
  let b: RunningServer;
  before(async () => {
    a = await startTestServer();
    b = await startSecondInstance(a);
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('a logout on one instance ends the session on the other at once', async () => {
    const p = await loginPair(a);
    const onB = (token: string) => fetch(`${b.url}/api/v1/models/c_bpartner?$top=1`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await onB(p.token)).status, 200, 'B has verified and cached the token');
    const r = await a.request('POST', '/api/v1/auth/logout', { body: { token: p.token } });
    assert.equal(r.status, 200);
    let status = 0;
    for (let i = 0; i < 50; i++) {
      status = (await onB(p.token)).status;
      if (status === 401) break;
      await sleep(20);
    }
    assert.equal(status, 401);
  });

  it('a token signed on one instance verifies on the other, and keys rotated on one reach the other', async () => {
    const p = await loginPair(a);
    const res = await fetch(`${b.url}/api/v1/models/c_bpartner?$top=1`, { headers: { authorization: `Bearer ${p.token}` } });
    assert.equal(res.status, 200);
    const refreshed = await fetch(`${b.url}/api/v1/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: p.refresh_token }) });
    assert.equal(refreshed.status, 200);

    const newKid = await rotateSigningKey(a.services.db);
    for (let i = 0; i < 100 && b.services.auth.keys.currentKid !== newKid; i++) await sleep(20);
    assert.equal(b.services.auth.keys.currentKid, newKid, 'B signs with the key added on A');
    const login = await fetch(`${b.url}/api/v1/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11 } }),
    });
    const body = (await login.json()) as { token: string };
    assert.equal(header(body.token).kid, newKid);
    assert.equal((await probe(a, body.token)).status, 200, 'A verifies what B signed with the new key');
    assert.equal((await probe(a, p.token)).status, 200, 'the token signed with the old key still works');
  });
});
