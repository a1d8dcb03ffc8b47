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
  queue_state: string | null;
  queued_at: Date | string | null;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  progress: number | null;
  cancel_requested: boolean | null;
}

/** The states of a background job, from its instance and its queue item. */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

const JOB_SELECT = `SELECT i.ad_pinstance_id, c.name AS client, u.name AS username, p.value, i.created, i.isprocessing, i.errormsg, i.result, i.jsondata,
       q.state AS queue_state, q.created_at AS queued_at, q.started_at, q.finished_at, qc.progress, qc.cancel_requested_at IS NOT NULL AS cancel_requested
  FROM ad_pinstance i JOIN ad_process p ON p.ad_process_id = i.ad_process_id
  LEFT JOIN ad_client c ON c.ad_client_id = i.ad_client_id LEFT JOIN ad_user u ON u.ad_user_id = i.createdby
  LEFT JOIN dictum.queue_item q ON q.kind = 'process' AND (q.payload->>'instanceId')::bigint = i.ad_pinstance_id
  LEFT JOIN dictum.queue_control qc ON qc.item_id = q.id`;

function stateOf(r: JobRow): JobState {
  if (r.queue_state === 'cancelled') return 'cancelled';
  if (r.isprocessing === 'Y') return r.queue_state === 'running' ? 'running' : r.queue_state === 'failed' ? 'failed' : 'queued';
  return r.result !== null && Number(r.result) === 1 ? 'done' : 'failed';
}

const isoOf = (t: Date | string | null): string | null => (t === null ? null : new Date(t).toISOString());

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
  // Additive to the original's fields: the state, progress and times of the run.
  const state = stateOf(r);
  out.state = state;
  out.progress = r.progress === null ? null : Number(r.progress);
  out.queuedAt = isoOf(r.queued_at);
  out.startedAt = state === 'queued' ? null : isoOf(r.started_at);
  out.endedAt = state === 'queued' || state === 'running' ? null : isoOf(r.finished_at);
  out.cancelRequested = r.cancel_requested === true;
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

/**
 * GET /processes/jobs: the background jobs of the caller's client that wait or run, and those that
 * ended less than `retentionMs` ago (0: the running ones only, as the original lists them).
 */
export async function listedJobs(q: Queryable, auth: AuthContext, retentionMs: number): Promise<Record<string, unknown>[]> {
  const since = new Date(Date.now() - Math.max(0, retentionMs)).toISOString();
  const { rows } = await q.query<JobRow>(
    `${JOB_SELECT} WHERE i.ad_client_id = $1 AND i.isrunasjob = 'Y' AND i.isactive = 'Y'
        AND (i.isprocessing = 'Y' OR ($3 AND (q.finished_at >= $2::timestamptz OR (q.id IS NULL AND i.updated >= $2::timestamp))))
      ORDER BY i.ad_pinstance_id`,
    [auth.clientId, since, retentionMs > 0],
  );
  return rows.map(jobJson);
}

/** One background job of the caller's client, or null. */
export async function jobById(q: Queryable, auth: AuthContext, id: number): Promise<Record<string, unknown> | null> {
  const { rows } = await q.query<JobRow>(`${JOB_SELECT} WHERE i.ad_client_id = $1 AND i.isrunasjob = 'Y' AND i.ad_pinstance_id = $2`, [auth.clientId, id]);
  return rows[0] ? jobJson(rows[0]) : null;
}
