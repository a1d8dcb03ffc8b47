import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Queryable, Tx } from '../db/types.js';
import { systemClock, type Clock } from './clock.js';
import { QUEUE_CHANNEL } from './queue-schema.js';
import { noRetry, type RetryPolicy } from './retry.js';
import { notify } from '../db/notify.js';
import { CancelledError, QUEUE_CANCEL_CHANNEL } from './queue-control.js';
import { cancelItem } from './job-cancel.js';
import { progressReporter } from './job-progress.js';
import { fence, LeaseLostError, markEnded, renewLease, retryAt, underClaim, type Claimed } from './job-lease.js';

export type QueueState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** One claimed item, as its handler sees it. */
export interface QueueItem<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  /** Claims so far, this one included: 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

export interface JobContext {
  /** Aborted when the lease is lost, the item is cancelled (reason CancelledError) or the instance stops past its grace period. */
  signal: AbortSignal;
  /** Reports how far the work is, from 0 to 1; readers on any instance see it at once (on embedded PGlite when the item completes). */
  progress(fraction: number): void;
  /**
   * Runs the item's final writes in the transaction that marks it done. The transaction first
   * locks the item and checks that this claim still holds it, so that of two instances that ran
   * the same item (one of them after the other's lease expired) only one completes it.
   */
  complete<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export type JobHandler<P = unknown> = (item: QueueItem<P>, ctx: JobContext) => Promise<unknown>;

export interface KindOptions {
  /** Items of this kind one instance runs at once. */
  concurrency: number;
  /** Up to this many while a backlog is waiting (defaults to concurrency). */
  maxConcurrency?: number;
  /** Unfinished items (pending or running) beyond which enqueue refuses more; unlimited when unset. */
  maxQueued?: number;
  /** How long a claim holds an item without renewal; the lease is renewed while the handler runs. */
  leaseMs?: number;
  /** Default number of claims of an item (failed runs and crashes both count). */
  maxAttempts?: number;
  retry?: RetryPolicy;
  /** Writes what a cancelled item leaves behind, in the transaction that marks it cancelled. */
  onCancel?: (tx: Tx, item: { id: number; payload: unknown }) => Promise<void>;
}

/** What a cancellation did: the item will not run, the running item was told to stop, or it had already ended. */
export type CancelOutcome = { outcome: 'cancelled' } | { outcome: 'requested' } | { outcome: 'finished'; state: QueueState } | { outcome: 'missing' };

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobQueueOptions {
  db: Db;
  log: Pick<Logger, 'warn' | 'error' | 'debug'>;
  /** Names this instance as lease owner. */
  owner?: string;
  clock?: Clock;
  /** How often idle workers look for due work without being woken (the correctness path). */
  pollMs?: number;
  random?: () => number;
}

export class QueueFullError extends Error {
  constructor(readonly kind: string) {
    super(`the queue of ${kind} is full`);
  }
}

/** The claim no longer holds the item: its lease expired and another claim took it over. */
export { LeaseLostError } from './job-lease.js';

interface Kind extends Required<Omit<KindOptions, 'maxQueued' | 'retry' | 'onCancel'>> {
  name: string;
  onCancel: KindOptions['onCancel'];
  handler: JobHandler;
  maxQueued: number | null;
  retry: RetryPolicy;
  active: number;
  backlog: boolean;
}

interface ClaimedRow {
  id: string | number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

const DEFAULT_LEASE_MS = 60_000;

/**
 * The one durable work queue of the service, a table in PostgreSQL. Each instance claims due items
 * with FOR UPDATE SKIP LOCKED in a one-statement transaction and holds them by a lease it renews while
 * it works; a lease that runs out (a crashed or stopped instance) lets another instance claim the item
 * again. NOTIFY wakes idle workers at once, polling finds work whenever a notification was missed.
 */
export class JobQueue {
  readonly owner: string;
  readonly #db: Db;
  readonly #log: JobQueueOptions['log'];
  readonly #clock: Clock;
  readonly #pollMs: number;
  readonly #random: () => number;
  readonly #kinds = new Map<string, Kind>();
  readonly #running = new Set<Promise<void>>();
  /** The abort of each item this instance runs, by item id. */
  readonly #aborts = new Map<number, AbortController>();
  #started = false;
  #stopping = false;
  #timer: NodeJS.Timeout | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #unlistenCancel: (() => Promise<void>) | null = null;
  #pumping: Promise<void> | null = null;
  #again = false;

