import { ts, tsMillis } from '../auth/util.js';
import type { Queryable, Tx } from '../db/types.js';
import { endpointTotals, type AttemptResult } from './outcome.js';
import { notify } from '../db/notify.js';

/** NOTIFY channel that wakes the dispatchers of every instance: deliveries were written or became due. */
export const DELIVERY_CHANNEL = 'dictum_webhook_deliveries';

/** In Progress deliveries older than this are taken to have lost their worker (spec, Limits). */
export const IN_PROGRESS_RECOVERY_MS = 5 * 60_000;

/** Marks the dispatcher's statements as background work (test/helpers/statements.ts leaves them out). */
export const DISPATCHER_SQL_TAG = '/* webhook dispatcher */';

/** A claimed delivery with what sending it needs. */
export interface Claimed {
  id: number;
  clientId: number;
  endpointId: number;
  messageId: string;
  payload: string;
  /** Attempts with this one; also the fence of its outcome. */
  attempts: number;
  url: string;
  secret: string | null;
  previousSecret: string | null;
  previousExpiry: Date | null;
  isStandard: boolean;
}

type Row = Record<string, unknown>;

const toDate = (v: unknown): Date | null => {
  const ms = tsMillis(v);
  return ms === null ? null : new Date(ms);
};

/** Wakes the dispatchers when the caller's transaction commits. */
export async function notifyDeliveries(q: Queryable): Promise<void> {
  await notify(q, DELIVERY_CHANNEL, '');
}

/**
 * Claims up to `limit` deliveries in one statement (P → I): Pending ones that are due, and In
 * Progress ones whose worker died (locked longer than 5 minutes ago), of active unpaused endpoints.
 * FOR UPDATE SKIP LOCKED lets several instances claim side by side; a row another claim changed
 * meanwhile is re-checked and left out, so no delivery is sent by two of them.
 */
export async function claimDue(q: Queryable, now: Date, limit: number): Promise<Claimed[]> {
  const { rows } = await q.query<Row>(
    `${DISPATCHER_SQL_TAG} WITH due AS (
       SELECT l.rest_webhook_out_log_id AS id FROM rest_webhook_out_log l
         JOIN rest_webhook_out o ON o.rest_webhook_out_id = l.rest_webhook_out_id
        WHERE l.deliverystatus IN ('P', 'I') AND l.payload IS NOT NULL
          AND ((l.deliverystatus = 'P' AND (l.nextretryat IS NULL OR l.nextretryat <= $1)) OR (l.deliverystatus = 'I' AND (l.lockedat IS NULL OR l.lockedat < $2)))
          AND o.ispaused = 'N' AND o.isactive = 'Y'
        ORDER BY l.rest_webhook_out_log_id LIMIT $3
        FOR UPDATE OF l SKIP LOCKED)
     UPDATE rest_webhook_out_log l SET deliverystatus = 'I', lockedat = $1, attempts = COALESCE(l.attempts, 0) + 1, nextretryat = NULL, updated = $1
       FROM due, rest_webhook_out o
      WHERE l.rest_webhook_out_log_id = due.id AND o.rest_webhook_out_id = l.rest_webhook_out_id
     RETURNING l.rest_webhook_out_log_id AS id, l.ad_client_id, l.rest_webhook_out_id, l.webhookmessageid, l.payload, l.attempts,
               o.url, o.webhooksecret, o.previoussecret, o.previoussecretexpiry, o.isstandardwebhook`,
    [ts(now), ts(now.getTime() - IN_PROGRESS_RECOVERY_MS), limit],
  );
  return rows
    .map((r) => ({
      id: Number(r.id),
      clientId: Number(r.ad_client_id),
      endpointId: Number(r.rest_webhook_out_id),
      messageId: String(r.webhookmessageid),
      payload: String(r.payload ?? ''),
      attempts: Number(r.attempts),
      url: String(r.url),
      secret: (r.webhooksecret as string | null) || null,
      previousSecret: (r.previoussecret as string | null) || null,
      previousExpiry: toDate(r.previoussecretexpiry),
      isStandard: r.isstandardwebhook === 'Y',
    }))
    .sort((a, b) => a.id - b.id);
}

/** One attempt's end, ready to be written. */
export interface Recorded extends AttemptResult {
  delivery: Claimed;
  httpStatus: number | null;
  responseBody: string | null;
  errorMessage: string | null;
  at: Date;
}

/**
 * Writes a batch of attempts' ends: the deliveries in one statement, their endpoints' failure
 * counts in another. Only a delivery still In Progress under the same attempt is written (a claim
 * recovered and taken over by another worker meanwhile owns it now). Returns the endpoints that
 * this batch paused.
 */
