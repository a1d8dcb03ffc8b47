import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEUTRAL_SUMMARY, VERIFY_FAILED } from '../../../src/auth/password-reset.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ADMIN, FULL, assertError, assertNoSecrets, assertUnauthorized, lastMail, loginPair, loginRequest, probe, setSysConfig } from './auth-helpers.js';

const EMAIL = 'garden.admin@reset.test';
const PATH = '/api/v1/auth/password-reset';

describe('password reset', () => {
  let server: TestServer;
  const post = (step: string, body: unknown, headers: Record<string, string> = {}) => server.request('POST', `${PATH}/${step}`, { body, headers });
  const requestCode = (email = EMAIL, language?: string) => post('request', language ? { email, language } : { email });

  /** Request, read the code from the outbox, verify: the verifiedToken. */
  async function verifiedToken(): Promise<string> {
    assert.equal((await requestCode()).status, 200);
    const mail = await lastMail(server, EMAIL);
    assert.ok(mail?.code);
    const v = await post('verify', { email: EMAIL, code: mail.code });
    assert.equal(v.status, 200, v.text);
    return v.body.verifiedToken as string;
  }

  before(async () => {
    server = await startTestServer();
    await server.services.db.query(`UPDATE ad_user SET email = $1 WHERE name = 'GardenAdmin'`, [EMAIL]);
    await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR', '1000');
    await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS', '1000');
    // No padding of the answers but where their time is the subject (the last case, and
    // test/http/proof/secret-answers): a padded answer only adds waiting to the cases about content.
    await setSysConfig(server, 'PASSWORD_RESET_MIN_RESPONSE_MS', '0');
  });
  after(async () => {
    await server.close();
  });

  it('request-code answers the same neutral 200 whether or not the address has an account', async () => {
    const known = await requestCode();
    const unknown = await requestCode('nobody@nowhere.test');
    assert.equal(known.status, 200, known.text);
    assert.equal(unknown.status, 200, unknown.text);
    assert.deepEqual(known.body, { summary: NEUTRAL_SUMMARY });
    assert.deepEqual(unknown.body, known.body);
    assert.equal(known.headers.get('content-type'), unknown.headers.get('content-type'));
    const mail = await lastMail(server, EMAIL);
    assert.ok(mail, 'the mail is in the development outbox');
    assert.match(mail.code, /^\d{6}$/);
    assert.equal(mail.language, 'en_US');
    assert.equal(await lastMail(server, 'nobody@nowhere.test'), null);
  });

  it('request-code needs no Authorization header and ignores a bad one', async () => {
    assert.equal((await requestCode(EMAIL)).status, 200);
    assert.equal((await post('request', { email: EMAIL }, { authorization: 'Bearer a.b.c' })).status, 200);
  });

  it('request-code answers 400 for a missing or blank e-mail address', async () => {
    assertError(await post('request', {}), 400, /email/);
    assertError(await post('request', { email: '   ' }), 400, /email/);
    assertError(await post('request', { email: 42 }), 400, /email/);
  });

  it('stores the code hashed, never in clear', async () => {
    await requestCode();
    const mail = await lastMail(server, EMAIL);
    const { rows } = await server.services.db.query<{ codehash: string }>(`SELECT codehash FROM rest_passwordreset WHERE email = $1 AND isactive = 'Y'`, [EMAIL]);
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.codehash, /^\$argon2id\$/);
    assert.ok(!rows[0]!.codehash.includes(mail!.code));
  });

  it('picks the mail template by language', async () => {
    await requestCode(EMAIL, 'de_DE');
    const mail = await lastMail(server, EMAIL);
    assert.equal(mail!.language, 'de_DE');
    assert.match(mail!.subject, /Passwort/);
    assert.match(mail!.body, new RegExp(mail!.code));
  });

  it('verify answers one uniform 400 for missing fields, a wrong code and an unknown address', async () => {
    await requestCode();
    const wrong = await post('verify', { email: EMAIL, code: '000000x' });
    assertError(wrong, 400);
    assert.equal(wrong.body.detail, VERIFY_FAILED);
    for (const body of [{ email: EMAIL }, { code: '123456' }, {}, { email: 'nobody@nowhere.test', code: '123456' }, { email: EMAIL, code: 123456 }]) {
      const r = await post('verify', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, wrong.body, JSON.stringify(body));
    }
    assertError(await post('verify', 'garbage'), 400);
  });

  it('verify refuses an expired code with the same 400', async () => {
    await requestCode();
    const mail = await lastMail(server, EMAIL);
    await server.services.db.query(`UPDATE rest_passwordreset SET expiresat = $2 WHERE email = $1 AND isactive = 'Y'`, [EMAIL, new Date(Date.now() - 1000).toISOString()]);
    const r = await post('verify', { email: EMAIL, code: mail!.code });
    assertError(r, 400);
    assert.equal(r.body.detail, VERIFY_FAILED);
  });

  it('locks a code after the configured number of wrong tries, then the right code fails too', async () => {
    await setSysConfig(server, 'PASSWORD_RESET_MAX_ATTEMPTS', '3');
    try {
      await requestCode();
      const mail = await lastMail(server, EMAIL);
      const wrongCode = mail!.code === '111111' ? '222222' : '111111';
      for (let i = 0; i < 3; i++) assert.equal((await post('verify', { email: EMAIL, code: wrongCode })).status, 400);
      const r = await post('verify', { email: EMAIL, code: mail!.code });
      assertError(r, 400);
      assert.equal(r.body.detail, VERIFY_FAILED);
      const { rows } = await server.services.db.query<{ islocked: string; attempts: number }>(`SELECT islocked, attempts FROM rest_passwordreset WHERE email = $1 AND isactive = 'Y'`, [EMAIL]);
      assert.equal(rows[0]!.islocked, 'Y');
      assert.equal(Number(rows[0]!.attempts), 3);
    } finally {
      await setSysConfig(server, 'PASSWORD_RESET_MAX_ATTEMPTS', '5');
    }
  });

  it('a newer request invalidates the earlier code', async () => {
    await requestCode();
    const first = await lastMail(server, EMAIL);
    await requestCode();
    const second = await lastMail(server, EMAIL);
    if (first!.code !== second!.code) assertError(await post('verify', { email: EMAIL, code: first!.code }), 400);
    assert.equal((await post('verify', { email: EMAIL, code: second!.code })).status, 200);
  });

  it('the code works once', async () => {
    await requestCode();
    const mail = await lastMail(server, EMAIL);
    assert.equal((await post('verify', { email: EMAIL, code: mail!.code })).status, 200);
    assertError(await post('verify', { email: EMAIL, code: mail!.code }), 400);
  });

  it('complete answers 400 for missing fields, an unknown token and a policy violation (the token stays usable)', async () => {
    const token = await verifiedToken();
    assertError(await post('complete', { verifiedToken: token }), 400, /newPassword/);
    assertError(await post('complete', { newPassword: 'Tulips-2026' }), 400, /verifiedToken/);
    assertError(await post('complete', { verifiedToken: 'not-a-token', newPassword: 'Tulips-2026' }), 400, /verifiedToken/);
    const weak = await post('complete', { verifiedToken: token, newPassword: 'short' });
    assertError(weak, 400, /at least 8 characters/);
    assert.equal(weak.body.title, 'Password policy violated');
    assertError(await post('complete', { verifiedToken: token, newPassword: 'GardenAdmin' }), 400, /user name/);
    const { rows } = await server.services.db.query<{ isused: string }>(`SELECT isused FROM rest_passwordreset WHERE email = $1 AND verifiedtokenhash IS NOT NULL AND isactive = 'Y'`, [EMAIL]);
    assert.equal(rows[0]?.isused, 'N');
  });

  it('end to end: the password changes, every session and refresh family ends, the token is single use', async () => {
    const before = await loginPair(server);
    const step = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
    assert.equal(step.status, 200);
    const token = await verifiedToken();
    // The verifiedToken is not in the table, only its hash.
    const { rows: stored } = await server.services.db.query<{ verifiedtokenhash: string }>(`SELECT verifiedtokenhash FROM rest_passwordreset WHERE verifiedtokenhash IS NOT NULL`);
    assert.ok(stored.every((r) => r.verifiedtokenhash !== token));

    const done = await post('complete', { verifiedToken: token, newPassword: 'Tulips-2026' });
    assert.equal(done.status, 200, done.text);
    assert.equal(typeof done.body.summary, 'string');
    assertNoSecrets(done.text);

    assertUnauthorized(await probe(server, before.token), /ended/);
    assertUnauthorized(await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: before.refresh_token } }));
    assertUnauthorized(await server.request('GET', '/api/v1/auth/roles?client=11', { token: step.body.token }), /password was changed/);
    assertUnauthorized(await loginRequest(server));
    const fresh = await loginRequest(server, { password: 'Tulips-2026', parameters: FULL });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await probe(server, fresh.body.token)).status, 200);
    assertError(await post('complete', { verifiedToken: token, newPassword: 'Tulips-2027' }), 400, /verifiedToken/);
    const { rows } = await server.services.db.query<{ password: string; datepasswordchanged: unknown }>(`SELECT password, datepasswordchanged FROM ad_user WHERE name = 'GardenAdmin'`);
    assert.match(rows[0]!.password, /^\$argon2id\$/);
    assert.ok(rows[0]!.datepasswordchanged);
    const { rows: causes } = await server.services.db.query<{ cause: string }>(
      `SELECT DISTINCT rest_revokecause AS cause FROM rest_refreshtoken WHERE ad_user_id = $1 AND revokedat IS NOT NULL AND rest_revokecause = 'P'`,
      [before.body.userId],
    );
    assert.equal(causes.length, 1);
  });

  it('the verifiedToken expires', async () => {
    const token = await verifiedToken();
    await server.services.db.query(`UPDATE rest_passwordreset SET verifiedexpiresat = $1 WHERE verifiedtokenhash IS NOT NULL`, [new Date(Date.now() - 1000).toISOString()]);
    assertError(await post('complete', { verifiedToken: token, newPassword: 'Tulips-2028' }), 400, /verifiedToken/);
  });

  it('answers 429 beyond the request quota of an address, known or not', async () => {
    await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR', '2');
    try {
      for (const email of ['quota.known@reset.test', 'quota.unknown@reset.test']) {
        if (email.startsWith('quota.known')) await server.services.db.query(`UPDATE ad_user SET email = $1 WHERE name = 'GardenUser'`, [email]);
        assert.equal((await requestCode(email)).status, 200);
        assert.equal((await requestCode(email)).status, 200);
        const r = await requestCode(email);
        assertError(r, 429);
        assert.ok(Number(r.headers.get('retry-after')) > 0);
      }
    } finally {
      await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR', '1000');
    }
  });

  it('answers 429 beyond the request quota of a remote address', async () => {
    await server.services.auth.resetRequests.reset('reset:127.0.0.1');
    await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS', '2');
    try {
      assert.equal((await requestCode('a1@reset.test')).status, 200);
      assert.equal((await requestCode('a2@reset.test')).status, 200);
      assertError(await requestCode('a3@reset.test'), 429);
    } finally {
      await setSysConfig(server, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS', '1000');
      await server.services.auth.resetRequests.reset('reset:127.0.0.1');
    }
  });

  it('takes about the same time whether or not the address has an account', async () => {
    await setSysConfig(server, 'PASSWORD_RESET_MIN_RESPONSE_MS', '400');
    const time = async (email: string) => {
      const t = performance.now();
      const r = await requestCode(email);
      assert.equal(r.status, 200);
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(EMAIL));
      unknown.push(await time(`nobody${i}@nowhere.test`));
    }
    // The fastest of several tries: load on the machine only ever adds time.
    const fastest = (xs: number[]) => Math.min(...xs);
    assert.ok(fastest(known) >= 140 && fastest(unknown) >= 140, 'both are padded to the minimum answer time');
    assert.ok(Math.abs(fastest(known) - fastest(unknown)) < 60, `known ${known.map(Math.round)} ms, unknown ${unknown.map(Math.round)} ms`);
  });
});
