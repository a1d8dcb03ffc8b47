/**
 * The answers kept for Idempotency-Key. Infrastructure like the queue (the `dictum` schema, not
 * reachable through /models). One row per user, client, key, method and path: while its request
 * runs it holds no status (a lease says until when the run counts as alive); once answered it
 * holds the answer's status, headers and body bytes until it expires.
 */
export const IDEMPOTENCY_SCHEMA: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS dictum',
  `CREATE TABLE IF NOT EXISTS dictum.idempotent_request (
    ad_user_id bigint NOT NULL,
    ad_client_id bigint NOT NULL,
    idempotency_key text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    request_hash text NOT NULL,
    status integer,
    headers jsonb,
    body bytea,
    lease_until timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ad_user_id, ad_client_id, idempotency_key, method, path)
  )`,
  // Expired answers, which the sweep deletes.
  'CREATE INDEX IF NOT EXISTS idempotent_request_expires ON dictum.idempotent_request (expires_at)',
];
