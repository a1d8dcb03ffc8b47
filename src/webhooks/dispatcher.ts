import type { Db, Queryable, Tx } from '../db/types.js';
import type { ModelEvents } from '../events/model-events.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { webhookRetry, type RetryPolicy } from '../queue/retry.js';
import type { Services } from '../services.js';
import { claimDue, countDue, DELIVERY_CHANNEL, notifyDeliveries, recordAttempts, recoverStalled, releaseClaims, type Claimed, type Recorded } from './delivery-store.js';
import { attemptResult } from './outcome.js';
import { WebhookSender } from './sender.js';
import { PeriodicTask } from '../servers/periodic-task.js';

export { IN_PROGRESS_RECOVERY_MS } from './delivery-store.js';

/** How often the Webhook Retry Processor runs from the dispatcher's timer. */
export const RETRY_PROCESSOR_INTERVAL_MS = 10 * 60_000;

/** The spec's pool: 4 core workers, 16 while claimed deliveries wait, a queue of 500. */
export const POOL = { core: 4, max: 16, queue: 500 } as const;
/** Deliveries claimed in one statement at most. */
const CLAIM_BATCH = 100;
/** Claimed deliveries below which the pump claims more (keeps the workers fed without over-claiming). */
const REFILL_BELOW = 50;
/** Outcomes written together at most; a batch is written sooner when no request is open or after the linger. */
const FLUSH_BATCH = 100;
/** How long an outcome waits for others to share its transaction while requests are still open. */
const FLUSH_LINGER_MS = 5;

export interface DispatcherOptions {
  clock?: Clock;
  random?: () => number;
  retry?: RetryPolicy;
  /** How often idle dispatchers look for due retries without being woken. */
  pollMs?: number;
}

/** A delivery held by this instance: claimed, being sent, or sent and waiting to be written. */
interface Held {
  delivery: Claimed;
  sent: boolean;
}

/**
 * Sends outbound deliveries. States (REST_Webhook_Out_Log.DeliveryStatus): P → I when claimed,
 * I → S on 2xx, I → P with NextRetryAt after a failure while attempts remain, → A when they are
 * used up or the receiver answers 410; In Progress older than 5 minutes is claimed again.
 *
 * Throughput comes from batching the database work, not from more threads: one statement claims up
 * to 100 due deliveries (FOR UPDATE SKIP LOCKED, so instances share the work and none sends twice),
 * workers send them over kept-alive connections, and their outcomes are written together in one
 * transaction while the next requests are in flight. A NOTIFY from the writing transaction wakes
 * the pump at once; a poll finds retries as they fall due.
 */
export class WebhookDispatcher {
  readonly #s: Services;
  readonly #db: Db;
  #clock: Clock;
  readonly #random: () => number;
  readonly #retry: RetryPolicy;
  readonly #pollMs: number;
  readonly #sender: WebhookSender;
  /** Claimed and not yet taken by a worker. */
  readonly #waiting: Claimed[] = [];
  /** Every delivery this instance holds In Progress, by id. */
  readonly #held = new Map<number, Held>();
  readonly #outcomes: Recorded[] = [];
  /** Attempts this instance made, by the delivery status they led to: Sent, Pending again (a retry) or Abandoned. */
  readonly attempts: Record<'S' | 'P' | 'A', number> = { S: 0, P: 0, A: 0 };
  #abort = new AbortController();
  #workers = 0;
  #running = false;
  #pumping: Promise<void> | null = null;
  #pumpAgain = false;
  #flushing: Promise<void> | null = null;
  #linger: NodeJS.Timeout | null = null;
  #sending = 0;
  #poll: NodeJS.Timeout | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #idle: (() => void)[] = [];

  constructor(s: Services, o: DispatcherOptions = {}) {
    this.#s = s;
    this.#db = s.db;
    this.#clock = o.clock ?? systemClock;
    this.#random = o.random ?? Math.random;
    this.#retry = o.retry ?? webhookRetry;
    this.#pollMs = o.pollMs ?? 1000;
    this.#sender = new WebhookSender(s.sysConfig, POOL.max);
  }

