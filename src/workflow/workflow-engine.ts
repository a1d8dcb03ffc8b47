import { insertRow, ts } from '../auth/util.js';
import { ident } from '../db/sql.js';
import type { Table } from '../dictionary/model.js';
import type { DocumentActionResult } from '../documents/engine/engine.js';
import { runDocumentAction } from '../documents/engine/engine.js';
import { isDocStatus, type DocStatus } from '../documents/engine/doc-status.js';
import { DocumentRefusal, type DocumentContext } from '../documents/engine/document-type.js';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest, conflict } from '../errors.js';
import type { Row } from '../events/model-events.js';
import { updateRecord } from '../records/write/persist.js';
import type { WriteContext } from '../records/write/write-context.js';
import { ConditionError } from './transition-conditions.js';
import { approversOf, documentWorkflow, responsibleById } from './workflow-definitions.js';
import { ACTION, approverFor, chooseTransition, hasConditions, nodeKind, pathOf, type WfGraph, type WfNode, type WfState } from './workflow-rules.js';

/** One running workflow instance on one record. */
export interface WorkflowRun {
  wc: WriteContext;
  graph: WfGraph;
  table: Table;
  recordId: number;
  /** The document action the workflow was started for: it selects the transitions. */
  docAction: string;
  /** The user who started it (AD_WF_Process.AD_User_ID). */
  starterId: number;
  processId: number;
  clientId: number;
  orgId: number;
}

type NodeOutcome = { message: string | null } | { suspendFor: number | null; message: string } | { waitUntil: string; message: string };

const MAX_STEPS = 100;

/** The amount a document asks approval for. */
export function approvalAmount(row: Row): number {
  for (const c of ['grandtotal', 'payamt', 'approvalamt', 'totalamt', 'totallines']) if (row[c] !== undefined && row[c] !== null) return Number(row[c]);
  return 0;
}

/** The user whose document it is (the original's Doc_User_ID): the sales representative, else the creator. */
const documentUserId = (row: Row): number => Number(row.salesrep_id ?? row.createdby ?? 0);

export async function reloadRow(run: { wc: WriteContext; table: Table; recordId: number }): Promise<Row> {
  const key = run.table.keyColumn!.dbName;
  const { rows } = await run.wc.tx.query<Row>(`SELECT * FROM ${ident(run.table.dbName)} WHERE ${ident(key)} = $1`, [run.recordId]);
  if (!rows[0]) throw new ApiError(404, 'Record not found', `No record found matching id: ${run.recordId}`);
  return rows[0];
}

const statusOf = (row: Row): DocStatus => (isDocStatus(row.docstatus) ? row.docstatus : 'DR');

async function setApproved(run: WorkflowRun, approved: boolean): Promise<void> {
  if (!run.table.byName.has('isapproved')) return;
  const key = run.table.keyColumn!.dbName;
  await run.wc.tx.query(`UPDATE ${ident(run.table.dbName)} SET isapproved = $1 WHERE ${ident(key)} = $2`, [approved ? 'Y' : 'N', run.recordId]);
}

/** Runs a document action as a node of the workflow (the gate is not asked again). */
export async function documentStep(run: WorkflowRun, action: string): Promise<DocumentActionResult> {
  return runDocumentAction(run.wc, run.table, run.recordId, action, { fromWorkflow: true });
}

/** Approves the document: prepared first when it is not yet, then status Approved. */
export async function approveDocument(run: WorkflowRun): Promise<void> {
  const status = statusOf(await reloadRow(run));
  if (status === 'DR' || status === 'IN') await documentStep(run, 'PR');
  await documentStep(run, 'AP');
  await setApproved(run, true);
}

/** Rejects the document: status Not Approved (the original's reject), not approved. */
export async function rejectDocument(run: WorkflowRun): Promise<void> {
  await documentStep(run, 'RJ');
  await setApproved(run, false);
}

/** The user a user node waits for: its responsible's user, the invoker, or nobody in particular (a role). */
async function responsibleUser(run: WorkflowRun, node: WfNode): Promise<number | null> {
  const r = await responsibleById(run.wc.tx, node.responsibleId ?? run.graph.responsibleId);
  if (!r || r.type === 'H') return r?.userId ?? run.starterId;
  if (r.type === 'R') return null;
  return run.starterId;
}

