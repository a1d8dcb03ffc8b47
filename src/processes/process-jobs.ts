import type { AccessClaims } from '../auth/service.js';
import type { AuthContext } from '../auth/context.js';
import { ts } from '../auth/util.js';
import type { Queryable, Tx } from '../db/types.js';
import { insertRecord } from '../records/write/persist.js';
import { createWriteContext } from '../records/write/write-context.js';
import type { Services } from '../services.js';
import { parseRunBody, type NotificationType } from './parameters.js';
import { jobById } from './job-records.js';
import { finishInstance } from './process-instance.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { processById, type ProcessDef } from './process-definition.js';
import { assertNotRunning, executeInstance, PINSTANCE_TABLE_ID, resolveRecord, startInstance, type ProcessImplementations, type ProcessResult } from './runner.js';

/** Queue kind of background process runs. */
export const PROCESS_JOB_KIND = 'process';

/** What a queued run carries: the instance, the caller (as token claims) and the request body as sent. */
interface ProcessJobPayload {
  instanceId: number;
  processId: number;
  claims: AccessClaims;
  body: unknown;
  /** The notification decided when the job was queued (the body's, else the resource's default). */
  notificationType?: NotificationType | null;
}

const todayOf = (): string => new Date().toISOString().slice(0, 10);

function claimsOf(auth: AuthContext): AccessClaims {
  return {
    AD_Client_ID: auth.clientId,
    AD_User_ID: auth.userId,
    AD_Role_ID: auth.roleId,
    AD_Org_ID: auth.orgId,
    ...(auth.warehouseId > 0 ? { M_Warehouse_ID: auth.warehouseId } : {}),
    AD_Language: auth.language,
    AD_Session_ID: auth.sessionId,
  };
}

/** The scheduling information a background run answers with: the job as GET /processes/jobs/{id} shows it. */
export type JobInfo = { id: number } & Record<string, unknown>;

/**
 * POST /processes/jobs/{slug}: checks the request as a run would (parameters, record, access,
 * concurrency), records the AD_PInstance (IsRunAsJob, IsProcessing) and queues the run in one
 * transaction. Any instance's worker picks it up. `first` claims what the run belongs to (a
 * scheduler's firing) in that transaction, and may answer a function that links the claim to the
 * instance once its id is known, still in that transaction; `defaultNotification` applies when the body names none
 * (the REST resource notifies by mail and notice, as the original's does).
 */
export async function queueProcessJob(
  s: Services,
  auth: AuthContext,
  def: ProcessDef,
  body: unknown,
  first?: (tx: Tx) => Promise<void | ((instanceId: number) => Promise<void>)>,
  defaultNotification?: NotificationType,
): Promise<JobInfo> {
  const request = parseRunBody(def.params, body, todayOf());
  if (request.notificationType === null && defaultNotification) request.notificationType = defaultNotification;
  const record = await resolveRecord(s, s.db, auth, request, def);
  const o = { s, auth, def, request, record };
  await assertNotRunning(s.db, o);
  return s.db.tx(async (tx) => {
    // A scheduler claims its firing here: the claim and the queued run commit together or not at all.
    const link = first ? await first(tx) : undefined;
    const id = await startInstance(tx, o, true);
    if (link) await link(id);
    const payload: ProcessJobPayload = { instanceId: id, processId: def.id, claims: claimsOf(auth), body: body ?? {}, notificationType: request.notificationType };
    await s.queue.enqueue(tx, PROCESS_JOB_KIND, payload);
    // Read before the commit, so that the answer shows the job waiting even if a worker is quicker.
    const job = await jobById(tx, auth, id);
    return { ...job, id };
  });
}

/**
 * The worker of background runs: the process and its outcome, the instance's end and the
 * notification are one transaction, the one that completes the queue item (so a run that a crash
 * interrupted runs again on another instance, and none completes twice). A failing process is
 * not retried: its error is its outcome.
 */
export function registerProcessJobs(s: Services, impls: ProcessImplementations): void {
  s.queue.register<ProcessJobPayload>(
    PROCESS_JOB_KIND,
    async (item, ctx) => {
      const p = item.payload;
      const auth = await s.auth.contextOf(p.claims);
      const def = await processById(s.db, p.processId);
      const request = parseRunBody(def.params, p.body, todayOf());
      if (p.notificationType !== undefined) request.notificationType = p.notificationType;
      return ctx.complete(async (tx) => {
        const record = await resolveRecord(s, tx, auth, request, def);
        const result = await executeInstance(tx, { s, auth, def, request, record, impls, job: ctx }, p.instanceId);
        await notify(s, tx, auth, def, request.notificationType, result);
        return { AD_PInstance_ID: result.AD_PInstance_ID, isError: result.isError, summary: result.summary };
      });
    },
    { concurrency: 2, maxConcurrency: 4, leaseMs: 5 * 60_000, maxAttempts: 3, onCancel: (tx, item) => endCancelledInstance(tx, (item.payload as ProcessJobPayload).instanceId) },
  );
}

