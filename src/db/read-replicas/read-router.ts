import type { Logger } from 'pino';
import type { Db, Queryable } from '../types.js';
import { replicaName } from './read-urls.js';
import { caughtUpAt, inService, isReplicaFailure, keepSamples, lagMs, lsnBytes, pickReplica, type PrimarySample, type RoutingRules } from './routing.js';

/** SysConfig keys of the routing rules (system level) with their defaults. */
export const MAX_LAG_KEY = 'REST_READ_REPLICA_MAX_LAG_MS';
export const WRITE_WINDOW_KEY = 'REST_READ_REPLICA_WRITE_WINDOW_MS';
export const DEFAULT_RULES: RoutingRules = { maxLagMs: 5_000, writeWindowMs: 2_000 };

/** Where reads that may be a little stale run: a replica when one may serve them, else the primary. */
export interface ReadDb extends Queryable {
  /** Several statements on one connection, taken once (see Db.connection). */
  connection<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Statements in one transaction that only reads (the caller may set it read only and time limited). */
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

/** A replica as /metrics and health show it. */
export interface ReplicaState {
  name: string;
  healthy: boolean;
  inService: boolean;
  /** How far behind the primary it is (ms); null when unknown (never reached). */
  lagMs: number | null;
}

interface Replica {
  name: string;
  db: Db;
  probe: Queryable;
  healthy: boolean;
  caughtUpAt: number | null;
}

export interface ReadRouterOptions {
  primary: Db;
  /** The replicas' databases, by URL (opened by the caller, closed by the router). */
  replicas: Array<{ url: string; db: Db }>;
  /**
   * Where the checks read the positions, when not from the pools above: connections of their own
   * keep a check from queueing behind busy reads (and a replica from looking failed for it).
   */
  probes?: { primary: Queryable; replicas: Queryable[]; close(): Promise<void> };
  pollMs: number;
  /** The routing rules as they stand now (SysConfig); read at every check. */
  rules: () => Promise<RoutingRules>;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/** The query that says whether a server is a standby and how far it has replayed the WAL. */
const REPLAY_SQL = 'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn';

function transactionOn(db: Db): ReadDb['transaction'] {
  return (fn) => db.tx((tx) => fn(tx));
}

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), ms).unref())]);
}

/**
 * Routes the reads that may be a little stale to streaming replicas. A check every `pollMs`
 * compares each replica's replay position with the primary's WAL position and leaves out a replica
 * that fails or lags past the bound, taking it back once it has caught up. A session's reads go to
 * the primary for a while after its own write, and to a replica only once it holds that write.
 * A read that fails on a replica because of the replica runs again on the primary.
 */
export class ReadRouter {
  readonly #primaryProbe: Queryable;
  readonly #closeProbes: () => Promise<void>;
  readonly #primaryReads: ReadDb;
  readonly #replicas: Replica[];
  readonly #pollMs: number;
  readonly #rulesOf: () => Promise<RoutingRules>;
  readonly #log: ReadRouterOptions['log'];
  #rules: RoutingRules = DEFAULT_RULES;
  #samples: PrimarySample[] = [];
  readonly #lastWrites = new Map<number, number>();
  #turn = 0;
  #timer: NodeJS.Timeout | null = null;
  #checking: Promise<void> | null = null;
  #closed = false;
  /** Reads served, by target ('primary' or a replica's name), and reads run again on the primary. */
  readonly served = new Map<string, number>();
  retried = 0;