async function performNode(run: WorkflowRun, node: WfNode): Promise<NodeOutcome> {
  switch (nodeKind(node)) {
    case 'approval': {
      const row = await reloadRow(run);
      const amount = approvalAmount(row);
      const users = await approversOf(run.wc.tx, run.clientId);
      const approver = approverFor(users, run.starterId, amount, documentUserId(row) === run.starterId);
      if (approver === null) {
        throw badRequest('Cannot find an approver', `No user in the supervisor chain of user ${run.starterId} may approve ${amount} (AD_Role.AmtApproval, IsCanApproveOwnDoc, AD_User.Supervisor_ID)`);
      }
      if (approver === run.starterId) {
        await approveDocument(run);
        return { message: 'Approved' };
      }
      // The document waits prepared, In Progress, as a completion would have left it.
      const status = statusOf(row);
      if (status === 'DR' || status === 'IN') await documentStep(run, 'PR');
      return { suspendFor: approver, message: `Waiting for approval by user ${approver}` };
    }
    case 'choice':
      return { suspendFor: await responsibleUser(run, node), message: `Waiting for a choice of ${node.columnName ?? ''}`.trim() };
    case 'notification':
      return { suspendFor: await responsibleUser(run, node), message: 'Waiting for acknowledgement' };
    default:
      break;
  }
  if (node.action === ACTION.wait && node.waitTime !== 0) {
    // A negative waiting time (the original's -1: go on after the commit) is due at once.
    const until = ts(Date.now() + node.waitTime * 60_000);
    return { waitUntil: until, message: `Waiting until ${until.replace('T', ' ').slice(0, 19)} UTC` };
  }
  if (node.action === 'D') {
    const code = node.docAction && node.docAction !== '--' ? node.docAction : run.docAction;
    const done = await documentStep(run, code);
    return { message: done.message || null };
  }
  if (node.action === 'V' && node.attributeName) {
    const column = run.table.byName.get(node.attributeName.toLowerCase());
    if (!column) throw badRequest('Workflow error', `Node ${node.name} sets ${node.attributeName}, which ${run.table.name} does not have`);
    await updateRecord(run.wc, run.table, String(run.recordId), { [column.name]: node.attributeValue });
    await run.wc.deferred.flush();
    return { message: `${column.name}=${node.attributeValue ?? ''}` };
  }
  // Wait nodes without a waiting time and actions this engine does not run complete at once.
  return { message: null };
}

export async function insertActivity(run: WorkflowRun, node: WfNode, state: WfState, userId: number | null, message: string | null, endWaitTime: string | null = null): Promise<number> {
  const closed = state === 'CC' || state === 'CA' || state === 'CT';
  return insertRow(
    run.wc.tx,
    'AD_WF_Activity',
    {
      ad_wf_process_id: run.processId,
      ad_wf_node_id: node.id,
      ad_workflow_id: run.graph.workflowId,
      ad_table_id: run.table.id,
      record_id: run.recordId,
      wfstate: state,
      processed: closed ? 'Y' : 'N',
      processing: 'N',
      ad_user_id: userId,
      ad_wf_responsible_id: node.responsibleId ?? run.graph.responsibleId,
      priority: node.priority,
      textmsg: message,
      endwaittime: endWaitTime,
    },
    { clientId: run.clientId, orgId: run.orgId, userId: run.wc.auth.userId },
  );
}

export async function setProcessState(run: WorkflowRun, state: WfState, message: string | null): Promise<void> {
  await writeProcessState(run.wc.tx, run.processId, state, message, run.wc.auth.userId);
}

export async function writeProcessState(q: Queryable, processId: number, state: WfState, message: string | null, userId: number): Promise<void> {
  const closed = state === 'CC' || state === 'CA' || state === 'CT';
  await q.query(
    `UPDATE ad_wf_process SET wfstate = $1, processed = $2, textmsg = COALESCE($3, textmsg), updated = now() AT TIME ZONE 'UTC', updatedby = $4 WHERE ad_wf_process_id = $5`,
    [state, closed ? 'Y' : 'N', message, userId, processId],
  );
}

/** A message line added to an activity's text. */
export const withMessage = (old: unknown, line: string | null): string | null => {
  if (!line) return old ? String(old) : null;
  return old ? `${String(old)}\n${line}` : line;
};