/** The summary of a cancelled job's instance. */
export const CANCELLED_SUMMARY = 'Cancelled';

/** A cancelled job's instance ends as an error, without output and without notification. */
async function endCancelledInstance(tx: Tx, instanceId: number): Promise<void> {
  await finishInstance(tx, instanceId, true, CANCELLED_SUMMARY, { summary: CANCELLED_SUMMARY, isError: true });
}

/** E: a mail through the mail layer of password reset; N: an AD_Note for the user, readable through /models; B: both. */
async function notify(s: Services, tx: Tx, auth: AuthContext, def: ProcessDef, type: 'E' | 'N' | 'B' | null, r: ProcessResult): Promise<void> {
  if (!type) return;
  const text = `${def.name}\n${r.summary}${r.reportFileName ? `\nReport: ${r.reportFileName}` : ''}${r.exportFileName ? `\nExport: ${r.exportFileName}` : ''}`;
  if (type === 'E' || type === 'B') {
    const email = await emailOf(tx, auth.userId);
    if (email) await s.auth.mailer.send(tx, { to: email, subject: `${def.name} (${r.AD_PInstance_ID})`, text, language: auth.language, clientId: auth.clientId });
    else s.log.warn({ user: auth.userId, instance: r.AD_PInstance_ID }, 'background process finished; the user has no e-mail address to notify');
  }
  if (type === 'N' || type === 'B') {
    const dict = s.dictionary.current;
    const wc = createWriteContext(dict, auth, tx, s.events);
    await insertRecord(wc, dict.byName.get('ad_note')!, {
      AD_User_ID: auth.userId,
      AD_Message_ID: JOB_MESSAGE_ID,
      AD_Table_ID: PINSTANCE_TABLE_ID,
      Record_ID: r.AD_PInstance_ID,
      Reference: `${def.name} ${ts(Date.now()).slice(0, 19).replace('T', ' ')}`.slice(0, 255),
      TextMsg: text.slice(0, 2000),
    });
    await wc.deferred.flush();
  }
}

/** AD_Message "BackgroundJob" (seed), the message of job notices as in the original. */
const JOB_MESSAGE_ID = 200530;

async function emailOf(q: Queryable, userId: number): Promise<string | null> {
  const { rows } = await q.query<{ email: string | null }>(`SELECT email FROM ad_user WHERE ad_user_id = $1`, [userId]);
  const e = rows[0]?.email?.trim();
  return e ? e : null;
}

/**
 * DELETE /processes/jobs/{id}: a queued job is cancelled at once (200), a running one is asked to
 * stop (202; its work rolls back and it ends cancelled). Its creator or a client administrator may.
 */
export async function cancelProcessJob(s: Services, auth: AuthContext, id: number): Promise<{ status: 200 | 202; job: JobInfo }> {
  const { rows } = await s.db.query<{ createdby: number; item: string | number | null }>(
    `SELECT i.createdby, q.id AS item FROM ad_pinstance i
       LEFT JOIN dictum.queue_item q ON q.kind = 'process' AND (q.payload->>'instanceId')::bigint = i.ad_pinstance_id
      WHERE i.ad_client_id = $1 AND i.isrunasjob = 'Y' AND i.ad_pinstance_id = $2
      ORDER BY q.id DESC LIMIT 1`,
    [auth.clientId, id],
  );
  const found = rows[0];
  if (!found) throw notFound('Job not found', `No job found matching id ${id}`);
  if (Number(found.createdby) !== auth.userId && !auth.isClientAdministrator) throw forbidden('Access denied', 'Only the user who queued a job or a client administrator may cancel it');
  const outcome = found.item === null ? ({ outcome: 'missing' } as const) : await s.queue.cancel(Number(found.item));
  if (outcome.outcome === 'finished' || outcome.outcome === 'missing') {
    throw conflict('Job already ended', `Job ${id} has ended${outcome.outcome === 'finished' ? ` (${outcome.state === 'pending' ? 'queued' : outcome.state})` : ''} and cannot be cancelled`);
  }
  const job = (await jobById(s.db, auth, id))!;
  return { status: outcome.outcome === 'cancelled' ? 200 : 202, job: { ...job, id } };
}