  constructor(o: JobQueueOptions) {
    this.#db = o.db;
    this.#log = o.log;
    this.owner = o.owner ?? randomUUID();
    this.#clock = o.clock ?? systemClock;
    this.#pollMs = o.pollMs ?? 1000;
    this.#random = o.random ?? Math.random;
  }

  /** Binds a kind of work to its handler and its limits on this instance. */
  register<P>(name: string, handler: JobHandler<P>, o: KindOptions): void {
    if (this.#kinds.has(name)) throw new Error(`queue kind ${name} is registered twice`);
    if (!(o.concurrency >= 1)) throw new Error(`queue kind ${name} needs a concurrency of at least 1`);
    this.#kinds.set(name, {
      name,
      handler: handler as JobHandler,
      concurrency: o.concurrency,
      maxConcurrency: Math.max(o.concurrency, o.maxConcurrency ?? o.concurrency),
      maxQueued: o.maxQueued ?? null,
      leaseMs: o.leaseMs ?? DEFAULT_LEASE_MS,
      maxAttempts: o.maxAttempts ?? 3,
      retry: o.retry ?? noRetry,
      onCancel: o.onCancel,
      active: 0,
      backlog: false,
    });
  }

  /**
   * Adds an item in the caller's transaction (it becomes visible, and wakes the workers, when that
   * commits). Returns its id.
   */
  async enqueue(q: Queryable, kind: string, payload: unknown, o: EnqueueOptions = {}): Promise<number> {
    const k = this.#kinds.get(kind);
    if (!k) throw new Error(`queue kind ${kind} is not registered`);
    if (k.maxQueued !== null) {
      const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM dictum.queue_item WHERE kind = $1 AND state IN ('pending', 'running')`, [kind]);
      if ((rows[0]?.n ?? 0) >= k.maxQueued) throw new QueueFullError(kind);
    }
    const now = this.#clock.now();
    const { rows } = await q.query<{ id: string | number }>(
      `INSERT INTO dictum.queue_item (kind, payload, max_attempts, run_at, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [kind, JSON.stringify(payload ?? {}), o.maxAttempts ?? k.maxAttempts, o.runAt ?? now, now],
    );
    await notify(q, QUEUE_CHANNEL, kind);
    return Number(rows[0]!.id);
  }

  /** The state of an item (tests, status pages). */
  async state(id: number): Promise<{ state: QueueState; attempts: number; result: unknown; error: string | null; runAt: Date; leaseOwner: string | null } | null> {
    const { rows } = await this.#db.query<{ state: QueueState; attempts: number; result: unknown; error: string | null; run_at: Date | string; lease_owner: string | null }>(
      'SELECT state, attempts, result, error, run_at, lease_owner FROM dictum.queue_item WHERE id = $1',
      [id],
    );
    const r = rows[0];
    return r ? { state: r.state, attempts: r.attempts, result: r.result, error: r.error, runAt: new Date(r.run_at), leaseOwner: r.lease_owner } : null;
  }

  /** Starts the workers of this instance: a LISTEN wake-up and a poll timer. */
  /** Whether the workers claim work (POST /servers/{id}/state stops and starts them). */
  get running(): boolean {
    return this.#started && !this.#stopping;
  }