  /** Replaces the clock (tests move a manual one through the retry schedule). */
  useClock(clock: Clock): void {
    this.#clock = clock;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Wakes the dispatchers of every instance when the caller's transaction commits. */
  notify(q: Queryable): Promise<void> {
    return notifyDeliveries(q);
  }

  /** Resumes an endpoint's pending deliveries when it is unpaused or activated (in that transaction). */
  listen(events: ModelEvents): void {
    events.on('after-change', 'rest_webhook_out', async (e) => {
      const resumed = (e.changed.has('ispaused') && e.row.ispaused !== 'Y') || (e.changed.has('isactive') && e.row.isactive === 'Y');
      if (resumed) await this.notify(e.tx);
    });
  }

  /** Starts claiming: at once, on every NOTIFY, and every poll interval. */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#abort = new AbortController();
    this.#unlisten = await this.#db.listen(DELIVERY_CHANNEL, () => this.wake());
    const tick = (): void => {
      this.#poll = setTimeout(() => {
        this.wake();
        if (this.#running) tick();
      }, this.#pollMs);
      this.#poll.unref();
    };
    tick();
    this.wake();
  }

  /**
   * Stops claiming, lets the deliveries held finish for up to `graceMs` (the spec's 10 s), then
   * aborts the requests still open and hands every unfinished claim back as Pending.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    if (this.#poll) clearTimeout(this.#poll);
    await this.#unlisten?.().catch(() => undefined);
    this.#unlisten = null;
    await this.#pumping;
    // Claimed but not started: back at once, so another instance takes them.
    const unsent = this.#waiting.splice(0);
    for (const d of unsent) this.#held.delete(d.id);
    await releaseClaims(this.#db, unsent.map((d) => ({ delivery: d, sent: false })), this.#clock.now()).catch((e) => this.#s.log.warn({ err: e }, 'webhook claims could not be handed back'));
    if (!(await this.#settled(graceMs))) {
      this.#abort.abort(new Error('the instance is stopping'));
      await this.#settled(1000);
    }
    if (this.#outcomes.length) this.#flush();
    await this.#flushing;
    const left = [...this.#held.values()];
    this.#held.clear();
    await releaseClaims(this.#db, left, this.#clock.now()).catch((e) => this.#s.log.warn({ err: e }, 'webhook claims could not be handed back'));
  }

  /** Stops for good: the dispatcher and its connections. */
  async close(graceMs = 10_000): Promise<void> {
    await this.stop(graceMs);
    // Its timer too; the dispatcher is stopped already, so its onStop has nothing left to do.
    await this.server.stop();
    this.#sender.close();
  }

