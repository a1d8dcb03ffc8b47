import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Queryable, Tx } from '../db/types.js';
import { badRequest, notFound } from '../errors.js';
import { parseFilter } from '../records/query/filter-parser.js';
import type { Services } from '../services.js';
import { registerBuiltins } from './builtins/register-builtins.js';
import { parseRunBody } from './parameters.js';
import { findProcess, listProcesses, processJson } from './process-definition.js';
import { queueProcessJob, registerProcessJobs } from './process-jobs.js';
import { slugify as processSlug } from '../dictionary/slug.js';
import { ProcessImplementations, resolveRecord, runProcess, runProcessIn, type ProcessResult } from './runner.js';

const todayOf = (): string => new Date().toISOString().slice(0, 10);

const byServices = new WeakMap<Services, ProcessImplementations>();

/** The process implementations of a running service (built-ins registered once). */
export function processImplementations(s: Services): ProcessImplementations {
  let impls = byServices.get(s);
  if (!impls) {
    impls = new ProcessImplementations();
    registerBuiltins(impls);
    byServices.set(s, impls);
  }
  return impls;
}

/** A run in a caller's transaction: a batch sub-request POST v1/processes/{slug}. */
export async function runProcessInTransaction(s: Services, auth: AuthContext, tx: Tx, slug: string, body: unknown): Promise<ProcessResult> {
  const def = await findProcess(tx, auth, slug);
  const request = parseRunBody(def.params, body, todayOf());
  const record = await resolveRecord(s, tx, auth, request);
  return runProcessIn(tx, { s, auth, def, request, record, impls: processImplementations(s) });
}

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

/** A job as the original shows it: id, client and user names, process slug, since, processing; a finished one adds its outcome. */
function jobJson(r: JobRow, slug: (value: string) => string): Record<string, unknown> {
  const created = r.created instanceof Date ? r.created : new Date(String(r.created).replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(r.created)) ? '' : 'Z'));
  const out: Record<string, unknown> = {
    id: Number(r.ad_pinstance_id),
    client: r.client,
    user: r.username,
    process: slug(r.value),
    since: created.toISOString().replace('T', ' ').slice(0, 19),
    processing: r.isprocessing === 'Y',
  };
  if (r.isprocessing !== 'Y' && r.result !== null) {
    const data = (typeof r.jsondata === 'string' ? JSON.parse(r.jsondata) : r.jsondata) as Record<string, unknown> | null;
    out.summary = r.errormsg ?? '';
    out.isError = Number(r.result) !== 1;
    if (data?.reportFileName) out.reportFileName = data.reportFileName;
    if (data?.archiveId) out.archiveId = data.archiveId;
  }
  return out;
}

async function jobs(q: Queryable, auth: AuthContext, id: number | null): Promise<JobRow[]> {
  const where = id === null ? `i.isprocessing = 'Y' AND i.isrunasjob = 'Y' AND i.isactive = 'Y'` : `i.isrunasjob = 'Y' AND i.ad_pinstance_id = $2`;
  const { rows } = await q.query<JobRow>(`${JOB_SELECT} WHERE i.ad_client_id = $1 AND ${where} ORDER BY i.ad_pinstance_id`, id === null ? [auth.clientId] : [auth.clientId, id]);
  return rows;
}

/** GET|POST /processes[/{slug}], GET /processes/jobs[/{id}], POST /processes/jobs/{slug}. */
export async function processRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const impls = processImplementations(s);
  registerProcessJobs(s, impls);

  app.get('/api/v1/processes', async (req) => {
    const q = req.query as Record<string, unknown>;
    // The upstream collection writes `filter` without the dollar sign.
    const text = q.$filter ?? q.filter;
    if (Array.isArray(text)) throw badRequest('Invalid query', '$filter is given more than once');
    const filter = typeof text === 'string' && text.trim() ? parseFilter(text) : undefined;
    return listProcesses(s.db, s.dictionary.current, req.auth, filter);
  });

  app.get('/api/v1/processes/jobs', async (req) => (await jobs(s.db, req.auth, null)).map((r) => jobJson(r, processSlug)));

  app.get('/api/v1/processes/jobs/:id', async (req) => {
    const { id } = req.params as { id: string };
    if (!/^\d{1,15}$/.test(id)) throw badRequest('Invalid job id', `Job id must be an integer: ${id}`);
    const [row] = await jobs(s.db, req.auth, Number(id));
    if (!row) throw notFound('Job not found', `No job found matching id ${id}`);
    return jobJson(row, processSlug);
  });

  app.post('/api/v1/processes/jobs/:slug', async (req) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug);
    return queueProcessJob(s, req.auth, def, req.body);
  });

  app.get('/api/v1/processes/:slug', async (req) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug);
    return processJson(s.db, s.dictionary.current, def);
  });

  app.post('/api/v1/processes/:slug', async (req) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug);
    const request = parseRunBody(def.params, req.body, todayOf());
    const record = await resolveRecord(s, s.db, req.auth, request);
    return runProcess({ s, auth: req.auth, def, request, record, impls });
  });
}