/**
 * Closes a suspended activity (or reassigns it, state OS) with a message line. `answeredBy`
 * becomes its user; null keeps it (a wait that nobody answers).
 */
export async function finishActivity(run: WorkflowRun, activity: Row, state: WfState, line: string | null, answeredBy: number | null): Promise<void> {
  await run.wc.tx.query(
    `UPDATE ad_wf_activity SET wfstate = $1, processed = $2, ad_user_id = COALESCE($3, ad_user_id), textmsg = $4, updated = now() AT TIME ZONE 'UTC', updatedby = $5
      WHERE ad_wf_activity_id = $6`,
    [state, state === 'OS' ? 'N' : 'Y', answeredBy, withMessage(activity.textmsg, line), run.wc.auth.userId, activity.ad_wf_activity_id],
  );
}

/** Condition errors as the request's refusal: the original cannot evaluate them either. */
function guarded<T>(choose: () => T): T {
  try {
    return choose();
  } catch (e) {
    if (e instanceof ConditionError) throw badRequest('Workflow error', e.message);
    throw e;
  }
}

/** The node the workflow goes on to after a node, for the run's action (the record is read only for conditions). */
export async function nextNodeId(run: WorkflowRun, nodeId: number): Promise<number | null> {
  const row = hasConditions(run.graph, nodeId) ? await reloadRow(run) : null;
  return guarded(() => chooseTransition(run.graph, nodeId, run.docAction, row)?.to ?? null);
}

/** Walks on from a node that is done (answered, or a wait that is over). */
export async function continueAfter(run: WorkflowRun, nodeId: number): Promise<{ state: WfState; message: string }> {
  return walk(run, await nextNodeId(run, nodeId));
}

/**
 * Keeps the requested action in the document's DocAction while the workflow waits, as the
 * original does: the continuation reads it to take the same transitions.
 */
async function keepRequestedAction(run: WorkflowRun): Promise<void> {
  if (!run.table.byName.has('docaction')) return;
  const key = run.table.keyColumn!.dbName;
  await run.wc.tx.query(`UPDATE ${ident(run.table.dbName)} SET docaction = $1 WHERE ${ident(key)} = $2 AND docaction IS DISTINCT FROM $1`, [run.docAction, run.recordId]);
}

/**
 * The run of a suspended activity, to go on with: its process's starter, and the document action
 * the record asks for (its DocAction; CO when it has none).
 */
export async function runOfActivity(wc: WriteContext, graph: WfGraph, activity: Row, process: Row): Promise<{ run: WorkflowRun; row: Row }> {
  const table = wc.dict.byId.get(Number(activity.ad_table_id));
  if (!table?.keyColumn) throw conflict('Workflow error', `Workflow activity ${String(activity.ad_wf_activity_id)} is on a table without a single key`);
  const run: WorkflowRun = {
    wc,
    graph,
    table,
    recordId: Number(activity.record_id),
    docAction: 'CO',
    starterId: Number(process.ad_user_id ?? wc.auth.userId),
    processId: Number(process.ad_wf_process_id),
    clientId: Number(activity.ad_client_id),
    orgId: Number(activity.ad_org_id),
  };
  const row = await reloadRow(run);
  const requested = String(row.docaction ?? '').trim();
  if (requested && requested !== '--') run.docAction = requested;
  return { run, row };
}

/**
 * Walks the workflow from a node: each node runs and gets its activity row, then the transition
 * the document action (and the conditions) select leads on, until a user node or a timed wait
 * suspends the workflow (Suspended) or no transition is left (Completed). A failing node throws:
 * the request's transaction rolls back.
 */
export async function walk(run: WorkflowRun, from: number | null): Promise<{ state: WfState; message: string }> {
  let id = from;
  let steps = 0;
  let last = '';
  while (id !== null) {
    if (++steps > MAX_STEPS) throw badRequest('Workflow error', `Workflow ${run.graph.workflowId} does not end`);
    const node = run.graph.nodes.get(id);
    if (!node) throw badRequest('Workflow error', `Workflow ${run.graph.workflowId} leads to node ${id}, which is not an active node of it`);
    const outcome = await performNode(run, node);
    if ('waitUntil' in outcome) {
      await keepRequestedAction(run);
      await insertActivity(run, node, 'OS', null, outcome.message, outcome.waitUntil);
      await setProcessState(run, 'OS', outcome.message);
      return { state: 'OS', message: outcome.message };
    }
    if ('suspendFor' in outcome) {
      await insertActivity(run, node, 'OS', outcome.suspendFor, outcome.message);
      await setProcessState(run, 'OS', outcome.message);
      return { state: 'OS', message: outcome.message };
    }
    await insertActivity(run, node, 'CC', null, outcome.message);
    if (outcome.message) last = outcome.message;
    id = await nextNodeId(run, node.id);
  }
  await setProcessState(run, 'CC', last || null);
  return { state: 'CC', message: last };
}

