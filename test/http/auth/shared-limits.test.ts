import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/server.js';
import { AttemptWindow } from '../../../src/auth/attempt-window.js';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { setSysConfig } from './auth-helpers.js';

const post = async (url: string, path: string, body: unknown): Promise<{ status: number; body: any }> => {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};
const wrongLogin = (url: string) => post(url, '/api/v1/auth/tokens', { userName: 'NoSuchUser', password: 'wrong-password' });
const resetRequest = (url: string, n: number) => post(url, '/api/v1/auth/password-reset/request', { email: `shared${n}@limits.test` });

describe('attempts counted in the database', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('count per key in a sliding window, apart per kind, without storing the key itself', async () => {
    const a = new AttemptWindow(server.services.db, 'test');
    const other = new AttemptWindow(server.services.db, 'other');
    await a.add(['user:x', 'addr:10.0.0.1'], 1_000);
    await a.add(['user:x'], 2_000);
    assert.equal(await a.count('user:x', 5_000, 3_000), 2);
    assert.equal(await a.count('user:x', 1_500, 3_000), 1);
    assert.equal(await a.count('addr:10.0.0.1', 5_000, 3_000), 1);
    assert.equal(await other.count('user:x', 5_000, 3_000), 0);
    const { rows } = await server.services.db.query<{ key_hash: string }>('SELECT key_hash FROM dictum.auth_attempt');
    assert.ok(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash)), 'hashes only');
    await a.reset('user:x');
    assert.equal(await a.count('user:x', 5_000, 3_000), 0);
    assert.equal(await a.count('addr:10.0.0.1', 5_000, 3_000), 1);
    assert.equal(await a.purge(500, 2_000), 1);
    assert.equal(await a.count('addr:10.0.0.1', 5_000, 3_000), 0);
  });
});

describe('login and password reset limits shared by two instances on one database', () => {
  let a: TestServer;
  let b: RunningServer | null = null;
  before(async () => {
    a = await startTestServer();
    await setSysConfig(a, 'REST_LOGIN_MAX_FAILED_ATTEMPTS', '4');
    await setSysConfig(a, 'REST_LOGIN_MAX_FAILURES_PER_ADDRESS', '1000');
    await setSysConfig(a, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS', '2');
    await setSysConfig(a, 'PASSWORD_RESET_MIN_RESPONSE_MS', '0');
    // Embedded PGlite is one process: the second instance needs a PostgreSQL server.
    if (a.services.config.databaseUrl) b = await startSecondInstance(a);
  });
  after(async () => {
    await b?.close();
    await a.close();
  });

  it('allow as many failed logins of a name over both instances as one instance allows', async (t) => {
    if (!b) return t.skip('two instances need a PostgreSQL server (DATABASE_URL)');
    assert.equal((await wrongLogin(a.url)).status, 401);
    assert.equal((await wrongLogin(b.url)).status, 401);
    assert.equal((await wrongLogin(a.url)).status, 401);
    assert.equal((await wrongLogin(b.url)).status, 401);
    // Four failures in all: each instance saw only two, and both refuse now.
    const refusedA = await wrongLogin(a.url);
    const refusedB = await wrongLogin(b.url);
    assert.equal(refusedA.status, 429);
    assert.equal(refusedB.status, 429);
    assert.equal(refusedB.body.title, 'Too Many Requests');
  });

  it('allow as many password reset requests of an address over both instances as one instance allows', async (t) => {
    if (!b) return t.skip('two instances need a PostgreSQL server (DATABASE_URL)');
    assert.equal((await resetRequest(a.url, 1)).status, 200);
    assert.equal((await resetRequest(b.url, 2)).status, 200);
    assert.equal((await resetRequest(b.url, 3)).status, 429);
    assert.equal((await resetRequest(a.url, 4)).status, 429);
  });
});