  async start(): Promise<void> {
    if (this.#started && !this.#stopping) return;
    // A stopped queue may start again: tests stop the workers to stage a crash, a server toggle stops them.
    this.#stopping = false;
    this.#started = true;
    this.#unlisten = await this.#db.listen(QUEUE_CHANNEL, () => this.#wake());
    // A cancellation asked on any instance stops the item where it runs.
    this.#unlistenCancel = await this.#db.listen(QUEUE_CANCEL_CHANNEL, (payload) => this.#aborts.get(Number(payload))?.abort(new CancelledError(Number(payload))));
    const tick = (): void => {
      this.#timer = setTimeout(() => {
        this.#wake();
        if (!this.#stopping) tick();
      }, this.#pollMs);
      this.#timer.unref();
    };
    tick();
    this.#wake();
  }

  /**
   * Stops claiming, lets running items finish for up to `graceMs`, then aborts the rest and hands
   * their items back (pending again, claimable by another instance at once).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.#stopping = true;
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#unlisten?.().catch(() => undefined);
    await this.#unlistenCancel?.().catch(() => undefined);
    this.#unlisten = null;
    this.#unlistenCancel = null;
    await this.#pumping;
    const all = Promise.allSettled([...this.#running]);
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
    clearTimeout(timer);
    if (!late) return;
    for (const a of this.#aborts.values()) a.abort(new Error('the instance is stopping'));
    await this.#db
      .query(`UPDATE dictum.queue_item SET state = 'pending', lease_owner = NULL, lease_until = NULL, run_at = $2 WHERE state = 'running' AND lease_owner = $1`, [this.owner, this.#clock.now()])
      .catch((e) => this.#log.warn({ err: e }, 'queue items could not be handed back'));
    await Promise.race([all, new Promise((r) => setTimeout(r, 1000).unref())]);
  }

  /**
   * Claims and runs everything of the given kinds that is due now, until nothing is left (tests and
   * one-shot commands; the workers do the same continuously).
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.#claimAll();
      await Promise.allSettled([...this.#running]);
      if (n === 0) return total;
      total += n;
    }
  }

  /** Claims due items of one kind for this instance and returns them without running them (tests of crashes). */
  async claim(kind: string, limit: number): Promise<QueueItem[]> {
    const k = this.#kinds.get(kind);
    if (!k) throw new Error(`queue kind ${kind} is not registered`);
    return this.#claim(k, limit);
  }

  #wake(): void {
    if (this.#stopping || !this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = (async () => {
      do {
        this.#again = false;
        try {
          await this.#claimAll();
        } catch (e) {
          this.#log.warn({ err: e }, 'queue claim failed; the next poll retries');
        }
      } while (this.#again && !this.#stopping);
    })().finally(() => {
      this.#pumping = null;
    });
  }

