import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { openDatabase } from '../../../src/db/open.js';
import type { Db } from '../../../src/db/types.js';
import { JobQueue } from '../../../src/queue/job-queue.js';
import { CancelledError } from '../../../src/queue/queue-control.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';
import { sleep } from '../../helpers/wait.js';

const log = pino({ level: 'silent' });

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(25);
  }
  assert.fail(what);
}

describe('cancelling queued work and reporting its progress', () => {
  let fresh: FreshDatabase;
  let db: Db;
  let other: Db;
  const queues: JobQueue[] = [];
  before(async () => {
    fresh = await freshDatabase();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    other = fresh.databaseUrl ? await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir }) : db;
    await db.exec('CREATE TABLE test_cancelled (item_id bigint NOT NULL)');
  });
  beforeEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop(0)));
    await db.exec('DELETE FROM test_cancelled; DELETE FROM dictum.queue_control; DELETE FROM dictum.queue_item');
  });
  after(async () => {
    await Promise.all(queues.map((q) => q.stop(0)));
    if (other !== db) await other.close();
    await db.close();
    await fresh.drop();
  });

  const cancelledItems = async () => (await db.query<{ item_id: string }>('SELECT item_id FROM test_cancelled ORDER BY 1')).rows.map((r) => Number(r.item_id));
  const onCancel = async (tx: { query: Db['query'] }, item: { id: number }) => void (await tx.query('INSERT INTO test_cancelled (item_id) VALUES ($1)', [item.id]));

  it('cancels a pending item at once: it never runs, and a second cancel finds it ended', async () => {
    const q = new JobQueue({ db, log });
    let ran = 0;
    q.register('never', async () => void ran++, { concurrency: 1, onCancel });
    const id = await q.enqueue(db, 'never', {});
    assert.deepEqual(await q.cancel(id), { outcome: 'cancelled' });
    assert.equal((await q.state(id))?.state, 'cancelled');
    assert.deepEqual(await cancelledItems(), [id], 'what the kind leaves behind is written with the cancellation');
    assert.equal(await q.drain(), 0);
    assert.equal(ran, 0);
    assert.deepEqual(await q.cancel(id), { outcome: 'finished', state: 'cancelled' });
    assert.deepEqual(await q.cancel(id + 1000), { outcome: 'missing' });
    const done = await q.enqueue(db, 'never', {});
    await q.drain();
    assert.deepEqual(await q.cancel(done), { outcome: 'finished', state: 'done' });
  });

  it('stops a running item on the instance that runs it, rolls its work back and ends it cancelled', async () => {
    const runner = new JobQueue({ db: other, log, pollMs: 50 });
    const asker = new JobQueue({ db, log });
    queues.push(runner);
    let reason: unknown = null;
    let started = false;
    runner.register(
      'waits',
      async (_item, ctx) => {
        started = true;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        reason = ctx.signal.reason;
        return ctx.complete(async (tx) => void (await tx.query('INSERT INTO test_cancelled (item_id) VALUES (-1)')));
      },
      { concurrency: 1, onCancel },
    );
    asker.register('waits', async () => undefined, { concurrency: 1, onCancel });
    const id = await asker.enqueue(db, 'waits', {});
    await runner.start();
    await until(async () => started && (await asker.state(id))?.state === 'running', 'the item runs');
    assert.ok((await asker.state(id))?.leaseOwner === runner.owner);
    assert.deepEqual(await asker.cancel(id), { outcome: 'requested' });
    await until(async () => (await asker.state(id))?.state === 'cancelled', 'the item ends cancelled');
    assert.ok(reason instanceof CancelledError, 'the handler saw why it was stopped');
    assert.deepEqual(await cancelledItems(), [id], 'the work of the run rolled back; the cancellation was recorded');
  });

  it('keeps the progress a handler reports', async () => {
    const q = new JobQueue({ db, log });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reported = false;
    q.register(
      'counts',
      async (_item, ctx) => {
        ctx.progress(0.25);
        ctx.progress(2); // clamped
        ctx.progress(0.75);
        reported = true;
        await gate;
        return 'ok';
      },
      { concurrency: 1 },
    );
    const id = await q.enqueue(db, 'counts', {});
    const progress = async () => (await db.query<{ progress: number | null }>('SELECT progress FROM dictum.queue_control WHERE item_id = $1', [id])).rows[0]?.progress ?? null;
    const draining = q.drain();
    await until(async () => reported, 'the handler reported');
    if (db.kind === 'pg') {
      // On PostgreSQL the last value is written at once on a connection of its own, while the item runs.
      await until(async () => (await progress()) === 0.75, 'progress is visible while the item runs');
    }
    release();
    await draining;
    assert.equal(await progress(), 0.75);
    assert.equal((await q.state(id))?.state, 'done');
  });
});
