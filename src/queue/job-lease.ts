import type { Db, Queryable, Tx } from '../db/types.js';

/** Thrown when the claim on an item no longer holds: another instance took it over. */
export class LeaseLostError extends Error {
  constructor(readonly itemId: number) {
    super(`the lease on queue item ${itemId} was lost`);
  }
}

/** A running item as its claim holds it: id, the claiming instance and the attempt. */
export interface Claimed {
  id: number;
  owner: string;
  attempt: number;
}

/** Locks the item if this claim still holds it; LeaseLostError otherwise. */
export async function fence(tx: Queryable, c: Claimed): Promise<void> {
  const { rows } = await tx.query(`SELECT 1 FROM dictum.queue_item WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempts = $3 FOR UPDATE`, [c.id, c.owner, c.attempt]);
  if (!rows.length) throw new LeaseLostError(c.id);
}

/** Records how an item ended and releases its lease. */
export async function markEnded(tx: Queryable, id: number, state: 'done' | 'failed' | 'cancelled', result: unknown, error: string | null, now: Date): Promise<void> {
  await tx.query(`UPDATE dictum.queue_item SET state = $2, result = $3, error = $4, lease_owner = NULL, lease_until = NULL, finished_at = $5 WHERE id = $1`, [
    id,
    state,
    result === null ? null : JSON.stringify(result),
    error,
    now,
  ]);
}

/**
 * Runs `work` in a transaction fenced by the claim; a lost lease is not an error here (the
 * claim that took the item over finishes it).
 */
export async function underClaim(db: Db, c: Claimed, work: (tx: Tx) => Promise<void>): Promise<void> {
  await db
    .tx(async (tx) => {
      await fence(tx, c);
      await work(tx);
    })
    .catch((e) => {
      if (!(e instanceof LeaseLostError)) throw e;
    });
}

/** Puts a failed item back to wait for its next attempt. */
export async function retryAt(tx: Queryable, id: number, runAt: Date, error: string): Promise<void> {
  await tx.query(`UPDATE dictum.queue_item SET state = 'pending', run_at = $2, error = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1`, [id, runAt, error]);
}

/** Extends the lease while the handler works; false when the claim no longer holds the item. */
export async function renewLease(db: Db, c: Claimed, until: Date): Promise<boolean> {
  try {
    const { rowCount } = await db.query(`UPDATE dictum.queue_item SET lease_until = $4 WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempts = $3`, [
      c.id,
      c.owner,
      c.attempt,
      until,
    ]);
    return rowCount > 0;
  } catch {
    return true; // a failed renewal is not a lost lease; the fence decides at completion
  }
}