  /** Resolves true once nothing is held, false after `ms`. */
  #settled(ms: number): Promise<boolean> {
    if (!this.#held.size) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Claims due deliveries now (also called by tests after moving the clock). */
  wake(): void {
    if (!this.#running) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = (async () => {
      do {
        this.#pumpAgain = false;
        try {
          await this.#claimWhileRoom();
        } catch (e) {
          this.#s.log.warn({ err: e }, 'webhook claim failed; the next poll retries');
        }
      } while (this.#pumpAgain && this.#running);
    })().finally(() => {
      this.#pumping = null;
    });
  }

  /** Claims in batches while the queue of 500 has room and claims come back full. */
  async #claimWhileRoom(): Promise<void> {
    while (this.#running) {
      const room = POOL.queue - this.#held.size;
      if (room <= 0 || this.#waiting.length >= REFILL_BELOW) return;
      const want = Math.min(CLAIM_BATCH, room);
      const claimed = await claimDue(this.#db, this.#clock.now(), want);
      for (const d of claimed) {
        this.#held.set(d.id, { delivery: d, sent: false });
        this.#waiting.push(d);
      }
      this.#startWorkers();
      if (claimed.length < want) return;
    }
  }

  /** Workers take claimed deliveries, up to 16; each ends when none is waiting, so an idle pool shrinks to nothing. */
  #startWorkers(): void {
    while (this.#waiting.length > this.#workers && this.#workers < POOL.max) {
      this.#workers++;
      void this.#work().finally(() => {
        this.#workers--;
        this.#becameIdle();
      });
    }
  }

  async #work(): Promise<void> {
    for (let d = this.#waiting.shift(); d; d = this.#waiting.shift()) {
      if (this.#waiting.length < REFILL_BELOW) this.wake();
      const now = this.#clock.now();
      // A failure of the service itself (e.g. reading SysConfig) is a failed attempt, never a lost worker.
      this.#sending++;
      const outcome = await this.#sender.send(d, now, this.#abort.signal).catch((e: Error) => ({ status: null, body: '', error: e.message }));
      this.#sending--;
      const held = this.#held.get(d.id);
      if (held) held.sent = true;
      if (this.#abort.signal.aborted) continue; // handed back as Pending by stop()
      const [logMax, maxRetries] = await Promise.all([
        this.#s.sysConfig.getInt('REST_WEBHOOK_LOG_MAX_LENGTH', 2000, d.clientId),
        this.#s.sysConfig.getInt('REST_WEBHOOK_MAX_RETRIES', 10),
      ]).catch(() => [2000, 10]);
      const cut = (t: string | null): string | null => (t === null || logMax <= 0 ? null : t.slice(0, logMax));
      const at = this.#clock.now();
      const result = attemptResult(outcome, d.attempts, maxRetries, this.#retry, this.#random, at);
      this.attempts[result.status]++;
      this.#outcomes.push({
        ...result,
        delivery: d,
        httpStatus: outcome.status,
        responseBody: cut(outcome.body),
        errorMessage: cut(outcome.error),
        at,
      });
      this.#scheduleFlush();
    }
  }

  /** Writes outcomes when a batch is full or no request is open, else after a short linger. */
  #scheduleFlush(): void {
    if (this.#flushing || this.#linger) return;
    if (this.#outcomes.length >= FLUSH_BATCH || this.#sending === 0) return this.#flush();
    this.#linger = setTimeout(() => {
      this.#linger = null;
      this.#flush();
    }, FLUSH_LINGER_MS);
  }

  /** Writes the outcomes gathered so far in one transaction; those that arrive meanwhile go in the next. */
  #flush(): void {
    if (this.#linger) clearTimeout(this.#linger);
    this.#linger = null;
    if (this.#flushing) return;
    this.#flushing = (async () => {
      // Group commit: what finished meanwhile is written next, at once only if it is a batch's worth.
      for (let first = true; first || this.#outcomes.length >= FLUSH_BATCH || (this.#outcomes.length && !this.#sending); first = false) {
        const batch = this.#outcomes.splice(0);
        try {
          const { paused } = await this.#db.tx((tx) => recordAttempts(tx, batch));
          for (const id of paused) this.#s.log.warn({ endpoint: id }, 'webhook endpoint paused');
        } catch (e) {
          // Left In Progress: recovered after 5 minutes and sent again (at least once, never lost).
          this.#s.log.error({ err: e, deliveries: batch.length }, 'webhook outcomes could not be written');
        }
        for (const r of batch) this.#held.delete(r.delivery.id);
      }
    })().finally(() => {
      this.#flushing = null;
      this.#becameIdle();
      if (this.#outcomes.length) this.#scheduleFlush();
      else this.wake();
    });
  }

  #becameIdle(): void {
    if (this.#held.size) return;
    for (const f of this.#idle.splice(0)) f();
  }

  /**
   * The webhook dispatcher server of the instance: while started it sends (claims on every NOTIFY
   * and poll) and runs the Webhook Retry Processor on its timer (until a scheduler runs it); its
   * state toggle starts and stops both.
   */
  readonly server = new PeriodicTask({
    key: 'webhook-dispatcher',
    name: 'Webhook dispatcher',
    description: 'sends webhook deliveries; recovers stalled ones and wakes for due pending ones',
    intervalMs: RETRY_PROCESSOR_INTERVAL_MS,
    pass: async () => {
      const r = await this.process();
      return r.recovered || r.queued ? `recovered ${r.recovered} stalled and found ${r.queued} due pending deliveries` : '';
    },
    onStart: () => this.start(),
    onStop: () => this.stop(),
  });

  /**
   * The Webhook Retry Processor: In Progress deliveries older than 5 minutes go back to Pending,
   * and the dispatchers are woken for every Pending delivery that is due. Returns what it did.
   */
  async process(q: Db | Tx = this.#db): Promise<{ recovered: number; queued: number }> {
    const now = this.#clock.now();
    const recovered = await recoverStalled(q, now);
    const queued = await countDue(q, now);
    if (queued) await this.notify(q);
    return { recovered, queued };
  }
}
