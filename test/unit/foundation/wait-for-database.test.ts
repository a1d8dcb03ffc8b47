import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isNotUpYet, untilDatabaseIsUp } from '../../../src/db/wait-for-database.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A clock that the waits move forward, so that the test takes no time. */
function fakeTime() {
  let t = 0;
  const waits: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (waits.push(ms), (t += ms)), waits };
}

describe('waiting for the database at start', () => {
  it('tells a server that is not up yet from other failures', () => {
    assert.equal(isNotUpYet(refused()), true);
    assert.equal(isNotUpYet(Object.assign(new Error('the database system is starting up'), { code: '57P03' })), true);
    assert.equal(isNotUpYet(new AggregateError([refused(), refused()], 'connect failed')), true);
    assert.equal(isNotUpYet(Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01' })), false);
    assert.equal(isNotUpYet(Object.assign(new Error('database "nope" does not exist'), { code: '3D000' })), false);
  });

  it('retries with growing waits and a log line each until the database answers', async () => {
    const time = fakeTime();
    const lines: string[] = [];
    let calls = 0;
    const db = await untilDatabaseIsUp(
      async () => {
        calls++;
        if (calls < 5) throw refused();
        return 'open';
      },
      { waitMs: 60_000, log: { warn: (_o: object, msg: string) => void lines.push(msg) } as never, ...time },
    );
    assert.equal(db, 'open');
    assert.deepEqual(time.waits, [500, 1000, 2000, 4000]);
    assert.equal(lines.length, 4);
    assert.match(lines[0]!, /^the database is not reachable yet \(ECONNREFUSED\); retrying in 0\.5 s$/);
  });

  it('gives up with the last error when the time is up, and fails at once on other errors', async () => {
    const time = fakeTime();
    await assert.rejects(untilDatabaseIsUp(async () => { throw refused(); }, { waitMs: 8_000, ...time }), /ECONNREFUSED/);
    assert.deepEqual(time.waits, [500, 1000, 2000, 4000, 500]);
    const once = fakeTime();
    await assert.rejects(untilDatabaseIsUp(async () => { throw Object.assign(new Error('bad password'), { code: '28P01' }); }, { waitMs: 60_000, ...once }), /bad password/);
    assert.deepEqual(once.waits, []);
    const none = fakeTime();
    await assert.rejects(untilDatabaseIsUp(async () => { throw refused(); }, { waitMs: 0, ...none }), /ECONNREFUSED/);
    assert.deepEqual(none.waits, []);
  });
});
