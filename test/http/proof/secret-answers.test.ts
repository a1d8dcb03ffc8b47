/**
 * Uniform answers for secrets: a failed login of a known user and of an unknown one, and the
 * password-reset request and verify for a known and an unknown e-mail address, answer with the
 * same status, headers and body, and in times a client cannot tell apart. The two kinds are sent
 * in interleaved pairs (in a random order within each pair), so a busy machine slows both alike;
 * the paired differences' trimmed mean must lie, with 95% confidence, within 5 ms or 10% of the
 * answer time of zero (PROOF_TIMING_PAIRS pairs per comparison).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertRow } from '../../../src/auth/util.js';
import { startTestServer, type TestResponse, type TestServer } from '../../helpers/server.js';
import { compareTimes, seededRandom, type Comparison } from './timing-statistics.js';

// 40 pairs put the 95% interval of the difference within about a millisecond of zero, against a
// margin of 40 ms at the padded answer time of 400 ms; more pairs only add waiting.
const PAIRS = Number(process.env.PROOF_TIMING_PAIRS ?? 40);
const SEED = Number(process.env.PROOF_SEED ?? 20261128);
const KNOWN_EMAIL = 'proof.admin@gardenworld.com';
const UNKNOWN_EMAIL = 'nobody.here@gardenworld.com';

/** Headers that differ between any two answers (time, request id, connection). */
const VARYING_HEADERS = new Set(['date', 'x-request-id', 'request-id', 'connection', 'keep-alive']);

function shape(r: TestResponse): string {
  const headers = [...r.headers.entries()].filter(([k]) => !VARYING_HEADERS.has(k)).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({ status: r.status, headers, body: r.text });
}

