/**
 * The decisions of read routing, kept free of connections and clocks so that they can be tested
 * alone: how stale a replica is, whether it may serve a session's read, and which errors mean the
 * replica itself failed (the read then runs again on the primary).
 */

/** A WAL position ('16/B374D848') as a number of bytes; null when absent or malformed. */
export function lsnBytes(lsn: string | null | undefined): bigint | null {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn ?? '');
  if (!m) return null;
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/** A primary's WAL position seen at a moment (epoch ms). */
export interface PrimarySample {
  at: number;
  lsn: bigint;
}

/**
 * The latest moment up to which a replica holds every commit of the primary: the time of the
 * newest sample whose position it has replayed (a commit that returned before a sample was taken
 * lies before that sample's position). `previous` is kept when no sample qualifies, so a replica
 * that stops replaying keeps its old moment and its lag grows with the clock.
 */
export function caughtUpAt(samples: readonly PrimarySample[], replayed: bigint, previous: number | null): number | null {
  let best = previous;
  for (const s of samples) {
    if (s.lsn <= replayed && (best === null || s.at > best)) best = s.at;
  }
  return best;
}

/** Samples older than the newest one the replicas no longer need: each replica's moment only moves forward. */
export function keepSamples(samples: readonly PrimarySample[], oldestNeeded: number, max = 256): PrimarySample[] {
  const kept = samples.filter((s) => s.at >= oldestNeeded);
  return kept.length > max ? kept.slice(kept.length - max) : kept;
}

/** What the router knows of one replica. */
export interface ReplicaView {
  /** Its last check succeeded and no read on it has failed since. */
  healthy: boolean;
  /** See caughtUpAt; null before the first successful check. */
  caughtUpAt: number | null;
}

export interface RoutingRules {
  /** A replica more than this far behind the primary serves no read (ms). */
  maxLagMs: number;
  /** A session's reads go to the primary this long after its last write (ms). */
  writeWindowMs: number;
}

/** How far behind the primary a replica is now (ms); Infinity when unknown. */
export function lagMs(r: ReplicaView, now: number): number {
  return r.caughtUpAt === null ? Infinity : Math.max(0, now - r.caughtUpAt);
}

/** Whether the replica takes reads at all: it answers, and it lags no more than the bound. */
export function inService(r: ReplicaView, now: number, rules: RoutingRules): boolean {
  return r.healthy && lagMs(r, now) <= rules.maxLagMs;
}

/**
 * Whether the replica may serve a read of a session whose last write ended at `lastWrite` (null:
 * none remembered). After a write, the session reads from the primary for the window, and from a
 * replica only once that replica holds everything committed before the write ended.
 */
export function servesSession(r: ReplicaView, now: number, rules: RoutingRules, lastWrite: number | null): boolean {
  if (!inService(r, now, rules)) return false;
  if (lastWrite === null) return true;
  return now - lastWrite >= rules.writeWindowMs && r.caughtUpAt! > lastWrite;
}

/**
 * The replica for the next read: the replicas that may serve it taken in turn from `turn`; -1 for
 * the primary.
 */
export function pickReplica(replicas: readonly ReplicaView[], now: number, rules: RoutingRules, lastWrite: number | null, turn: number): number {
  const n = replicas.length;
  for (let k = 0; k < n; k++) {
    const i = (turn + k) % n;
    if (servesSession(replicas[i]!, now, rules, lastWrite)) return i;
  }
  return -1;
}

/**
 * Errors that say the replica could not run the read, not that the read is wrong: no connection,
 * a lost one, a server shutting down or not accepting connections, or a query cancelled because
 * replay needed what it read. The read is then run again on the primary.
 */
const REPLICA_FAILURE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '40001', '53300']);

export function isReplicaFailure(e: unknown): boolean {
  for (let x = e as { code?: unknown; errors?: unknown[]; cause?: unknown } | undefined, depth = 0; x && depth < 4; x = x.cause as typeof x, depth++) {
    if (typeof x.code === 'string' && (REPLICA_FAILURE_CODES.has(x.code) || x.code.startsWith('08'))) return true;
    for (const inner of x.errors ?? []) {
      const code = (inner as { code?: unknown }).code;
      if (typeof code === 'string' && REPLICA_FAILURE_CODES.has(code)) return true;
    }
  }
  return e instanceof Error && /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message);
}
