import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { slugify as processSlug } from '../dictionary/slug.js';

interface JobRow {
  ad_pinstance_id: number;
  client: string | null;
  username: string | null;
  value: string;
  created: unknown;
  isprocessing: string;
  errormsg: string | null;
  result: number | null;
  jsondata: unknown;
}

const JOB_SELECT = `SELECT i.ad_pinstance_id, c.name AS client, u.name AS username, p.value, i.created, i.isprocessing, i.errormsg, i.result, i.jsondata
  FROM ad_pinstance i JOIN ad_process p ON p.ad_process_id = i.ad_process_id
  LEFT JOIN ad_client c ON c.ad_client_id = i.ad_client_id LEFT JOIN ad_user u ON u.ad_user_id = i.createdby`;

/** A timestamp as the original writes a job's start: date and time to the second, without zone. */
function sinceOf(created: unknown): string {
  const text = String(created);
  const date = created instanceof Date ? created : new Date(text.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? '' : 'Z'));
  return date.toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * A job as the original shows it (id, client and user names, process slug, since, processing);
 * a finished one adds its outcome (summary, isError, its file's name and archive), which the
 * original does not keep on the job.
 */
function jobJson(r: JobRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: Number(r.ad_pinstance_id),
    client: r.client,
    user: r.username,
    process: processSlug(r.value),
    since: sinceOf(r.created),
    processing: r.isprocessing === 'Y',
  };
  if (r.isprocessing !== 'Y' && r.result !== null) {
    const data = (typeof r.jsondata === 'string' ? JSON.parse(r.jsondata) : r.jsondata) as Record<string, unknown> | null;
    out.summary = r.errormsg ?? '';
    out.isError = Number(r.result) !== 1;
    if (data?.reportFileName) out.reportFileName = data.reportFileName;
    if (data?.exportFileName) out.exportFileName = data.exportFileName;
    if (data?.archiveId) out.archiveId = data.archiveId;
  }
  return out;
}

/** GET /processes/jobs: the running background jobs of the caller's client. */
export async function runningJobs(q: Queryable, auth: AuthContext): Promise<Record<string, unknown>[]> {
  const { rows } = await q.query<JobRow>(`${JOB_SELECT} WHERE i.ad_client_id = $1 AND i.isprocessing = 'Y' AND i.isrunasjob = 'Y' AND i.isactive = 'Y' ORDER BY i.ad_pinstance_id`, [
    auth.clientId,
  ]);
  return rows.map(jobJson);
}

/** One background job of the caller's client, or null. */
export async function jobById(q: Queryable, auth: AuthContext, id: number): Promise<Record<string, unknown> | null> {
  const { rows } = await q.query<JobRow>(`${JOB_SELECT} WHERE i.ad_client_id = $1 AND i.isrunasjob = 'Y' AND i.ad_pinstance_id = $2`, [auth.clientId, id]);
  return rows[0] ? jobJson(rows[0]) : null;
}
