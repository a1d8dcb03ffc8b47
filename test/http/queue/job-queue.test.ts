import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { openDatabase } from '../../../src/db/open.js';
import type { Db } from '../../../src/db/types.js';
import { ManualClock } from '../../../src/queue/clock.js';
import { JobQueue, QueueFullError } from '../../../src/queue/job-queue.js';
import { scheduleRetry } from '../../../src/queue/retry.js';
import { cacheDir, freshDatabase, serverUrl, type FreshDatabase } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';

const log = pino({ level: 'silent' });
const MIN = 60_000;

describe('the durable work queue', () => {
  let fresh: FreshDatabase;
  let db: Db;
  let other: Db;
  before(async () => {
    fresh = await freshDatabase();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    // A second instance: its own pool on PostgreSQL; PGlite has one connection in one process, so there the same one.
    other = fresh.databaseUrl ? await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir }) : db;
    await db.exec('CREATE TABLE test_done (item_id bigint NOT NULL, owner text NOT NULL, attempt int NOT NULL)');
  });
  after(async () => {
    if (other !== db) await other.close();
    await db.close();
    await fresh.drop();
  });
  beforeEach(async () => {
    await db.exec('DELETE FROM test_done; DELETE FROM dictum.queue_item');
  });

  const done = async (): Promise<{ item_id: number; owner: string; attempt: number }[]> =>
    (await db.query<{ item_id: string; owner: string; attempt: number }>('SELECT item_id, owner, attempt FROM test_done ORDER BY item_id')).rows.map((r) => ({ ...r, item_id: Number(r.item_id) }));

  it('runs an item once and keeps its result', async () => {
    const q = new JobQueue({ db, log, clock: new ManualClock() });
    q.register<{ n: number }>('double', async (item) => ({ twice: item.payload.n * 2 }), { concurrency: 2 });
    const id = await q.enqueue(db, 'double', { n: 21 });
    assert.equal((await q.state(id))?.state, 'pending');
    assert.equal(await q.drain(), 1);
    const s = await q.state(id);
    assert.equal(s?.state, 'done');
    assert.deepEqual(s?.result, { twice: 42 });
    assert.equal(s?.attempts, 1);
    assert.equal(await q.drain(), 0, 'nothing runs twice');
  });

  it('does not run an item before its time', async () => {
    const clock = new ManualClock();
    const q = new JobQueue({ db, log, clock });
    q.register('later', async () => 'ran', { concurrency: 1 });
    const id = await q.enqueue(db, 'later', {}, { runAt: new Date(clock.now().getTime() + 5 * MIN) });
    assert.equal(await q.drain(), 0);
    clock.advance(5 * MIN);
    assert.equal(await q.drain(), 1);
    assert.equal((await q.state(id))?.result, 'ran');
  });

  it('retries a failed item on its schedule and records the last error', async () => {
    const clock = new ManualClock();
    const q = new JobQueue({ db, log, clock });
    let calls = 0;
    q.register(
      'flaky',
      async () => {
        calls++;
        if (calls < 3) throw new Error(`failure ${calls}`);
        return 'third time';
      },
      { concurrency: 1, maxAttempts: 5, retry: scheduleRetry([1000, 60_000]) },
    );
    const id = await q.enqueue(db, 'flaky', {});
    await q.drain();
    let s = await q.state(id);
    assert.equal(s?.state, 'pending');
    assert.equal(s?.error, 'failure 1');
    assert.equal(s?.runAt.getTime(), clock.now().getTime() + 1000);
    clock.advance(1000);
    await q.drain();
    s = await q.state(id);
    assert.equal(s?.error, 'failure 2');
    clock.advance(59_999);
    assert.equal(await q.drain(), 0, 'not due yet');
    clock.advance(1);
    await q.drain();
    s = await q.state(id);
    assert.equal(s?.state, 'done');
    assert.equal(s?.attempts, 3);
    assert.equal(s?.result, 'third time');
  });

  it('marks an item failed when its retries are used up', async () => {
    const q = new JobQueue({ db, log, clock: new ManualClock() });
    q.register('broken', async () => { throw new Error('always'); }, { concurrency: 1, maxAttempts: 1, retry: scheduleRetry([1]) });
    const id = await q.enqueue(db, 'broken', {});
    await q.drain();
    const s = await q.state(id);
    assert.equal(s?.state, 'failed');
    assert.equal(s?.error, 'always');
  });

  it('loses nothing when an instance dies holding an item: another takes it once its lease expires', async () => {
    const clock = new ManualClock();
    const handler = (owner: string) => async (item: { id: number; attempt: number }, ctx: { complete: (fn: (tx: Db | any) => Promise<unknown>) => Promise<unknown> }) =>
      ctx.complete(async (tx) => {
        await tx.query('INSERT INTO test_done (item_id, owner, attempt) VALUES ($1, $2, $3)', [item.id, owner, item.attempt]);
        return owner;
      });
    const dead = new JobQueue({ db, log, clock, owner: 'dead' });
    dead.register('work', handler('dead'), { concurrency: 1, leaseMs: MIN });
    const alive = new JobQueue({ db: other, log, clock, owner: 'alive' });
    alive.register('work', handler('alive'), { concurrency: 1, leaseMs: MIN });
    const id = await dead.enqueue(db, 'work', {});
    assert.equal((await dead.claim('work', 1)).length, 1, 'the first instance holds the item, then dies');
    assert.equal(await alive.drain(), 0, 'a live lease is respected');
    clock.advance(MIN);
    assert.equal(await alive.drain(), 1);
    assert.deepEqual(await done(), [{ item_id: id, owner: 'alive', attempt: 2 }]);
    const s = await alive.state(id);
    assert.equal(s?.state, 'done');
    assert.equal(s?.result, 'alive');
  });

  it('lets only one of two claims complete an item when a slow instance outlives its lease', async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let slowOutcome: unknown;
    const slow = new JobQueue({ db, log, clock, owner: 'slow' });
    // A long lease: its renewal timer never fires during the test, so only the clock decides.
    slow.register(
      'work',
      async (item, ctx) => {
        await gate;
        try {
          await ctx.complete(async (tx) => tx.query('INSERT INTO test_done (item_id, owner, attempt) VALUES ($1, $2, $3)', [item.id, 'slow', item.attempt]));
        } catch (e) {
          slowOutcome = e;
          throw e;
        }
      },
      { concurrency: 1, leaseMs: 10 * MIN },
    );
    const fast = new JobQueue({ db: other, log, clock, owner: 'fast' });
    fast.register(
      'work',
      async (item, ctx) => ctx.complete(async (tx) => tx.query('INSERT INTO test_done (item_id, owner, attempt) VALUES ($1, $2, $3)', [item.id, 'fast', item.attempt])),
      { concurrency: 1, leaseMs: 10 * MIN },
    );
    const id = await slow.enqueue(db, 'work', {});
    const slowRun = slow.drain();
    await sleep(50);
    clock.advance(10 * MIN);
    assert.equal(await fast.drain(), 1);
    release();
    await slowRun;
    assert.equal((slowOutcome as Error)?.name, 'Error');
    assert.match(String((slowOutcome as Error).message), /lease .* was lost/);
    assert.deepEqual(await done(), [{ item_id: id, owner: 'fast', attempt: 2 }]);
    assert.equal((await fast.state(id))?.state, 'done');
  });

  it('gives up on an item whose last attempt crashed, and says so', async () => {
    const clock = new ManualClock();
    const a = new JobQueue({ db, log, clock });
    a.register('work', async () => 'x', { concurrency: 1, leaseMs: 1000, maxAttempts: 1 });
    const id = await a.enqueue(db, 'work', {});
    await a.claim('work', 1);
    clock.advance(1000);
    await a.drain();
    const s = await a.state(id);
    assert.equal(s?.state, 'failed');
    assert.match(s?.error ?? '', /gave up after 1 attempts/);
  });

  it('refuses new items beyond the queue limit of a kind', async () => {
    const q = new JobQueue({ db, log, clock: new ManualClock() });
    q.register('bounded', async () => null, { concurrency: 1, maxQueued: 2 });
    await q.enqueue(db, 'bounded', {});
    await q.enqueue(db, 'bounded', {});
    await assert.rejects(q.enqueue(db, 'bounded', {}), QueueFullError);
  });

  it('hands unfinished items back when it stops past its grace period', async () => {
    const q = new JobQueue({ db, log, owner: 'stopping', pollMs: 20 });
    let started = false;
    q.register(
      'hang',
      async (_item, ctx) => {
        started = true;
        await new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
      },
      { concurrency: 1 },
    );
    const id = await q.enqueue(db, 'hang', {});
    await q.start();
    for (let i = 0; i < 150 && !started; i++) await sleep(20);
    assert.ok(started, 'the worker picked the item up without being asked');
    await q.stop(50);
    const s = await q.state(id);
    assert.equal(s?.state, 'pending');
    assert.equal(s?.leaseOwner, null);
  });

  it('shares items between two running instances without running any twice', async () => {
    const total = 40;
    const make = (d: Db, owner: string): JobQueue => {
      const q = new JobQueue({ db: d, log, owner, pollMs: 50 });
      q.register(
        'share',
        async (item, ctx) => {
          await sleep(5);
          return ctx.complete(async (tx) => tx.query('INSERT INTO test_done (item_id, owner, attempt) VALUES ($1, $2, $3)', [item.id, owner, item.attempt]));
        },
        { concurrency: 3, maxConcurrency: 4 },
      );
      return q;
    };
    const a = make(db, 'a');
    const b = make(other, 'b');
    await a.start();
    await b.start();
    try {
      await db.tx(async (tx) => {
        for (let i = 0; i < total; i++) await a.enqueue(tx, 'share', { i });
      });
      for (let i = 0; i < 300; i++) {
        if ((await done()).length >= total) break;
        await sleep(20);
      }
    } finally {
      await a.stop(2000);
      await b.stop(2000);
    }
    const rows = await done();
    assert.equal(rows.length, total);
    assert.equal(new Set(rows.map((r) => r.item_id)).size, total, 'no item completed twice');
    assert.ok(rows.every((r) => r.attempt === 1));
    const { rows: states } = await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM dictum.queue_item GROUP BY state`);
    assert.deepEqual(states, [{ state: 'done', n: total }]);
    if (serverUrl) assert.deepEqual(new Set(rows.map((r) => r.owner)), new Set(['a', 'b']), 'both instances took part');
  });
});
