import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import type { ReportHeading } from './pdf-table.js';

/** A moment as reports print it: "2026-11-28 09:05 UTC". */
export const runTime = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Who runs a report and when: the client (and organisation, when the login names one), now, the user's name. */
export async function reportHeading(q: Queryable, auth: AuthContext, at = new Date()): Promise<ReportHeading> {
  const { rows } = await q.query<{ client: string | null; org: string | null; usr: string | null }>(
    `SELECT (SELECT name FROM ad_client WHERE ad_client_id = $1) AS client,
            (SELECT name FROM ad_org WHERE ad_org_id = $2 AND ad_org_id <> 0) AS org,
            (SELECT name FROM ad_user WHERE ad_user_id = $3) AS usr`,
    [auth.clientId, auth.orgId, auth.userId],
  );
  const r = rows[0];
  return { company: [r?.client, r?.org].filter(Boolean).join(' · '), runAt: runTime(at), user: r?.usr ?? String(auth.userId) };
}

/** The heading as one line of text. */
export const headingText = (h: ReportHeading): string => `${h.company} · Run on ${h.runAt} by ${h.user}`;
