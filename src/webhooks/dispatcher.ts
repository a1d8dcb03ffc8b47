import { lookup } from 'node:dns/promises';
import { ts, tsMillis } from '../auth/util.js';
import type { Db, Queryable, Tx } from '../db/types.js';
import type { ModelEvents } from '../events/model-events.js';
import { systemClock, type Clock } from '../queue/clock.js';
import type { JobQueue } from '../queue/job-queue.js';
import { webhookRetry, type RetryPolicy } from '../queue/retry.js';
import type { Services } from '../services.js';
import { isInternal, parseAddress, parseIpList, inList } from './ip-rules.js';
import { DELIVERY_KIND, type DeliveryJob } from './outbox.js';
import { signatureHeader } from './signature.js';

/** In Progress deliveries older than this are taken to have lost their worker (spec, Limits). */
export const IN_PROGRESS_RECOVERY_MS = 5 * 60_000;
/** How often the Webhook Retry Processor runs from the dispatcher's timer. */
export const RETRY_PROCESSOR_INTERVAL_MS = 10 * 60_000;

type Row = Record<string, unknown>;

/** A claimed delivery with what sending it needs. */
interface Claimed {
  id: number;
  clientId: number;
  endpointId: number;
  messageId: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string | null;
  previousSecret: string | null;
  previousExpiry: Date | null;
  isStandard: boolean;
  maxFailures: number;
}

export interface SendOutcome {
  status: number | null;
  body: string;
  error: string | null;
}

const toDate = (v: unknown): Date | null => {
  const ms = tsMillis(v);
  return ms === null ? null : new Date(ms);
};

export interface DispatcherOptions {
  clock?: Clock;
  random?: () => number;
  retry?: RetryPolicy;
}

/**
 * Sends deliveries from the queue. States of a delivery (REST_Webhook_Out_Log.DeliveryStatus):
 * P → I when a worker claims it, I → S on 2xx, I → P with NextRetryAt after a failure while
 * attempts remain, → A when they are used up or the receiver answers 410. Claims lock the row,
 * so of several instances only one sends a delivery.
 */
export class WebhookDispatcher {
  readonly #s: Services;
  readonly #queue: JobQueue;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #retry: RetryPolicy;
  #timer: NodeJS.Timeout | null = null;

  constructor(s: Services, queue: JobQueue, o: DispatcherOptions = {}) {
    this.#s = s;
    this.#queue = queue;
    this.#clock = o.clock ?? systemClock;
    this.#random = o.random ?? Math.random;
    this.#retry = o.retry ?? webhookRetry;
  }

