/**
 * The queue table. It is infrastructure (work items of the service itself, not business records), so it
 * lives in the `dictum` schema beside the migration table and is not reachable through /models: users see
 * the work it carries through the records it writes (AD_PInstance for process jobs).
 */
export const QUEUE_SCHEMA: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS dictum',
  `CREATE TABLE IF NOT EXISTS dictum.queue_item (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts > 0),
    run_at timestamptz NOT NULL,
    lease_owner text,
    lease_until timestamptz,
    result jsonb,
    error text,
    created_at timestamptz NOT NULL,
    finished_at timestamptz
  )`,
  // Due work of a kind, in the order it is claimed.
  `CREATE INDEX IF NOT EXISTS queue_item_due ON dictum.queue_item (kind, run_at, id) WHERE state = 'pending'`,
  // Leases that may expire (work of a stopped or crashed instance).
  `CREATE INDEX IF NOT EXISTS queue_item_lease ON dictum.queue_item (kind, lease_until) WHERE state = 'running'`,
];

/** NOTIFY channel that wakes the workers when work is added; its payload is the kind. */
export const QUEUE_CHANNEL = 'dictum_queue';
