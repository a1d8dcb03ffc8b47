import type { Db } from '../db/types.js';

/** Whether the database answers a trivial statement within `timeoutMs`. */
export function databaseReachable(db: Db, timeoutMs: number): Promise<boolean> {
  return Promise.race([
    db.query('SELECT 1').then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref()),
  ]);
}

/**
 * Whether this instance should be sent new requests. It stops being ready as soon as it starts to
 * drain (a stop was asked for), before it stops listening, so that a load balancer polling the
 * readiness endpoint takes it out of rotation while it still answers the requests under way.
 */
export class Readiness {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }
}
