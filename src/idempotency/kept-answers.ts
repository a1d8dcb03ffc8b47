import { createHash } from 'node:crypto';
import type { Queryable, Tx } from '../db/types.js';
import { toBuffer } from '../db/type-parsers.js';

/** Whose request a key belongs to, and which request: the same key elsewhere is another key. */
export interface KeyScope {
  userId: number;
  clientId: number;
  key: string;
  method: string;
  path: string;
}

/** An answer as it was sent: status, the headers that belong to it, the body's bytes. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'answered'; answer: KeptAnswer }
  | { kind: 'running' }
  /** The key was used for a request with another body. */
  | { kind: 'other-request' };

/** How long an answer is kept. */
export const KEPT_HOURS = 24;
/**
 * How long a run counts as alive without an answer. Past it the run is taken to have died with
 * its instance, and a retry runs the request again (longer work belongs in a background job).
 */
export const LEASE_SECONDS = 600;

const TABLE = 'dictum.idempotent_answer';
const KEY = 'ad_client_id = $1 AND scope_digest = $2';

/** The digest a key's row is found by: user, client, method, path and key, one per line (the same bytes as the migration's SQL). */
export function scopeDigest(s: KeyScope): Buffer {
  return createHash('sha256').update(`${s.userId}\n${s.clientId}\n${s.method}\n${s.path}\n${s.key}`, 'utf8').digest();
}
const keyValues = (s: KeyScope): unknown[] => [s.clientId, scopeDigest(s)];

// A row is taken when there is none, or when it expired, or when its run died (same request).
const TAKEN_WHEN = 'WHERE r.expires_at < now() OR (r.status IS NULL AND r.lease_until < now() AND r.request_hash = EXCLUDED.request_hash)';
const CLAIM = `INSERT INTO ${TABLE} AS r (ad_client_id, scope_digest, ad_user_id, idempotency_key, request_hash, lease_until, expires_at)
  VALUES ($1, $2, $3, $4, $5, now() + ${LEASE_SECONDS} * interval '1 second', now() + ${KEPT_HOURS} * interval '1 hour')
  ON CONFLICT (ad_client_id, scope_digest) DO UPDATE
    SET ad_user_id = EXCLUDED.ad_user_id, idempotency_key = EXCLUDED.idempotency_key, request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
        lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at
    ${TAKEN_WHEN}
  RETURNING 1 AS claimed`;
// The same, with the answer at once: a request whose work ran in this transaction keeps its answer as it takes the key.
const CLAIM_ANSWERED = `INSERT INTO ${TABLE} AS r (ad_client_id, scope_digest, ad_user_id, idempotency_key, request_hash, lease_until, expires_at, status, headers, body)
  VALUES ($1, $2, $3, $4, $5, now(), now() + ${KEPT_HOURS} * interval '1 hour', $6, $7, $8)
  ON CONFLICT (ad_client_id, scope_digest) DO UPDATE
    SET ad_user_id = EXCLUDED.ad_user_id, idempotency_key = EXCLUDED.idempotency_key, request_hash = EXCLUDED.request_hash, status = EXCLUDED.status,
        headers = EXCLUDED.headers, body = EXCLUDED.body, lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at
    ${TAKEN_WHEN}
  RETURNING 1 AS claimed`;
// The first answer to a key no row holds: a plain INSERT, whose unique check is all it costs
// beyond the row (no speculative insertion); a row of the key fails it with a unique violation.
const KEEP_FIRST = `INSERT INTO ${TABLE} (ad_client_id, scope_digest, ad_user_id, idempotency_key, request_hash, lease_until, expires_at, status, headers, body)
  VALUES ($1, $2, $3, $4, $5, now(), now() + ${KEPT_HOURS} * interval '1 hour', $6, $7, $8)`;
const FIND = `SELECT request_hash, status, headers, body, expires_at < now() AS expired, lease_until < now() AS lease_over FROM ${TABLE} WHERE ${KEY}`;

/**
 * What became of the request that holds the key, if one does. A row a claim would take (expired,
 * or left by a run that died, for the same request) holds nothing: null.
 */