  async #claimAll(): Promise<number> {
    let claimed = 0;
    for (const k of this.#kinds.values()) {
      const limit = k.backlog ? k.maxConcurrency : k.concurrency;
      const free = limit - k.active;
      if (free <= 0) continue;
      const items = await this.#claim(k, free);
      // A full claim means more is waiting: allow the kind its larger pool until a claim comes back short.
      k.backlog = items.length === free;
      for (const item of items) this.#run(k, item);
      claimed += items.length;
    }
    return claimed;
  }

  async #claim(k: Kind, limit: number): Promise<QueueItem[]> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<ClaimedRow>(
      `WITH due AS (
         SELECT id FROM dictum.queue_item
          WHERE kind = $1 AND ((state = 'pending' AND run_at <= $2) OR (state = 'running' AND lease_until <= $2))
          ORDER BY run_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE dictum.queue_item q SET state = 'running', attempts = q.attempts + 1, lease_owner = $4, lease_until = $5, started_at = $2
         FROM due WHERE q.id = due.id
       RETURNING q.id, q.kind, q.payload, q.attempts, q.max_attempts`,
      [k.name, now, limit, this.owner, new Date(now.getTime() + k.leaseMs)],
    );
    return rows
      .map((r) => ({ id: Number(r.id), kind: r.kind, payload: r.payload, attempt: r.attempts, maxAttempts: r.max_attempts }))
      .sort((a, b) => a.id - b.id);
  }

  #run(k: Kind, item: QueueItem): void {
    k.active++;
    const p = this.#execute(k, item)
      .catch((e) => this.#log.error({ err: e, item: item.id }, 'queue item bookkeeping failed'))
      .finally(() => {
        k.active--;
        this.#running.delete(p);
        this.#wake();
      });
    this.#running.add(p);
  }

  /** Runs the handler of a claimed item and records how it ended, fenced by the claim. */
  async #execute(k: Kind, item: QueueItem): Promise<void> {
    if (item.attempt > item.maxAttempts) {
      // Claimed again after its last allowed attempt crashed: record the loss instead of running it forever.
      await this.#finish(item, 'failed', null, `gave up after ${item.maxAttempts} attempts (the last one did not finish)`);
      return;
    }
    const abort = new AbortController();
    this.#aborts.set(item.id, abort);
    let completed = false;
    const progress = progressReporter(this.#db, this.#clock, this.#log, item.id);
    const renew = setInterval(() => {
      void renewLease(this.#db, this.#claimed(item), new Date(this.#clock.now().getTime() + k.leaseMs)).then((held) => {
        if (!held) abort.abort(new LeaseLostError(item.id));
      });
    }, Math.max(50, Math.floor(k.leaseMs / 3)));
    renew.unref();
    const ctx: JobContext = {
      signal: abort.signal,
      progress: progress.report,
      complete: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
        if (completed) throw new Error(`queue item ${item.id} is already complete`);
        const out = await this.#db.tx(async (tx) => {
          await fence(tx, this.#claimed(item));
          const r = await fn(tx);
          // A cancellation asked while the work ran undoes it: nothing of it commits.
          if (abort.signal.reason instanceof CancelledError || (await this.#cancelRequested(tx, item.id))) throw new CancelledError(item.id);
          await progress.flush(tx);
          await markEnded(tx, item.id, 'done', r === undefined ? null : r, null, this.#clock.now());
          return r;
        });
        completed = true;
        return out;
      },
    };
    try {
      const result = await k.handler(item, ctx);
      if (!completed) await ctx.complete(async () => result);
    } catch (e) {
      if (e instanceof CancelledError || abort.signal.reason instanceof CancelledError) {
        await this.#finishCancelled(k, item);
        return;
      }
      if (e instanceof LeaseLostError || abort.signal.reason instanceof LeaseLostError) {
        this.#log.warn({ item: item.id }, 'queue item lease lost; another claim finishes it');
        return;
      }
      const message = e instanceof Error ? e.message : String(e);
      const delay = item.attempt < item.maxAttempts ? k.retry(item.attempt, this.#random) : null;
      if (delay === null) await this.#finish(item, 'failed', null, message);
      else await this.#retryLater(item, delay, message);
    } finally {
      clearInterval(renew);
      this.#aborts.delete(item.id);
    }
  }

  /**
   * Cancels an item: a pending one at once (it will not run), a running one by asking the instance
   * that runs it to stop (its transaction then rolls back, and the item ends cancelled). `onCancel`
   * of the kind runs in the transaction that marks the item cancelled.
   */
  async cancel(id: number): Promise<CancelOutcome> {
    return this.#db.tx((tx) => cancelItem(tx, id, this.#clock.now(), (kind) => this.#kinds.get(kind)?.onCancel));
  }

  async #cancelRequested(q: Queryable, id: number): Promise<boolean> {
    const { rows } = await q.query('SELECT 1 FROM dictum.queue_control WHERE item_id = $1 AND cancel_requested_at IS NOT NULL', [id]);
    return rows.length > 0;
  }

  async #finishCancelled(k: Kind, item: QueueItem): Promise<void> {
    await underClaim(this.#db, this.#claimed(item), async (tx) => {
      await markEnded(tx, item.id, 'cancelled', null, 'cancelled', this.#clock.now());
      await k.onCancel?.(tx, item);
    });
  }

  #claimed(item: QueueItem): Claimed {
    return { id: item.id, owner: this.owner, attempt: item.attempt };
  }

  async #finish(item: QueueItem, state: 'done' | 'failed', result: unknown, error: string | null): Promise<void> {
    await underClaim(this.#db, this.#claimed(item), (tx) => markEnded(tx, item.id, state, result, error, this.#clock.now()));
  }

  async #retryLater(item: QueueItem, delayMs: number, error: string): Promise<void> {
    await underClaim(this.#db, this.#claimed(item), (tx) => retryAt(tx, item.id, new Date(this.#clock.now().getTime() + delayMs), error));
  }
}
