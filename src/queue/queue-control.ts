/**
 * Control of queued work beside the items (migration 161): when an item started, a cancellation
 * asked for, and the progress its handler reports. Cancellations and progress live in a table of
 * their own because a running item's row stays locked by the transaction that completes it: a
 * request that cancels, or a handler that reports progress from another connection, must not wait
 * for that transaction (which is also why item_id has no foreign key: its check would lock the item's row).
 */
export const QUEUE_CONTROL_SCHEMA: readonly string[] = [
  'ALTER TABLE dictum.queue_item ADD COLUMN IF NOT EXISTS started_at timestamptz',
  'ALTER TABLE dictum.queue_item DROP CONSTRAINT IF EXISTS queue_item_state_check',
  `ALTER TABLE dictum.queue_item ADD CONSTRAINT queue_item_state_check CHECK (state IN ('pending', 'running', 'done', 'failed', 'cancelled'))`,
  `CREATE TABLE IF NOT EXISTS dictum.queue_control (
    item_id bigint PRIMARY KEY,
    cancel_requested_at timestamptz,
    progress double precision CHECK (progress >= 0 AND progress <= 1),
    progress_at timestamptz
  )`,
  // The item of a background process run, found from its AD_PInstance.
  `CREATE INDEX IF NOT EXISTS queue_item_process_instance ON dictum.queue_item (((payload->>'instanceId')::bigint)) WHERE kind = 'process'`,
];

/** NOTIFY channel on which a cancellation reaches the instance that runs the item; its payload is the item id. */
export const QUEUE_CANCEL_CHANNEL = 'dictum_queue_cancel';

/** Why a handler's signal aborted when its item was cancelled. */
export class CancelledError extends Error {
  constructor(readonly itemId: number) {
    super(`queue item ${itemId} was cancelled`);
  }
}
