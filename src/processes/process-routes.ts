import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { badRequest, notFound } from '../errors.js';
import { parseFilter } from '../records/query/filter-parser.js';
import type { Services } from '../services.js';
import { assertIfMatch, ifMatchOf, rowVersion } from '../records/versions/row-version.js';
import { ident } from '../db/sql.js';
import type { Table } from '../dictionary/model.js';
import { registerBuiltins } from './builtins/register-builtins.js';
import { parseRunBody } from './parameters.js';
import { findProcess, listProcesses, processJson } from './process-definition.js';
import { cancelProcessJob, queueProcessJob, registerProcessJobs } from './process-jobs.js';
import { jobById, listedJobs } from './job-records.js';
import { ProcessImplementations, resolveRecord, runProcess, runProcessIn, type ProcessResult } from './runner.js';
import { ref, listOf } from '../openapi/answer-schemas.js';
import { OBJECT, documented } from '../openapi/route-schema.js';

/**
 * With If-Match, a process run on a record (a document action through its process) starts only
 * while the record is at that version (412 otherwise; 400 when the run names no record). The
 * process writes in transactions of its own, so this is checked as it starts, not held.
 */
async function assertRecordAt(s: Services, record: { table: Table; id: number } | null, ifMatch: string): Promise<void> {
  if (!record) throw badRequest('Invalid parameter', 'If-Match needs record-id naming the record of the run');
  const key = record.table.keyColumn!;
  const version = await rowVersion(s.db, record.table, (sql, alias) => `${ident(alias)}.${ident(key.dbName)} = ${sql.param(record.id)}`);
  assertIfMatch(record.table, String(record.id), ifMatch, version);
}

const todayOf = (): string => new Date().toISOString().slice(0, 10);

/** SysConfig: how long finished background jobs stay in GET /processes/jobs, in minutes (0: running jobs only, as the original). */
export const JOB_RETENTION_SETTING = 'REST_PROCESS_JOB_RETENTION_MINUTES';
export const DEFAULT_JOB_RETENTION_MINUTES = 1440;

function jobIdOf(params: unknown): number {
  const { id } = params as { id: string };
  if (!/^\d{1,15}$/.test(id)) throw badRequest('Invalid job id', `Job id must be an integer: ${id}`);
  return Number(id);
}

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
  const record = await resolveRecord(s, tx, auth, request, def);
  return runProcessIn(tx, { s, auth, def, request, record, impls: processImplementations(s) });
}

/** GET|POST /processes[/{slug}], GET /processes/jobs[/{id}], DELETE /processes/jobs/{id}, POST /processes/jobs/{slug}. */
export async function processRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const impls = processImplementations(s);
  registerProcessJobs(s, impls);

  app.get('/api/v1/processes', { schema: { summary: 'Processes and reports the role may run', queryNames: ['$filter'], answer: listOf('processes', ref('SlugRow')), example: { processes: [{ id: 110, Name: 'Order Print', slug: 'rpt_c_order', 'model-name': 'ad_process' }] } } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    // The upstream collection writes `filter` without the dollar sign.
    const text = q.$filter ?? q.filter;
    if (Array.isArray(text)) throw badRequest('Invalid query', '$filter is given more than once');
    const filter = typeof text === 'string' && text.trim() ? parseFilter(text) : undefined;
    return { processes: await listProcesses(s.db, s.dictionary.current, req.auth, filter) };
  });

  app.get('/api/v1/processes/jobs', { schema: { summary: 'Background process runs of the user', answer: listOf('jobs', ref('Job')), example: { jobs: [] } } }, async (req) => {
    const retention = await s.sysConfig.getInt(JOB_RETENTION_SETTING, DEFAULT_JOB_RETENTION_MINUTES, req.auth.clientId);
    return { jobs: await listedJobs(s.db, req.auth, Math.max(0, retention) * 60_000) };
  });

  app.get('/api/v1/processes/jobs/:id', { schema: { summary: 'A background process run', answer: ref('Job'), example: { id: 1000000, processing: false } } }, async (req) => {
    const job = await jobById(s.db, req.auth, jobIdOf(req.params));
    if (!job) throw notFound('Job not found', `No job found matching id ${(req.params as { id: string }).id}`);
    return job;
  });

  app.delete('/api/v1/processes/jobs/:id', { schema: { summary: 'Cancel a queued background run (200) or ask a running one to stop (202)', answer: ref('Job'), example: { id: 1000000, state: 'cancelled' } } }, async (req, reply) => {
    const { status, job } = await cancelProcessJob(s, req.auth, jobIdOf(req.params));
    return reply.code(status).send(job);
  });

  app.post('/api/v1/processes/jobs/:slug', { schema: { summary: 'Run a process in the background (202, Location names the run)', status: 202, body: documented(OBJECT), answer: ref('Job'), example: { 'record-id': 102 } } }, async (req, reply) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug);
    // Without notification-type the original mails the user and leaves a notice.
    const job = await queueProcessJob(s, req.auth, def, req.body, undefined, 'B');
    // Accepted: the run follows; its status is at Location (docs/compatibility.md).
    return reply.code(202).header('location', `/api/v1/processes/jobs/${job.id}`).send(job);
  });

  app.get('/api/v1/processes/:slug', { schema: { summary: 'A process with its parameters', answer: ref('SlugRow'), example: { id: 110, Name: 'Order Print', slug: 'rpt_c_order', parameters: [] } } }, async (req) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug, 'read');
    return processJson(s.db, s.dictionary.current, def);
  });

  app.post('/api/v1/processes/:slug', { schema: { summary: 'Run a process or report (parameters by column name; report-type PDF, HTML, CSV, XLS)', body: documented(OBJECT), answer: ref('ProcessInfo'), example: { 'record-id': 102, 'report-type': 'PDF' } } }, async (req) => {
    const { slug } = req.params as { slug: string };
    const def = await findProcess(s.db, req.auth, slug);
    const request = parseRunBody(def.params, req.body, todayOf());
    const record = await resolveRecord(s, s.db, req.auth, request, def);
    const ifMatch = ifMatchOf(req.headers);
    if (ifMatch !== undefined) await assertRecordAt(s, record, ifMatch);
    return runProcess({ s, auth: req.auth, def, request, record, impls });
  });
}
