import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Services } from '../services.js';
import { webhookDispatcher } from '../webhooks/register.js';
import { readReplicaMetrics } from './replica-metrics.js';
import { mirrorCounter } from './mirror-counter.js';

/** Seconds; from a cached read by id to a large report. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A figure read from the database at scrape time gives up after this long rather than hold the scrape. */
const DB_FIGURE_TIMEOUT_MS = 2_000;

/** Names of the outbound webhook delivery statuses (REST_Webhook_Out_Log.DeliveryStatus). */
const DELIVERY_STATE: Record<string, string> = { P: 'pending', I: 'sending', S: 'sent', A: 'abandoned' };
const ATTEMPT_OUTCOME: Record<'S' | 'P' | 'A', string> = { S: 'sent', P: 'retry', A: 'abandoned' };

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), DB_FIGURE_TIMEOUT_MS).unref()),
  ]);
}


/**
 * The figures /metrics shows, in a registry of this instance's own: HTTP requests by route pattern
 * and status with their latency, the database pool, the work queue, webhook deliveries, scheduler
 * firings, caches, and Node's own figures (event-loop delay, memory, garbage collection). Figures
 * read from the database (queue, webhook backlog) are those of the whole cluster, the same on
 * every instance; the others are this instance's.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route'>;

  constructor(s: Services) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({ name: 'dictum_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.#latency = new Histogram({
      name: 'dictum_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#databasePool(s, registers);
    readReplicaMetrics(s.reads, registers);
    this.#queue(s, registers);
    this.#webhooks(s, registers);
    this.#schedulers(s, registers);
    this.#caches(s, registers);
  }

  /** Counts one answered request; `route` is the route's pattern (never the raw path, which would make a series per record). */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.#requests.inc({ method, route, status: String(status) });
    this.#latency.observe({ method, route }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #databasePool(s: Services, registers: Registry[]): void {
    new Gauge({
      name: 'dictum_db_pool_connections',
      help: 'Database connections of this instance by state: busy, idle, and max (the pool bound); PostgreSQL only',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const p = s.db.poolStats?.();
        if (!p) return;
        this.set({ state: 'busy' }, p.total - p.idle);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'max' }, p.max);
      },
    });
    new Gauge({
      name: 'dictum_db_pool_waiting',
      help: 'Callers of this instance waiting for a database connection; PostgreSQL only',
      registers,
      collect() {
        this.reset();
        const p = s.db.poolStats?.();
        if (p) this.set(p.waiting);
      },
    });
  }

  #queue(s: Services, registers: Registry[]): void {
    const rowsOf = async () => {
      const { rows } = await withTimeout(
        s.db.query<{ kind: string; state: string; items: string; age: number | null }>(
          `SELECT kind, state, count(*) AS items, EXTRACT(EPOCH FROM now() - min(run_at) FILTER (WHERE run_at <= now())) AS age
             FROM dictum.queue_item WHERE finished_at IS NULL GROUP BY kind, state`,
        ),
      );
      return rows;
    };
    let pending: ReturnType<typeof rowsOf> | null = null;
    // Both gauges come from one query per scrape.
    const shared = () => (pending ??= rowsOf().finally(() => setImmediate(() => (pending = null))));
    new Gauge({
      name: 'dictum_queue_items',
      help: 'Work items of the queue not finished yet, by kind and state (whole cluster)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        const rows = await shared().catch(() => []);
        for (const r of rows) this.set({ kind: r.kind, state: r.state }, Number(r.items));
      },
    });
    new Gauge({
      name: 'dictum_queue_oldest_age_seconds',
      help: 'How long the oldest due work item not finished yet has been due, by kind and state (whole cluster)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        const rows = await shared().catch(() => []);
        for (const r of rows) this.set({ kind: r.kind, state: r.state }, Math.max(0, Number(r.age ?? 0)));
      },
    });
  }

  #webhooks(s: Services, registers: Registry[]): void {
    new Gauge({
      name: 'dictum_webhook_deliveries_open',
      help: 'Outbound webhook deliveries not finished, by state: pending or sending (whole cluster)',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        const rows = await withTimeout(
          s.db.query<{ state: string; n: string }>(`SELECT deliverystatus AS state, count(*) AS n FROM rest_webhook_out_log WHERE deliverystatus IN ('P', 'I') GROUP BY deliverystatus`),
        ).then((r) => r.rows, () => []);
        for (const state of ['P', 'I']) this.set({ state: DELIVERY_STATE[state]! }, Number(rows.find((r) => r.state === state)?.n ?? 0));
      },
    });
    new Counter({
      name: 'dictum_webhook_attempts_total',
      help: 'Delivery attempts of this instance by outcome: sent, retry (pending again) or abandoned',
      labelNames: ['outcome'],
      registers,
      collect() {
        const attempts = webhookDispatcher(s)?.attempts;
        if (attempts) mirrorCounter(this, (Object.keys(ATTEMPT_OUTCOME) as Array<'S' | 'P' | 'A'>).map((k) => [{ outcome: ATTEMPT_OUTCOME[k] }, attempts[k]]));
      },
    });
  }

  #schedulers(s: Services, registers: Registry[]): void {
    new Counter({
      name: 'dictum_scheduler_passes_total',
      help: 'Passes of this instance over the schedulers looking for due firings',
      registers,
      collect() {
        mirrorCounter(this, [[{}, s.schedulers.runs]]);
      },
    });
    new Counter({
      name: 'dictum_scheduler_firings_total',
      help: 'Scheduler firings this instance claimed, by outcome: queued (a run was queued) or failed',
      labelNames: ['outcome'],
      registers,
      collect() {
        mirrorCounter(this, [
          [{ outcome: 'queued' }, s.schedulers.fired],
          [{ outcome: 'failed' }, s.schedulers.failed],
        ]);
      },
    });
  }

  #caches(s: Services, registers: Registry[]): void {
    const each = (pick: (c: { hits: number; misses: number; size: number }) => number) => s.caches.list().map((c): [Record<string, string>, number] => [{ cache: c.name }, pick(c)]);
    new Counter({ name: 'dictum_cache_hits_total', help: 'Reads answered by a cache of this instance', labelNames: ['cache'], registers, collect() {
      mirrorCounter(this, each((c) => c.hits));
    } });
    new Counter({ name: 'dictum_cache_misses_total', help: 'Reads a cache of this instance could not answer', labelNames: ['cache'], registers, collect() {
      mirrorCounter(this, each((c) => c.misses));
    } });
    new Gauge({ name: 'dictum_cache_entries', help: 'Entries held by a cache of this instance', labelNames: ['cache'], registers, collect() {
      this.reset();
      for (const [labels, v] of each((c) => c.size)) this.set(labels, v);
    } });
  }
}