describe('uniform answers for secrets', () => {
  let server: TestServer;
  const results: [string, Comparison][] = [];
  const setConfig = async (name: string, value: string) => {
    await server.services.db.query('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = 0', [name]);
    await insertRow(server.services.db, 'AD_SysConfig', { name, value, configurationlevel: 'S', entitytype: 'U' }, { clientId: 0 });
  };

  before(async () => {
    server = await startTestServer();
    // The limits that would end a few hundred tries early are lifted: the answers compared are the
    // failures themselves, not 429s (the limits have tests of their own in test/http/auth/).
    for (const name of ['REST_LOGIN_MAX_FAILED_ATTEMPTS', 'REST_LOGIN_MAX_FAILURES_PER_ADDRESS', 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR', 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS']) await setConfig(name, '0');
    await setConfig('PASSWORD_RESET_MAX_ATTEMPTS', '1000000');
    server.services.sysConfig.clear();
    await server.services.db.query(`UPDATE ad_user SET email = $1 WHERE name = 'GardenAdmin'`, [KNOWN_EMAIL]);
  });
  after(async () => {
    if (results.length) {
      const line = (n: string, c: Comparison) => `${n.padEnd(34)} ${String(c.pairs).padStart(5)} ${c.medianA.toFixed(1).padStart(8)} ${c.medianB.toFixed(1).padStart(8)} ${c.difference.toFixed(2).padStart(8)} ${`[${c.interval[0].toFixed(2)}, ${c.interval[1].toFixed(2)}]`.padStart(18)} ${c.margin.toFixed(1).padStart(7)} ${c.mannWhitneyP.toFixed(3).padStart(7)}`;
      console.log(`answer times, known vs unknown (ms)\n${'answer'.padEnd(34)} ${'pairs'.padStart(5)} ${'known'.padStart(8)} ${'unknown'.padStart(8)} ${'diff'.padStart(8)} ${'95% interval'.padStart(18)} ${'margin'.padStart(7)} ${'MW p'.padStart(7)}\n${results.map(([n, c]) => line(n, c)).join('\n')}`);
    }
    await server?.close();
  });

  /** Sends PAIRS pairs of requests, each pair in a random order; returns both kinds' times and answers. */
  async function pairs(known: () => Promise<TestResponse>, unknown: () => Promise<TestResponse>, seed: number) {
    const random = seededRandom(seed);
    const times: [number[], number[]] = [[], []];
    const shapes: [Set<string>, Set<string>] = [new Set(), new Set()];
    const timed = async (send: () => Promise<TestResponse>, kind: 0 | 1) => {
      const start = performance.now();
      const r = await send();
      times[kind].push(performance.now() - start);
      shapes[kind].add(shape(r));
    };
    // Warm-up: the first requests of each kind pay for caches and compiled code.
    for (let i = 0; i < 5; i++) await Promise.all([known(), unknown()].map((p) => p.catch(() => undefined)));
    for (let i = 0; i < PAIRS; i++) {
      if (random() < 0.5) {
        await timed(known, 0);
        await timed(unknown, 1);
      } else {
        await timed(unknown, 1);
        await timed(known, 0);
      }
    }
    return { times, shapes };
  }

  const compare = (name: string, times: [number[], number[]], seed: number) => {
    const c = compareTimes(times[0], times[1], seed);
    results.push([name, c]);
    assert.ok(c.indistinguishable, `${name}: known - unknown = ${c.difference.toFixed(2)} ms, 95% interval [${c.interval[0].toFixed(2)}, ${c.interval[1].toFixed(2)}] not within ±${c.margin.toFixed(1)} ms`);
  };

  const request = (email: string) => () => server.request('POST', '/api/v1/auth/password-reset/request', { body: { email } });
  const verify = (email: string) => () => server.request('POST', '/api/v1/auth/password-reset/verify', { body: { email, code: '000000' } });
  /**
   * The three comparisons run side by side (each one's pairs in sequence), which keeps the suite's
   * time down; a pair's two requests still meet the same load.
   */
  let runs: Promise<Awaited<ReturnType<typeof pairs>>[]>;
  before(() => {
    runs = Promise.all([pairs(loginWith('GardenAdmin'), loginWith('NoSuchUser'), SEED), pairs(request(KNOWN_EMAIL), request(UNKNOWN_EMAIL), SEED + 1), pairs(verify(KNOWN_EMAIL), verify(UNKNOWN_EMAIL), SEED + 2)]);
  });

  const loginWith = (userName: string) => () =>
    server.request('POST', '/api/v1/auth/tokens', { body: { userName, password: 'not-the-password', parameters: { clientId: 11, roleId: 102, organizationId: 11 } } });

  it('answers a wrong password of a known user as it answers an unknown user', async () => {
    const { times, shapes } = (await runs)[0]!;
    assert.equal(shapes[0].size, 1, 'one answer for every failed login of the known user');
    assert.deepEqual([...shapes[0]], [...shapes[1]], 'the same status, headers and body for both');
    assert.equal(JSON.parse([...shapes[0]][0]!).status, 401);
    compare('login, wrong password', times, SEED);
  });

  it('answers a reset request for a known address as for an unknown one', async () => {
    const { times, shapes } = (await runs)[1]!;
    assert.equal(shapes[0].size, 1);
    assert.deepEqual([...shapes[0]], [...shapes[1]]);
    assert.equal(JSON.parse([...shapes[0]][0]!).status, 200);
    compare('password reset request', times, SEED + 1);
  });

  it('answers a wrong reset code for a known address as for an unknown one', async () => {
    const { times, shapes } = (await runs)[2]!;
    assert.equal(shapes[0].size, 1);
    assert.deepEqual([...shapes[0]], [...shapes[1]]);
    assert.equal(JSON.parse([...shapes[0]][0]!).status, 400);
    compare('password reset verify, wrong code', times, SEED + 2);
  });

  it('would tell apart answers slower by a fraction of a password hash (the comparison can fail)', () => {
    // The same interleaved design on times with a known shift: the method must see it.
    const random = seededRandom(SEED + 3);
    const base = Array.from({ length: PAIRS }, () => 60 + random() * 30);
    const noisy = (v: number) => v + (random() - 0.5) * 20 + (random() < 0.05 ? random() * 200 : 0);
    const slower = base.map((v) => noisy(v) + 20);
    const same = base.map(noisy);
    assert.equal(compareTimes(slower, base.map(noisy), SEED).indistinguishable, false, 'a 20 ms difference is seen');
    assert.equal(compareTimes(same, base.map(noisy), SEED).indistinguishable, true, 'no difference is not flagged');
  });
});
