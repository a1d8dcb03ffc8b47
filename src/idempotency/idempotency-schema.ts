/**
 * The answers kept for Idempotency-Key. Infrastructure like the queue (the `dictum` schema, not
 * reachable through /models). One row per user, client, method, path and key, found by a digest
 * of the five (`scopeDigest`): while its request runs it holds no status (a lease says until when
 * the run counts as alive); once answered it holds the answer's status, headers and body bytes
 * until it expires.
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
  'CREATE INDEX IF NOT EXISTS idempotent_request_expires ON dictum.idempotent_request (expires_at)',
];

/**
 * The digest a kept answer is found by, as SQL over the five parts (the same bytes as
 * `scopeDigest` hashes): a 32-byte key is cheaper to insert and compare than five columns.
 */
const SCOPE_DIGEST_SQL = (r: string) =>
  `sha256(convert_to(${r}.ad_user_id::text || E'\\n' || ${r}.ad_client_id::text || E'\\n' || ${r}.method || E'\\n' || ${r}.path || E'\\n' || ${r}.idempotency_key, 'UTF8'))`;

/**
 * The answers' table keyed by the scope's digest within the client (the client first: a
 * distributed database places the rows by it), its headers as JSON text (stored and returned as
 * they are, never queried) and a BRIN index for the sweep of expired rows (rows come in
 * expiry order; a BRIN index costs next to nothing per insert, where a B-tree costs a descent).
 * The answers kept so far move over; the old table stays for instances of the previous version
 * that still run during a rolling upgrade (docs/operations.md).
 */
export const KEPT_ANSWER_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS dictum.idempotent_answer (
    ad_client_id bigint NOT NULL,
    scope_digest bytea NOT NULL,
    ad_user_id bigint NOT NULL,
    idempotency_key text NOT NULL,
    request_hash text NOT NULL,
    status integer,
    headers text,
    body bytea,
    lease_until timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (ad_client_id, scope_digest)
  )`,
  'CREATE INDEX IF NOT EXISTS idempotent_answer_expires ON dictum.idempotent_answer USING brin (expires_at)',
  `INSERT INTO dictum.idempotent_answer (ad_client_id, scope_digest, ad_user_id, idempotency_key, request_hash, status, headers, body, lease_until, expires_at)
    SELECT r.ad_client_id, ${SCOPE_DIGEST_SQL('r')}, r.ad_user_id, r.idempotency_key, r.request_hash, r.status, r.headers::text, r.body, r.lease_until, r.expires_at
      FROM dictum.idempotent_request r WHERE r.expires_at > now()
    ON CONFLICT DO NOTHING`,
];