  constructor(o: ReadRouterOptions) {
    this.#primaryProbe = o.probes?.primary ?? o.primary;
    this.#closeProbes = o.probes ? () => o.probes!.close() : async () => undefined;
    this.#primaryReads = {
      query: (t, p, qo) => o.primary.query(t, p, qo),
      // The embedded database's cheaper way to read bytes stays available.
      ...(o.primary.readBytea ? { readBytea: o.primary.readBytea.bind(o.primary) } : {}),
      connection: (fn) => o.primary.connection(fn),
      transaction: transactionOn(o.primary),
    };
    this.#replicas = o.replicas.map((r, i) => ({ name: replicaName(r.url), db: r.db, probe: o.probes?.replicas[i] ?? r.db, healthy: false, caughtUpAt: null }));
    this.#pollMs = o.pollMs;
    this.#rulesOf = o.rules;
    this.#log = o.log;
  }

  get enabled(): boolean {
    return this.#replicas.length > 0;
  }

  /** Checks the replicas once now, then every pollMs. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.check();
    const next = () => {
      if (this.#closed) return;
      this.#timer = setTimeout(() => void this.check().finally(next), this.#pollMs);
      this.#timer.unref();
    };
    next();
  }

  /** One check of every replica (concurrent calls share it). */
  check(): Promise<void> {
    this.#checking ??= this.#checkNow().finally(() => (this.#checking = null));
    return this.#checking;
  }

  async #checkNow(): Promise<void> {
    this.#rules = await this.#rulesOf().catch(() => this.#rules);
    const limit = Math.max(1_000, this.#pollMs * 2);
    const at = Date.now();
    try {
      const { rows } = await withinMs(this.#primaryProbe.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'), limit);
      const lsn = lsnBytes(rows[0]?.lsn);
      if (lsn !== null) this.#samples.push({ at, lsn });
    } catch {
      // Without the primary's position no replica can be shown to have caught up: their lag grows.
    }
    await Promise.all(this.#replicas.map((r) => this.#checkReplica(r, limit)));
    const now = Date.now();
    const oldest = Math.min(...this.#replicas.map((r) => r.caughtUpAt ?? -Infinity));
    this.#samples = keepSamples(this.#samples, oldest);
    // A write older than this matters to no replica in service (see servesSession).
    const forgetBefore = now - Math.max(this.#rules.maxLagMs, this.#rules.writeWindowMs) - this.#pollMs;
    for (const [session, t] of this.#lastWrites) if (t < forgetBefore) this.#lastWrites.delete(session);
  }

  async #checkReplica(r: Replica, limit: number): Promise<void> {
    const wasIn = inService(r, Date.now(), this.#rules);
    try {
      const { rows } = await withinMs(r.probe.query<{ standby: boolean; lsn: string | null }>(REPLAY_SQL), limit);
      const replayed = lsnBytes(rows[0]?.lsn);
      // A promoted replica (not in recovery) follows a timeline of its own: it serves no read of this primary.
      r.healthy = rows[0]?.standby === true && replayed !== null;
      if (r.healthy) r.caughtUpAt = caughtUpAt(this.#samples, replayed!, r.caughtUpAt);
    } catch {
      r.healthy = false;
    }
    const now = Date.now();
    const isIn = inService(r, now, this.#rules);
    if (wasIn !== isIn) {
      const lag = lagMs(r, now);
      const detail = { replica: r.name, healthy: r.healthy, lagMs: Number.isFinite(lag) ? lag : null };
      if (isIn) this.#log?.info(detail, 'read replica taken back into service');
      else this.#log?.warn(detail, r.healthy ? 'read replica left out: it lags past the bound' : 'read replica left out: it does not answer as a standby');
    }
  }

  /** Remembers that a session has written (at the start and at the end of each write request). */
  noteWrite(session: number, at = Date.now()): void {
    if (this.enabled) this.#lastWrites.set(session, at);
  }

  /** Where the reads of one request of the session run; the choice is made once per request. */
  for(session: number | undefined): ReadDb {
    if (!this.enabled) return this.#primaryReads;
    const lastWrite = session === undefined ? null : (this.#lastWrites.get(session) ?? null);
    const i = pickReplica(this.#replicas, Date.now(), this.#rules, lastWrite, this.#turn++ % this.#replicas.length);
    if (i < 0) return this.#counted('primary', this.#primaryReads);
    const r = this.#replicas[i]!;
    const onReplica: ReadDb = { query: (t, p, qo) => r.db.query(t, p, qo), connection: (fn) => r.db.connection(fn), transaction: transactionOn(r.db) };
    return this.#counted(r.name, this.#fallingBack(r, onReplica));
  }

  /** The replica's reads, run again on the primary when the replica fails them (and left out until its next good check). */
  #fallingBack(r: Replica, onReplica: ReadDb): ReadDb {
    const again = async <T>(work: (db: ReadDb) => Promise<T>): Promise<T> => {
      try {
        return await work(onReplica);
      } catch (e) {
        if (!isReplicaFailure(e)) throw e;
        if (r.healthy) this.#log?.warn({ replica: r.name, code: (e as { code?: string }).code }, 'read replica left out: a read failed on it; reading from the primary');
        r.healthy = false;
        this.retried++;
        return work(this.#primaryReads);
      }
    };
    return {
      query: (t, p, qo) => again((db) => db.query(t, p, qo)),
      connection: (fn) => again((db) => db.connection(fn)),
      transaction: (fn) => again((db) => db.transaction(fn)),
    };
  }

  #counted(target: string, reads: ReadDb): ReadDb {
    this.served.set(target, (this.served.get(target) ?? 0) + 1);
    return reads;
  }

  states(): ReplicaState[] {
    const now = Date.now();
    return this.#replicas.map((r) => {
      const lag = lagMs(r, now);
      return { name: r.name, healthy: r.healthy, inService: inService(r, now, this.#rules), lagMs: Number.isFinite(lag) ? lag : null };
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#checking?.catch(() => undefined);
    await Promise.all(this.#replicas.map((r) => r.db.close().catch(() => undefined)));
    await this.#closeProbes().catch(() => undefined);
  }
}
