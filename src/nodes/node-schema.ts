/**
 * The node registry table. Like the queue it is infrastructure of the service itself (which instances
 * are alive, where they answer), so it lives in the `dictum` schema and is not reachable through /models.
 */
export const NODE_SCHEMA: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS dictum',
  `CREATE TABLE IF NOT EXISTS dictum.node (
    id text PRIMARY KEY,
    host_name text NOT NULL,
    port integer NOT NULL,
    url text NOT NULL,
    started_at timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
  )`,
];