/** Starts a workflow on a record: its process row, then the walk from the start node. */
export async function startWorkflow(
  wc: WriteContext,
  graph: WfGraph,
  table: Table,
  row: Row,
  docAction: string,
): Promise<{ run: WorkflowRun; state: WfState; message: string }> {
  const recordId = Number(row[table.keyColumn!.dbName]);
  const clientId = Number(row.ad_client_id ?? wc.auth.clientId);
  const orgId = Number(row.ad_org_id ?? 0);
  const processId = await insertRow(
    wc.tx,
    'AD_WF_Process',
    {
      ad_workflow_id: graph.workflowId,
      ad_table_id: table.id,
      record_id: recordId,
      wfstate: 'OR',
      processed: 'N',
      processing: 'N',
      ad_user_id: wc.auth.userId,
      ad_wf_responsible_id: graph.responsibleId ?? 0,
      priority: 0,
    },
    { clientId, orgId, userId: wc.auth.userId },
  );
  const run: WorkflowRun = { wc, graph, table, recordId, docAction, starterId: wc.auth.userId, processId, clientId, orgId };
  const end = await walk(run, graph.startNodeId);
  return { run, ...end };
}

/**
 * The document engine's gate: a document action whose workflow reaches a user node or a timed
 * wait runs as that workflow, so that it can suspend there; so does one whose path depends on
 * conditions that earlier nodes may change. Every other action (no workflow, nothing on its path
 * that suspends, or an approval the caller may give) runs directly, with no workflow rows and no
 * extra statement once the definitions are cached.
 */
/**
 * What waits on a record, as the original tells it before refusing a document action: a node of a
 * workflow process that is not finished (a suspended approval, choice, notification or wait).
 */
async function activeWorkflowOn(q: Queryable, tableId: number, recordId: number): Promise<string | null> {
  const { rows } = await q.query<{ node: string; wfstate: string; ad_user_id: number | null }>(
    `SELECT n.name AS node, a.wfstate, a.ad_user_id FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id
      WHERE a.ad_table_id = $1 AND a.record_id = $2 AND a.processed = 'N' AND a.isactive = 'Y' ORDER BY a.ad_wf_activity_id LIMIT 1`,
    [tableId, recordId],
    { name: 'wf_active_on_record' },
  );
  const r = rows[0];
  if (!r) return null;
  return `node ${r.node} (${r.wfstate}${r.ad_user_id !== null ? `, user ${r.ad_user_id}` : ''})`;
}

export async function documentWorkflowGate(d: DocumentContext): Promise<DocumentActionResult | null> {
  const graph = await documentWorkflow(d.wc.tx, d.wc.auth.clientId, d.table.id);
  if (!graph) return null;
  if (!d.newRecord) {
    const active = await activeWorkflowOn(d.wc.tx, d.table.id, Number(d.row[d.table.keyColumn!.dbName]));
    if (active) throw new DocumentRefusal(`an active workflow for this record exists (complete it first): ${active}`);
  }
  const path = guarded(() => pathOf(graph, d.action, d.row));
  const stop = path.nodes[path.nodes.length - 1];
  if (!stop || path.stop === 'end') return null;
  if (path.stop === 'suspend' && nodeKind(stop) === 'approval') {
    const users = await approversOf(d.wc.tx, d.wc.auth.clientId);
    const starter = d.wc.auth.userId;
    if (approverFor(users, starter, approvalAmount(d.row), documentUserId(d.row) === starter) === starter) {
      if (d.table.byName.has('isapproved')) d.changes.isapproved = 'Y';
      return null;
    }
  }
  const { run, message } = await startWorkflow(d.wc, graph, d.table, d.row, d.action);
  const row = await reloadRow(run);
  return { row, status: statusOf(row), message };
}