  /** Registers the queue kind: the spec's pool of 4 core and 16 maximum concurrent deliveries. */
  register(): void {
    this.#queue.register<DeliveryJob>(DELIVERY_KIND, (item, ctx) => this.#deliver(item.payload.logId, item.attempt, ctx), {
      concurrency: 4,
      maxConcurrency: 16,
      // Longer than the longest request (timeout at most 10 min) would keep it.
      leaseMs: 60_000,
      maxAttempts: 5,
    });
  }

  enqueue(q: Queryable, job: DeliveryJob, runAt?: Date): Promise<number> {
    return this.#queue.enqueue(q, DELIVERY_KIND, job, runAt ? { runAt } : {});
  }

  /** Resumes an endpoint's pending deliveries when it is unpaused (in the transaction that unpauses it). */
  listen(events: ModelEvents): void {
    events.on('after-change', 'rest_webhook_out', async (e) => {
      if (e.changed.has('ispaused') && e.row.ispaused !== 'Y') await this.requeue(e.tx, { endpointId: Number(e.row.rest_webhook_out_id) });
      if (e.changed.has('isactive') && e.row.isactive === 'Y') await this.requeue(e.tx, { endpointId: Number(e.row.rest_webhook_out_id) });
    });
  }

  /** Runs the Webhook Retry Processor from this instance's timer until a scheduler runs it. */
  startTimer(intervalMs = RETRY_PROCESSOR_INTERVAL_MS): void {
    const tick = (): void => {
      this.#timer = setTimeout(() => {
        void this.process()
          .catch((e) => this.#s.log.warn({ err: e }, 'webhook retry processor failed'))
          .finally(() => this.#timer !== null && tick());
      }, intervalMs);
      this.#timer.unref();
    };
    tick();
  }

  stopTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /**
   * The Webhook Retry Processor: In Progress deliveries older than 5 minutes go back to Pending,
   * and every Pending delivery that is due and has no queue item (its endpoint was paused, or
   * its item was lost) is queued again. Returns what it did.
   */
  async process(q: Db | Tx = this.#s.db): Promise<{ recovered: number; queued: number }> {
    const now = this.#clock.now();
    const { rowCount: recovered } = await q.query(
      `UPDATE rest_webhook_out_log SET deliverystatus = 'P', lockedat = NULL, updated = $2 WHERE deliverystatus = 'I' AND (lockedat IS NULL OR lockedat < $1)`,
      [ts(new Date(now.getTime() - IN_PROGRESS_RECOVERY_MS)), ts(now)],
    );
    const queued = await this.requeue(q, { dueBy: now });
    return { recovered: recovered ?? 0, queued };
  }

  /** Queues the Pending deliveries of unpaused endpoints that have no live queue item. */
  async requeue(q: Queryable, o: { endpointId?: number; dueBy?: Date; ids?: number[] }): Promise<number> {
    const params: unknown[] = [DELIVERY_KIND];
    const where = [`l.deliverystatus = 'P'`, `o.ispaused = 'N'`, `o.isactive = 'Y'`];
    if (o.endpointId !== undefined) where.push(`l.rest_webhook_out_id = $${params.push(o.endpointId)}`);
    if (o.dueBy) where.push(`(l.nextretryat IS NULL OR l.nextretryat <= $${params.push(ts(o.dueBy))})`);
    if (o.ids) where.push(`l.rest_webhook_out_log_id = ANY($${params.push(o.ids)}::bigint[])`);
    const { rows } = await q.query<{ id: number; nextretryat: unknown }>(
      `SELECT l.rest_webhook_out_log_id AS id, l.nextretryat FROM rest_webhook_out_log l JOIN rest_webhook_out o ON o.rest_webhook_out_id = l.rest_webhook_out_id
        WHERE ${where.join(' AND ')}
          AND NOT EXISTS (SELECT 1 FROM dictum.queue_item qi WHERE qi.kind = $1 AND qi.state IN ('pending', 'running') AND (qi.payload->>'logId')::bigint = l.rest_webhook_out_log_id)
        ORDER BY l.rest_webhook_out_log_id`,
      params,
    );
    const now = this.#clock.now();
    for (const r of rows) {
      const at = toDate(r.nextretryat);
      await this.enqueue(q, { logId: Number(r.id) }, at && at > now ? at : now);
    }
    return rows.length;
  }

  /** Takes the delivery for this attempt (P → I), or null when it is not to be sent now. */
  async #claim(id: number, queueAttempt: number): Promise<Claimed | null> {
    const now = this.#clock.now();
    return this.#s.db.tx(async (tx) => {
      const { rows } = await tx.query<Row>(
        `SELECT l.*, o.url, o.webhooksecret, o.previoussecret, o.previoussecretexpiry, o.isstandardwebhook, o.ispaused, o.isactive AS endpoint_active, o.maxconsecutivefailures
           FROM rest_webhook_out_log l JOIN rest_webhook_out o ON o.rest_webhook_out_id = l.rest_webhook_out_id
          WHERE l.rest_webhook_out_log_id = $1 FOR UPDATE OF l`,
        [id],
      );
      const r = rows[0];
      if (!r) return null;
      const locked = toDate(r.lockedat);
      // An In Progress delivery is taken over when the queue hands its item out again (the worker's lease ran out) or after 5 minutes.
      const stale = r.deliverystatus === 'I' && (queueAttempt > 1 || !locked || now.getTime() - locked.getTime() >= IN_PROGRESS_RECOVERY_MS);
      if (r.deliverystatus !== 'P' && !stale) return null;
      // A paused endpoint keeps its deliveries Pending; unpausing queues them again.
      if (r.ispaused === 'Y' || r.endpoint_active !== 'Y') return null;
      const attempts = Number(r.attempts ?? 0) + 1;
      await tx.query(`UPDATE rest_webhook_out_log SET deliverystatus = 'I', lockedat = $2, attempts = $3, updated = $2 WHERE rest_webhook_out_log_id = $1`, [id, ts(now), attempts]);
      return {
        id,
        clientId: Number(r.ad_client_id),
        endpointId: Number(r.rest_webhook_out_id),
        messageId: String(r.webhookmessageid),
        payload: String(r.payload ?? ''),
        attempts,
        url: String(r.url),
        secret: (r.webhooksecret as string | null) || null,
        previousSecret: (r.previoussecret as string | null) || null,
        previousExpiry: toDate(r.previoussecretexpiry),
        isStandard: r.isstandardwebhook === 'Y',
        maxFailures: Number(r.maxconsecutivefailures ?? 50),
      };
    });
  }

  async #deliver(id: number, queueAttempt: number, ctx: { signal: AbortSignal; complete<T>(fn: (tx: Tx) => Promise<T>): Promise<T> }): Promise<unknown> {
    const d = await this.#claim(id, queueAttempt);
    if (!d) return { skipped: true };
    const outcome = await this.send(d, ctx.signal);
    // Read before the transaction: the embedded database's one connection is the transaction's.
    const limits = {
      logMax: await this.#s.sysConfig.getInt('REST_WEBHOOK_LOG_MAX_LENGTH', 2000, d.clientId),
      maxRetries: await this.#s.sysConfig.getInt('REST_WEBHOOK_MAX_RETRIES', 10),
    };
    return ctx.complete((tx) => this.#record(tx, d, outcome, limits));
  }

  /** The request of one attempt: signed for standard endpoints, no redirects, within the timeout. */
  async send(d: Claimed, signal?: AbortSignal): Promise<SendOutcome> {
    const s = this.#s;
    const now = this.#clock.now();
    const refused = await this.#refusedDestination(d.url);
    if (refused) return { status: null, body: '', error: refused };
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Dictum-Webhooks/1' };
    if (d.isStandard) {
      const stamp = Math.floor(now.getTime() / 1000);
      headers['webhook-id'] = d.messageId;
      headers['webhook-timestamp'] = String(stamp);
      const secrets = [d.secret, d.previousSecret && d.previousExpiry && d.previousExpiry > now ? d.previousSecret : null].filter((x): x is string => !!x);
      if (secrets.length) headers['webhook-signature'] = signatureHeader(secrets, d.messageId, stamp, d.payload);
    }
    const timeoutMs = await s.sysConfig.getInt('REST_WEBHOOK_TIMEOUT_MS', 15000, d.clientId);
    const signals = [AbortSignal.timeout(Math.max(1, timeoutMs)), ...(signal ? [signal] : [])];
    try {
      const res = await fetch(d.url, { method: 'POST', headers, body: d.payload, redirect: 'manual', signal: AbortSignal.any(signals) });
      const body = await res.text().catch(() => '');
      const ok = res.status >= 200 && res.status < 300;
      return { status: res.status, body, error: ok ? null : res.status >= 300 && res.status < 400 ? `Redirect not followed (HTTP ${res.status})` : `HTTP ${res.status}` };
    } catch (e) {
      const err = e as Error & { cause?: { message?: string } };
      const timedOut = err.name === 'TimeoutError' || (err.name === 'AbortError' && !signal?.aborted);
      return { status: null, body: '', error: timedOut ? `Timed out after ${timeoutMs} ms` : `${err.message}${err.cause?.message ? `: ${err.cause.message}` : ''}` };
    }
  }

  /** Why a URL may not be called: an internal address not allowed by REST_WEBHOOK_ALLOWED_HOSTS. */
  async #refusedDestination(url: string): Promise<string | null> {
    const u = new URL(url);
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const allowed = parseIpList(await this.#s.sysConfig.get('REST_WEBHOOK_ALLOWED_HOSTS'));
    if (allowed.names.includes(host)) return null;
    const literal = parseAddress(host);
    let addresses: string[];
    try {
      addresses = literal ? [literal.toString()] : (await lookup(host, { all: true })).map((a) => a.address);
    } catch (e) {
      return `Host not found: ${host} (${(e as Error).message})`;
    }
    for (const a of addresses) {
      if (isInternal(a) && !inList(a, allowed.list)) return `Refused: ${host} resolves to the internal address ${a}, not allowed by REST_WEBHOOK_ALLOWED_HOSTS`;
    }
    return null;
  }

  /** Records an attempt's end on the delivery and its endpoint, and queues the next attempt. */
  async #record(tx: Tx, d: Claimed, o: SendOutcome, limits: { logMax: number; maxRetries: number }): Promise<Record<string, unknown>> {
    const s = this.#s;
    const now = this.#clock.now();
    const max = limits.logMax;
    const cut = (t: string | null): string | null => (t === null || max <= 0 ? null : t.slice(0, max));
    const ok = o.status !== null && o.status >= 200 && o.status < 300;
    const gone = o.status === 410;
    let status: 'S' | 'P' | 'A';
    let next: Date | null = null;
    if (ok) status = 'S';
    else if (gone) status = 'A';
    else {
      const maxRetries = limits.maxRetries;
      const delay = d.attempts < maxRetries ? this.#retry(d.attempts, this.#random) : null;
      if (delay === null) status = 'A';
      else {
        status = 'P';
        next = new Date(now.getTime() + delay);
      }
    }
    await tx.query(
      `UPDATE rest_webhook_out_log SET deliverystatus = $2, httpstatus = $3, responsebody = $4, errormessage = $5, nextretryat = $6, lockedat = NULL, updated = $7
        WHERE rest_webhook_out_log_id = $1`,
      [d.id, status, o.status, cut(o.body), cut(o.error), next ? ts(next) : null, ts(now)],
    );
    let paused = false;
    if (ok) {
      await tx.query(`UPDATE rest_webhook_out SET consecutivefailures = 0, lastsuccessat = $2 WHERE rest_webhook_out_id = $1`, [d.endpointId, ts(now)]);
    } else {
      // 410 Gone pauses at once; other failures when the count reaches MaxConsecutiveFailures (0: never).
      const { rows } = await tx.query<{ ispaused: string }>(
        `UPDATE rest_webhook_out SET consecutivefailures = COALESCE(consecutivefailures, 0) + 1, lastfailureat = $2,
                ispaused = CASE WHEN $3 OR (COALESCE(maxconsecutivefailures, 50) > 0 AND COALESCE(consecutivefailures, 0) + 1 >= COALESCE(maxconsecutivefailures, 50)) THEN 'Y' ELSE ispaused END
          WHERE rest_webhook_out_id = $1 RETURNING ispaused`,
        [d.endpointId, ts(now), gone],
      );
      paused = rows[0]?.ispaused === 'Y';
      if (paused) s.log.warn({ endpoint: d.endpointId, delivery: d.id, status: o.status }, 'webhook endpoint paused');
    }
    if (status === 'P' && !paused) await this.enqueue(tx, { logId: d.id }, next!);
    return { status, httpStatus: o.status, attempts: d.attempts };
  }
}