export async function recordAttempts(tx: Tx, batch: readonly Recorded[]): Promise<{ written: number[]; paused: number[] }> {
  if (!batch.length) return { written: [], paused: [] };
  const col = <T>(f: (r: Recorded) => T): T[] => batch.map(f);
  const { rows } = await tx.query<{ id: number }>(
    `${DISPATCHER_SQL_TAG} UPDATE rest_webhook_out_log l
        SET deliverystatus = v.status, httpstatus = v.http, responsebody = v.body, errormessage = v.err, nextretryat = v.next, lockedat = NULL, updated = v.at
       FROM unnest($1::bigint[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::timestamp[], $8::timestamp[]) AS v(id, attempts, status, http, body, err, next, at)
      WHERE l.rest_webhook_out_log_id = v.id AND l.deliverystatus = 'I' AND l.attempts = v.attempts
      RETURNING l.rest_webhook_out_log_id AS id`,
    [
      col((r) => r.delivery.id),
      col((r) => r.delivery.attempts),
      col((r) => r.status),
      col((r) => r.httpStatus),
      col((r) => r.responseBody),
      col((r) => r.errorMessage),
      col((r) => (r.nextAttemptAt ? ts(r.nextAttemptAt) : null)),
      col((r) => ts(r.at)),
    ],
  );
  const written = new Set(rows.map((r) => Number(r.id)));
  const totals = endpointTotals(batch.filter((r) => written.has(r.delivery.id)).map((r) => ({ endpointId: r.delivery.endpointId, ok: r.ok, gone: r.gone, at: r.at })));
  if (!totals.length) return { written: [...written], paused: [] };
  const tcol = <T>(f: (t: (typeof totals)[number]) => T): T[] => totals.map(f);
  // Pauses at Max Consecutive Failures (0: never) when this batch added failures, and at once on 410 Gone.
  const { rows: endpoints } = await tx.query<{ id: number; paused: boolean }>(
    `${DISPATCHER_SQL_TAG} UPDATE rest_webhook_out o
        SET consecutivefailures = CASE WHEN v.reset THEN v.failures ELSE COALESCE(o.consecutivefailures, 0) + v.failures END,
            lastsuccessat = COALESCE(v.success, o.lastsuccessat), lastfailureat = COALESCE(v.failure, o.lastfailureat),
            ispaused = CASE WHEN v.gone OR (v.failures > 0 AND COALESCE(o.maxconsecutivefailures, 50) > 0
                              AND (CASE WHEN v.reset THEN 0 ELSE COALESCE(o.consecutivefailures, 0) END) + v.failures >= COALESCE(o.maxconsecutivefailures, 50))
                            THEN 'Y' ELSE o.ispaused END
       FROM unnest($1::bigint[], $2::boolean[], $3::int[], $4::timestamp[], $5::timestamp[], $6::boolean[]) AS v(id, reset, failures, success, failure, gone)
      WHERE o.rest_webhook_out_id = v.id
      RETURNING o.rest_webhook_out_id AS id, (o.ispaused = 'Y' AND v.failures > 0) AS paused`,
    [
      tcol((t) => t.endpointId),
      tcol((t) => t.reset),
      tcol((t) => t.failures),
      tcol((t) => (t.lastSuccessAt ? ts(t.lastSuccessAt) : null)),
      tcol((t) => (t.lastFailureAt ? ts(t.lastFailureAt) : null)),
      tcol((t) => t.gone),
    ],
  );
  return { written: [...written], paused: endpoints.filter((e) => e.paused).map((e) => Number(e.id)) };
}

/** Hands claims back (I → P) that this instance will not finish, e.g. at shutdown; `sent` ones keep their attempt. */
export async function releaseClaims(q: Queryable, claims: readonly { delivery: Claimed; sent: boolean }[], now: Date): Promise<void> {
  if (!claims.length) return;
  await q.query(
    `${DISPATCHER_SQL_TAG} UPDATE rest_webhook_out_log l SET deliverystatus = 'P', lockedat = NULL, attempts = CASE WHEN v.sent THEN l.attempts ELSE l.attempts - 1 END, updated = $3
       FROM unnest($1::bigint[], $2::int[], $4::boolean[]) AS v(id, attempts, sent)
      WHERE l.rest_webhook_out_log_id = v.id AND l.deliverystatus = 'I' AND l.attempts = v.attempts`,
    [claims.map((c) => c.delivery.id), claims.map((c) => c.delivery.attempts), ts(now), claims.map((c) => c.sent)],
  );
}

/** The retry processor's recovery: In Progress deliveries locked longer than 5 minutes ago go back to Pending. */
export async function recoverStalled(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query(`UPDATE rest_webhook_out_log SET deliverystatus = 'P', lockedat = NULL, updated = $2 WHERE deliverystatus = 'I' AND (lockedat IS NULL OR lockedat < $1)`, [
    ts(now.getTime() - IN_PROGRESS_RECOVERY_MS),
    ts(now),
  ]);
  return rowCount ?? 0;
}

/** Pending deliveries of active unpaused endpoints that are due now. */
export async function countDue(q: Queryable, now: Date): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM rest_webhook_out_log l JOIN rest_webhook_out o ON o.rest_webhook_out_id = l.rest_webhook_out_id
      WHERE l.deliverystatus = 'P' AND l.payload IS NOT NULL AND (l.nextretryat IS NULL OR l.nextretryat <= $1) AND o.ispaused = 'N' AND o.isactive = 'Y'`,
    [ts(now)],
  );
  return rows[0]?.n ?? 0;
}
