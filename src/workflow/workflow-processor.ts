import { claimsOfUser } from '../auth/run-as.js';
import type { AuthContext } from '../auth/context.js';
import { ts } from '../auth/util.js';
import type { Queryable, Tx } from '../db/types.js';
import { conflict } from '../errors.js';
import type { Row } from '../events/model-events.js';
import { toApiError } from '../http/errors.js';
import { createWriteContext, type WriteContext } from '../records/write/write-context.js';
import { PeriodicTask } from '../servers/periodic-task.js';
import type { Services } from '../services.js';
import { workflowById } from './workflow-definitions.js';
import { continueAfter, finishActivity, runOfActivity, withMessage, writeProcessState } from './workflow-engine.js';
import { ACTION } from './workflow-rules.js';

/** How often an instance looks for waits that are over: waiting times are whole minutes. */
export const WORKFLOW_PROCESSOR_INTERVAL_MS = 60_000;

/** Waits continued per pass at the most; the next pass takes the rest. */
const PASS_LIMIT = 100;

/** A wait that is over, and whom its continuation runs as. */
interface DueWait {
  activityId: number;
  starterId: number;
  clientId: number;
  orgId: number;
}

/** The marker lets statement counts of requests leave the processor's polling out. */
async function dueWaits(q: Queryable, now: string, limit: number): Promise<DueWait[]> {
  const { rows } = await q.query<Row>(
    `SELECT /* workflow processor */ a.ad_wf_activity_id, p.ad_user_id, a.ad_client_id, a.ad_org_id
       FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id JOIN ad_wf_process p ON p.ad_wf_process_id = a.ad_wf_process_id
      WHERE a.processed = 'N' AND a.wfstate = 'OS' AND a.isactive = 'Y' AND a.endwaittime <= $1 AND n.action = $2
      ORDER BY a.endwaittime, a.ad_wf_activity_id LIMIT $3`,
    [now, ACTION.wait, limit],
  );
  return rows.map((r) => ({ activityId: Number(r.ad_wf_activity_id), starterId: Number(r.ad_user_id ?? 0), clientId: Number(r.ad_client_id), orgId: Number(r.ad_org_id) }));
}

/**
 * Takes a due wait for this transaction: locked, and still suspended and unprocessed. Another
 * instance's pass that holds it, or has continued it already, makes this one pass it by.
 */
async function claim(tx: Tx, activityId: number, now: string): Promise<Row | null> {
  const { rows } = await tx.query<Row>(
    `SELECT a.* FROM ad_wf_activity a WHERE a.ad_wf_activity_id = $1 AND a.processed = 'N' AND a.wfstate = 'OS' AND a.endwaittime <= $2 FOR UPDATE SKIP LOCKED`,
    [activityId, now],
  );
  return rows[0] ?? null;
}

/** Continues the workflow of a claimed wait: the wait is completed and the walk goes on from its node. */
async function continueWait(wc: WriteContext, activity: Row): Promise<void> {
  const proc = (await wc.tx.query<Row>('SELECT * FROM ad_wf_process WHERE ad_wf_process_id = $1 FOR UPDATE', [activity.ad_wf_process_id])).rows[0];
  if (!proc) throw conflict('Workflow error', `The process of workflow activity ${String(activity.ad_wf_activity_id)} does not exist`);
  const graph = await workflowById(wc.tx, Number(activity.ad_workflow_id));
  const node = graph?.nodes.get(Number(activity.ad_wf_node_id));
  if (!graph || !node) throw conflict('Workflow error', `The node of workflow activity ${String(activity.ad_wf_activity_id)} is no longer active`);
  const { run } = await runOfActivity(wc, graph, activity, proc);
  await finishActivity(run, activity, 'CC', 'Wait over', null);
  await continueAfter(run, node.id);
  await wc.deferred.flush();
}

/** The wait and its process are aborted with the reason; nothing of the failed continuation stays. */
async function abortWait(tx: Tx, activity: Row, reason: string, userId: number): Promise<void> {
  await tx.query(
    `UPDATE ad_wf_activity SET wfstate = 'CA', processed = 'Y', textmsg = $1, updated = now() AT TIME ZONE 'UTC', updatedby = $2 WHERE ad_wf_activity_id = $3`,
    [withMessage(activity.textmsg, reason), userId, activity.ad_wf_activity_id],
  );
  await writeProcessState(tx, Number(activity.ad_wf_process_id), 'CA', reason, userId);
}

/** A failure as the text an aborted workflow keeps: the refusal's detail, never the internals. */
function reasonOf(s: Services, e: unknown, activityId: number): string {
  const api = toApiError(e);
  if (api.status >= 500) s.log.error({ err: e, activity: activityId }, 'a workflow wait could not be continued');
  return api.status >= 500 ? 'The workflow could not go on: internal error' : api.detail || api.title;
}

/** Whom a continuation runs as: the process's starter, with the role a scheduled run of theirs would have. */
async function starterContext(s: Services, w: DueWait): Promise<AuthContext | string> {
  const claims = await claimsOfUser(s.db, w.starterId, w.clientId, w.orgId);
  if (!claims) return `The starter of the workflow (user ${w.starterId}) has no active role in client ${w.clientId}`;
  return s.auth.contextOf(claims);
}

/**
 * One pass of the Workflow Processor: every wait that is over (EndWaitTime reached) is continued,
 * each in a transaction of its own, as the workflow's starter. A continuation that fails is undone
 * and its wait and process are aborted with the reason; the pass goes on with the next wait. A
 * wait that another instance holds or has continued is passed by, so none is continued twice.
 */
export async function resumeDueWaits(s: Services, limit = PASS_LIMIT): Promise<{ resumed: number; aborted: number }> {
  const now = ts(Date.now());
  let resumed = 0;
  let aborted = 0;
  for (const w of await dueWaits(s.db, now, limit)) {
    try {
      // Before the transaction: the embedded database's one connection is the transaction's.
      let who: AuthContext | string;
      try {
        who = await starterContext(s, w);
      } catch (e) {
        who = reasonOf(s, e, w.activityId);
      }
      const outcome = await s.db.tx(async (tx) => {
        const activity = await claim(tx, w.activityId, now);
        if (!activity) return 'passed';
        let reason = typeof who === 'string' ? who : '';
        if (typeof who !== 'string') {
          const auth = who;
          try {
            await tx.savepoint((sp) => continueWait(createWriteContext(s.dictionary.current, auth, sp, s.events), activity));
            return 'resumed';
          } catch (e) {
            reason = reasonOf(s, e, w.activityId);
          }
        }
        await abortWait(tx, activity, reason, w.starterId);
        return 'aborted';
      });
      if (outcome === 'resumed') resumed++;
      if (outcome === 'aborted') {
        aborted++;
        s.log.warn({ activity: w.activityId }, 'a workflow wait was aborted');
      }
    } catch (e) {
      s.log.error({ err: e, activity: w.activityId }, 'a workflow wait could not be claimed');
    }
  }
  return { resumed, aborted };
}

/** The Workflow Processor server of an instance. */
export function workflowProcessor(s: Services): PeriodicTask {
  return new PeriodicTask({
    key: 'workflow-processor',
    name: 'Workflow Processor',
    description: 'continues workflows whose wait is over',
    intervalMs: WORKFLOW_PROCESSOR_INTERVAL_MS,
    pass: async () => {
      const r = await resumeDueWaits(s);
      return r.resumed || r.aborted ? `continued ${r.resumed} waits, aborted ${r.aborted}` : '';
    },
  });
}
