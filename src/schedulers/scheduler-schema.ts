/**
 * One row per scheduler and due time: the instance that inserts it fires that run, every other
 * instance finds the row and does not. Infrastructure, in the `dictum` schema.
 */
export const SCHEDULER_SCHEMA: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS dictum',
  `CREATE TABLE IF NOT EXISTS dictum.scheduler_firing (
    ad_scheduler_id bigint NOT NULL,
    due_at timestamptz NOT NULL,
    node_id text NOT NULL,
    ad_pinstance_id bigint,
    summary text,
    is_error boolean NOT NULL DEFAULT false,
    fired_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ad_scheduler_id, due_at)
  )`,
];
