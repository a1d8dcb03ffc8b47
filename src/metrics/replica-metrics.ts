import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadRouter } from '../db/read-replicas/read-router.js';
import { mirrorCounter } from './mirror-counter.js';


/**
 * The read replicas of this instance (DATABASE_READ_URL): each one's lag and whether it serves
 * reads, and where the reads that may be a little stale went. Nothing is shown without replicas.
 */
export function readReplicaMetrics(reads: ReadRouter, registers: Registry[]): void {
  if (!reads.enabled) return;
  new Gauge({
    name: 'dictum_db_replica_lag_seconds',
    help: 'How far a read replica is behind the primary: the age of the newest primary WAL position it has replayed (absent while unknown)',
    labelNames: ['replica'],
    registers,
    collect() {
      this.reset();
      for (const r of reads.states()) if (r.lagMs !== null) this.set({ replica: r.name }, r.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'dictum_db_replica_in_service',
    help: 'Whether a read replica serves reads (1) or is left out because it fails or lags past REST_READ_REPLICA_MAX_LAG_MS (0)',
    labelNames: ['replica'],
    registers,
    collect() {
      this.reset();
      for (const r of reads.states()) this.set({ replica: r.name }, r.inService ? 1 : 0);
    },
  });
  new Counter({
    name: 'dictum_db_read_requests_total',
    help: 'Requests of this instance whose reads may be a little stale, by where they were sent: primary or a replica',
    labelNames: ['target'],
    registers,
    collect() {
      mirrorCounter(this, [...reads.served].map(([target, n]) => [{ target }, n]));
    },
  });
  new Counter({
    name: 'dictum_db_replica_read_retries_total',
    help: 'Reads that failed on a replica because of the replica and ran again on the primary',
    registers,
    collect() {
      mirrorCounter(this, [[{}, reads.retried]]);
    },
  });
}