export async function findClaim(q: Queryable, scope: KeyScope, requestHash: string): Promise<Exclude<Claim, { kind: 'claimed' }> | null> {
  const { rows } = await q.query<{ request_hash: string; status: number | null; headers: Record<string, string> | string | null; body: unknown; expired: boolean; lease_over: boolean }>(
    FIND,
    keyValues(scope),
    { name: 'idempotency_find_live' },
  );
  const row = rows[0];
  if (!row || row.expired || (row.status === null && row.lease_over && row.request_hash === requestHash)) return null;
  if (row.request_hash !== requestHash) return { kind: 'other-request' };
  if (row.status === null) return { kind: 'running' };
  const headers = typeof row.headers === 'string' ? (JSON.parse(row.headers) as Record<string, string>) : (row.headers ?? {});
  return { kind: 'answered', answer: { status: Number(row.status), headers, body: toBuffer(row.body) ?? Buffer.alloc(0) } };
}

/** Takes the key for this request, or tells what became of the request that took it first. */
export async function claimKey(q: Queryable, scope: KeyScope, requestHash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const taken = await q.query(CLAIM, [...keyValues(scope), scope.userId, scope.key, requestHash], { name: 'idempotency_claim' });
    if (taken.rows.length) return { kind: 'claimed' };
    const found = await findClaim(q, scope, requestHash);
    if (found) return found;
    // released between the two statements: claim again
  }
  return { kind: 'running' };
}

/**
 * Takes the key and keeps the answer in one statement, at the end of the work's transaction; when
 * another request holds the key, tells what became of it (the caller then rolls its work back).
 * A concurrent run of the same key waits here on the first one's row until that one commits.
 */
export async function claimAnswered(q: Queryable, scope: KeyScope, requestHash: string, answer: KeptAnswer): Promise<Claim> {
  const taken = await q.query(CLAIM_ANSWERED, [...keyValues(scope), scope.userId, scope.key, requestHash, answer.status, JSON.stringify(answer.headers), answer.body], {
    name: 'idempotency_claim_answered',
  });
  if (taken.rows.length) return { kind: 'claimed' };
  return (await findClaim(q, scope, requestHash)) ?? { kind: 'running' };
}

/**
 * Takes a key no row holds and keeps its answer, as the last statement of the work's transaction,
 * and commits the transaction (in the same round trip where the database allows). When a row of
 * the key is there, or comes while this runs (a concurrent run of the key: the statement waits
 * for it to commit or roll back), the statement fails with a unique violation (`isKeyHeld`) and
 * nothing commits.
 */
export async function keepFirstAnswer(tx: Tx, scope: KeyScope, requestHash: string, answer: KeptAnswer): Promise<void> {
  const values = [...keyValues(scope), scope.userId, scope.key, requestHash, answer.status, JSON.stringify(answer.headers), answer.body];
  const o = { name: 'idempotency_keep_first' };
  if (tx.commitWith) await tx.commitWith(KEEP_FIRST, values, o);
  else await tx.query(KEEP_FIRST, values, o);
}

/** Whether an error is keepFirstAnswer's unique violation: a row of the key was there. */
export function isKeyHeld(e: unknown): boolean {
  const err = e as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!err || err.code !== '23505') return false;
  return err.constraint === 'idempotent_answer_pkey' || (typeof err.message === 'string' && err.message.includes('"idempotent_answer_pkey"'));
}

/** Keeps the answer of a claimed key. */
export async function keepAnswer(q: Queryable, scope: KeyScope, answer: KeptAnswer): Promise<void> {
  await q.query(`UPDATE ${TABLE} SET status = $3, headers = $4, body = $5 WHERE ${KEY}`, [...keyValues(scope), answer.status, JSON.stringify(answer.headers), answer.body], {
    name: 'idempotency_keep',
  });
}

/** Gives a claimed key up (the request failed on the server's side): a retry runs it again. */
export async function releaseKey(q: Queryable, scope: KeyScope): Promise<void> {
  await q.query(`DELETE FROM ${TABLE} WHERE ${KEY} AND status IS NULL`, keyValues(scope));
}

/** Deletes expired answers. */
export async function sweepExpiredAnswers(q: Queryable): Promise<number> {
  const r = await q.query(`DELETE FROM ${TABLE} WHERE expires_at < now()`);
  return r.rowCount;
}
