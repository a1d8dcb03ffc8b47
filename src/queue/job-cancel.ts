import type { Tx } from '../db/types.js';
import type { CancelOutcome, KindOptions, QueueState } from './job-queue.js';
import { QUEUE_CANCEL_CHANNEL } from './queue-control.js';

/**
 * Cancels a queue item inside the caller's transaction: a pending item ends cancelled at once (the
 * kind's `onCancel` runs in the same transaction); for a running one the cancellation is recorded
 * beside it and announced to the instance that runs it, which stops and rolls its work back.
 */
export async function cancelItem(tx: Tx, id: number, now: Date, onCancelOf: (kind: string) => KindOptions['onCancel']): Promise<CancelOutcome> {
  const { rows } = await tx.query<{ kind: string; payload: unknown }>(
    `UPDATE dictum.queue_item SET state = 'cancelled', finished_at = $2, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND state = 'pending' RETURNING kind, payload`,
    [id, now],
  );
  if (rows[0]) {
    await onCancelOf(rows[0].kind)?.(tx, { id, payload: rows[0].payload });
    return { outcome: 'cancelled' };
  }
  // A plain read: it does not wait for the lock that a running item's transaction holds.
  const { rows: current } = await tx.query<{ state: QueueState }>('SELECT state FROM dictum.queue_item WHERE id = $1', [id]);
  const state = current[0]?.state;
  if (!state) return { outcome: 'missing' };
  if (state !== 'running') return { outcome: 'finished', state };
  await tx.query(
    `INSERT INTO dictum.queue_control (item_id, cancel_requested_at) VALUES ($1, $2)
     ON CONFLICT (item_id) DO UPDATE SET cancel_requested_at = COALESCE(dictum.queue_control.cancel_requested_at, EXCLUDED.cancel_requested_at)`,
    [id, now],
  );
  await tx.notify(QUEUE_CANCEL_CHANNEL, String(id));
  return { outcome: 'requested' };
}
