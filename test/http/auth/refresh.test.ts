import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expireRefreshTokens } from '../../../src/auth/refresh.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertError, assertNoSecrets, assertUnauthorized, claims, clearSysConfig, loginPair, probe, setSysConfig, sleep } from './auth-helpers.js';

describe('refresh tokens', () => {
  let server: TestServer;
  const refresh = (body: Record<string, unknown>) => server.request('POST', '/api/v1/auth/refresh', { body });
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('give a new pair once, in the same session, stored hashed', async () => {
    const first = await loginPair(server);
    const r = await refresh({ refresh_token: first.refresh_token });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['token', 'refresh_token']);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.notEqual(r.body.token, first.token);
    assert.notEqual(r.body.refresh_token, first.refresh_token);
    assert.equal(claims(r.body.token).AD_Session_ID, claims(first.token).AD_Session_ID);
    assert.equal(claims(r.body.token).AD_Role_ID, 102);
    assert.equal((await probe(server, r.body.token)).status, 200);
    assert.equal((await probe(server, first.token)).status, 200, 'the earlier access token runs until it expires');
    const { rows } = await server.services.db.query<{ refreshtoken: string; token: string; familyid: string; parenttoken: string | null; isactive: string }>(
      `SELECT refreshtoken, token, familyid, parenttoken, isactive FROM rest_refreshtoken WHERE ad_session_id = $1 ORDER BY rest_refreshtoken_id`,
      [claims(first.token).AD_Session_ID],
    );
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.isactive, 'N');
    assert.equal(rows[1]!.isactive, 'Y');
    assert.equal(rows[0]!.familyid, rows[1]!.familyid);
    assert.ok(rows[1]!.parenttoken);
    for (const row of rows) {
      assert.match(row.refreshtoken, /^[0-9a-f]{64}$/);
      assert.ok(!first.refresh_token.includes(row.refreshtoken) && !r.body.refresh_token.includes(row.refreshtoken));
      assert.match(row.token, /^[0-9a-f]{64}$/);
    }
  });

  it('treat reuse as a breach: the whole family and its session are revoked', async () => {
    const first = await loginPair(server);
    const second = await refresh({ refresh_token: first.refresh_token });
    assert.equal(second.status, 200);
    const third = await refresh({ refresh_token: second.body.refresh_token });
    assert.equal(third.status, 200);
    const replay = await refresh({ refresh_token: first.refresh_token });
    assertUnauthorized(replay, /already used/);
    assert.equal(replay.body.title, 'Invalid refresh token');
    // The newest refresh token, held by whoever replayed or by the rightful client, is dead too.
    assertUnauthorized(await refresh({ refresh_token: third.body.refresh_token }), /revoked/);
    assertUnauthorized(await probe(server, third.body.token), /ended/);
    assertUnauthorized(await probe(server, first.token), /ended/);
    const { rows } = await server.services.db.query<{ causes: string; open: number }>(
      `SELECT string_agg(DISTINCT rest_revokecause, ',') AS causes, count(*) FILTER (WHERE revokedat IS NULL)::int AS open
         FROM rest_refreshtoken WHERE ad_session_id = $1`,
      [claims(first.token).AD_Session_ID],
    );
    assert.equal(rows[0]!.causes, 'B');
    assert.equal(Number(rows[0]!.open), 0);
    // Other logins are not touched.
    const other = await loginPair(server);
    assert.equal((await probe(server, other.token)).status, 200);
  });

  it('check clientId and userId when given and require them when SysConfig says so', async () => {
    const p = await loginPair(server);
    const userId = claims(p.token).AD_User_ID;
    assertUnauthorized(await refresh({ refresh_token: p.refresh_token, clientId: 12 }), /clientId/);
    assertUnauthorized(await refresh({ refresh_token: p.refresh_token, userId: 1 }), /userId/);
    await setSysConfig(server, 'REST_MANDATORY_CLIENT_ID_ON_REFRESH', 'Y');
    await setSysConfig(server, 'REST_MANDATORY_USER_ID_ON_REFRESH', 'Y');
    try {
      assertUnauthorized(await refresh({ refresh_token: p.refresh_token }), /No clientId provided/);
      assertUnauthorized(await refresh({ refresh_token: p.refresh_token, clientId: 11 }), /No userId provided/);
      const ok = await refresh({ refresh_token: p.refresh_token, clientId: 11, userId });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await refresh({ refresh_token: ok.body.refresh_token, clientId: '11', userId: String(userId) })).status, 200);
    } finally {
      await clearSysConfig(server, 'REST_MANDATORY_CLIENT_ID_ON_REFRESH');
      await clearSysConfig(server, 'REST_MANDATORY_USER_ID_ON_REFRESH');
    }
  });

  it('answer 400 for a body without refresh_token and 401 for garbage or an access token', async () => {
    assertError(await refresh({}), 400, /refresh_token/);
    assertError(await refresh({ refresh_token: 7 }), 400, /refresh_token/);
    assertUnauthorized(await refresh({ refresh_token: 'nonsense' }));
    const p = await loginPair(server);
    assertUnauthorized(await refresh({ refresh_token: p.token }));
  });

  it('expire after REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES', async () => {
    await setSysConfig(server, 'REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES', '0.03');
    try {
      const p = await loginPair(server);
      const c = claims(p.refresh_token);
      assert.ok(c.exp! - c.iat! <= 2);
      await sleep(2600);
      assertUnauthorized(await refresh({ refresh_token: p.refresh_token }), /expired/);
    } finally {
      await clearSysConfig(server, 'REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES');
    }
  });

  it('are invalidated by the Expire Refresh Tokens process, for one user, one client or all', async () => {
    const db = server.services.db;
    const a = await loginPair(server);
    const userId = claims(a.token).AD_User_ID as number;
    const byUser = await expireRefreshTokens(db, { clientId: 11, userId: userId + 100_000 });
    assert.equal(byUser.revoked, 0, 'another user is not touched');
    assert.equal((await refresh({ refresh_token: a.refresh_token })).status, 200);

    const b = await loginPair(server);
    const otherClient = await expireRefreshTokens(db, { clientId: 12 });
    assert.equal(otherClient.revoked, 0);
    const mine = await expireRefreshTokens(db, { clientId: 11, userId });
    assert.ok(mine.revoked >= 1);
    assert.match(mine.summary, /revoked/);
    assertUnauthorized(await refresh({ refresh_token: b.refresh_token }), /revoked/);
    assert.equal((await probe(server, b.token)).status, 200, 'issued access tokens run until they expire');

    const c = await loginPair(server);
    const systemOnly = await expireRefreshTokens(db, { clientId: 0 });
    assert.equal(systemOnly.revoked, 0, 'System without REST_AllTokens touches only System tokens');
    const all = await expireRefreshTokens(db, { clientId: 0, allTokens: true });
    assert.ok(all.revoked >= 1);
    assertUnauthorized(await refresh({ refresh_token: c.refresh_token }), /revoked/);
    const { rows } = await db.query<{ cause: string }>(`SELECT DISTINCT rest_revokecause AS cause FROM rest_refreshtoken WHERE ad_session_id = $1`, [claims(c.token).AD_Session_ID]);
    assert.deepEqual(rows.map((r) => r.cause), ['M']);
  });

  it('the process also removes refresh token rows that have expired', async () => {
    const db = server.services.db;
    const p = await loginPair(server);
    await db.query(`UPDATE rest_refreshtoken SET expiresat = $2 WHERE ad_session_id = $1`, [claims(p.token).AD_Session_ID, new Date(Date.now() - 60_000).toISOString()]);
    const r = await expireRefreshTokens(db, { clientId: 11 });
    assert.ok(r.deleted >= 1);
    const { rows } = await db.query('SELECT 1 FROM rest_refreshtoken WHERE ad_session_id = $1', [claims(p.token).AD_Session_ID]);
    assert.equal(rows.length, 0);
    assertUnauthorized(await refresh({ refresh_token: p.refresh_token }));
  });

  it('show no token or hash in any answer', async () => {
    const p = await loginPair(server);
    const r = await refresh({ refresh_token: p.refresh_token });
    assertNoSecrets(r.text);
    const list = await server.request('GET', '/api/v1/models/rest_refreshtoken?$top=50', { token: r.body.token });
    assert.ok(list.status === 200 || list.status === 403, list.text);
    assertNoSecrets(list.text);
    assert.ok(!list.text.includes(p.refresh_token));
  });
});
