import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertError, assertUnauthorized, lastMail, loginRequest, setSysConfig, sleep } from './auth-helpers.js';

describe('failed logins', () => {
  let server: TestServer;
  const wrong = (userName = 'GardenAdmin') => loginRequest(server, { userName, password: 'wrong-password' });
  const user = async () =>
    (
      await server.services.db.query<{ islocked: string; failedlogincount: number; dateaccountlocked: unknown }>(
        `SELECT islocked, failedlogincount, dateaccountlocked FROM ad_user WHERE name = 'GardenAdmin'`,
      )
    ).rows[0]!;

  before(async () => {
    server = await startTestServer();
  });
  beforeEach(async () => {
    // Each case starts with a clean account and clean counters.
    await server.services.db.query(`UPDATE ad_user SET islocked = 'N', failedlogincount = 0, dateaccountlocked = NULL WHERE name = 'GardenAdmin'`);
    await setSysConfig(server, 'REST_LOGIN_MAX_FAILED_ATTEMPTS', '5');
    await setSysConfig(server, 'REST_LOGIN_LOCK_MINUTES', '15');
    await setSysConfig(server, 'REST_LOGIN_FAILURE_WINDOW_MINUTES', '15');
    await setSysConfig(server, 'REST_LOGIN_MAX_FAILURES_PER_ADDRESS', '1000');
    // Failed logins unpadded but where their time is the subject: the padding only adds waiting here.
    await setSysConfig(server, 'REST_LOGIN_FAILURE_MIN_RESPONSE_MS', '0');
    await server.services.auth.failures.reset('user:gardenadmin');
    await server.services.auth.failures.reset('user:nosuchuser');
    await server.services.auth.failures.reset('addr:127.0.0.1');
  });
  after(async () => {
    await server.close();
  });

  it('answer 429 with Retry-After once a user name has too many failures, even with the right password', async () => {
    for (let i = 0; i < 5; i++) assertUnauthorized(await wrong());
    const r = await loginRequest(server);
    assertError(r, 429);
    assert.equal(r.body.title, 'Too Many Requests');
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    assertError(await wrong(), 429);
  });

  it('lock the account in the database: the lock holds on an instance that saw no failure', async () => {
    for (let i = 0; i < 5; i++) assertUnauthorized(await wrong());
    const u = await user();
    assert.equal(u.islocked, 'Y');
    assert.equal(Number(u.failedlogincount), 5);
    assert.ok(u.dateaccountlocked);
    // With the failure counters cleared, the account lock alone still answers 429, the same for a
    // wrong and a right password.
    await server.services.auth.failures.reset('user:gardenadmin');
    const right = await loginRequest(server);
    const bad = await wrong();
    assertError(right, 429);
    assert.deepEqual(bad.body, right.body);
  });

  it('count failures of unknown user names the same way, so a 429 reveals no account', async () => {
    for (let i = 0; i < 5; i++) assertUnauthorized(await wrong('NoSuchUser'));
    assertError(await wrong('NoSuchUser'), 429);
  });

  it('end the lock after REST_LOGIN_LOCK_MINUTES and reset the count on success', async () => {
    await setSysConfig(server, 'REST_LOGIN_LOCK_MINUTES', '0.02');
    await setSysConfig(server, 'REST_LOGIN_FAILURE_WINDOW_MINUTES', '0.02');
    for (let i = 0; i < 5; i++) assertUnauthorized(await wrong());
    assertError(await loginRequest(server), 429);
    await sleep(1500);
    const r = await loginRequest(server);
    assert.equal(r.status, 200, r.text);
    const u = await user();
    assert.equal(u.islocked, 'N');
    assert.equal(Number(u.failedlogincount), 0);
  });

  it('a success before the limit resets the count', async () => {
    for (let i = 0; i < 3; i++) assertUnauthorized(await wrong());
    assert.equal((await loginRequest(server)).status, 200);
    for (let i = 0; i < 3; i++) assertUnauthorized(await wrong());
    assert.equal((await loginRequest(server)).status, 200);
    assert.equal((await user()).islocked, 'N');
  });

  it('answer 429 for every login from an address with too many failures', async () => {
    await setSysConfig(server, 'REST_LOGIN_MAX_FAILURES_PER_ADDRESS', '3');
    assertUnauthorized(await wrong('NoSuchUser'));
    assertUnauthorized(await wrong('SomebodyElse'));
    assertUnauthorized(await wrong('GardenUser'));
    assertError(await loginRequest(server), 429);
  });

  it('take about the same time for an unknown user and a wrong password', async () => {
    // Enough tries for a steady fastest time on a busy machine, none of them locking the account.
    await setSysConfig(server, 'REST_LOGIN_MAX_FAILED_ATTEMPTS', '100');
    await setSysConfig(server, 'REST_LOGIN_FAILURE_MIN_RESPONSE_MS', '400');
    const time = async (userName: string) => {
      const t = performance.now();
      assertUnauthorized(await wrong(userName));
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i++) {
      known.push(await time('GardenAdmin'));
      unknown.push(await time(`Nobody${i}`));
    }
    // The fastest of several tries: load on the machine only ever adds time.
    const fastest = (xs: number[]) => Math.min(...xs);
    assert.ok(Math.abs(fastest(known) - fastest(unknown)) < 40, `known ${known.map(Math.round)} ms, unknown ${unknown.map(Math.round)} ms`);
  });

  it('a password reset ends the lock', async () => {
    for (let i = 0; i < 5; i++) assertUnauthorized(await wrong());
    assert.equal((await user()).islocked, 'Y');
    const email = 'locked.admin@reset.test';
    await server.services.db.query(`UPDATE ad_user SET email = $1 WHERE name = 'GardenAdmin'`, [email]);
    assert.equal((await server.request('POST', '/api/v1/auth/password-reset/request', { body: { email } })).status, 200);
    const mail = await lastMail(server, email);
    const v = await server.request('POST', '/api/v1/auth/password-reset/verify', { body: { email, code: mail!.code } });
    assert.equal(v.status, 200, v.text);
    const c = await server.request('POST', '/api/v1/auth/password-reset/complete', { body: { verifiedToken: v.body.verifiedToken, newPassword: 'Unlocked-2026' } });
    assert.equal(c.status, 200, c.text);
    assert.equal((await user()).islocked, 'N');
    const r = await loginRequest(server, { password: 'Unlocked-2026' });
    assert.equal(r.status, 200, r.text);
  });
});
