import { insertRow } from '../auth/util.js';
import { ident } from '../db/sql.js';
import type { Table } from '../dictionary/model.js';
import type { DocumentActionResult } from '../documents/engine/engine.js';
import { runDocumentAction } from '../documents/engine/engine.js';
import { isDocStatus, type DocStatus } from '../documents/engine/doc-status.js';
import type { DocumentContext } from '../documents/engine/document-type.js';
import { ApiError, badRequest } from '../errors.js';
import type { Row } from '../events/model-events.js';
import { updateRecord } from '../records/write/persist.js';
import type { WriteContext } from '../records/write/write-context.js';
import { approversOf, documentWorkflow, responsibleById } from './workflow-definitions.js';
import { approverFor, chooseTransition, isUserNode, nodeKind, pathOf, type WfGraph, type WfNode, type WfState } from './workflow-rules.js';

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

type NodeOutcome = { message: string | null } | { suspendFor: number | null; message: string };

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
  // Wait nodes (no waiting time is kept) and actions this engine does not run complete at once.
  return { message: null };
}

export async function insertActivity(run: WorkflowRun, node: WfNode, state: WfState, userId: number | null, message: string | null): Promise<number> {
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
    },
    { clientId: run.clientId, orgId: run.orgId, userId: run.wc.auth.userId },
  );
}

export async function setProcessState(run: WorkflowRun, state: WfState, message: string | null): Promise<void> {
  const closed = state === 'CC' || state === 'CA' || state === 'CT';
  await run.wc.tx.query(
    `UPDATE ad_wf_process SET wfstate = $1, processed = $2, textmsg = COALESCE($3, textmsg), updated = now() AT TIME ZONE 'UTC', updatedby = $4 WHERE ad_wf_process_id = $5`,
    [state, closed ? 'Y' : 'N', message, run.wc.auth.userId, run.processId],
  );
}

/**
 * Walks the workflow from a node: each node runs and gets its activity row, then the transition
 * the document action selects leads on, until a user node suspends the workflow (Suspended) or no
 * transition is left (Completed). A failing node throws: the request's transaction rolls back.
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
    if ('suspendFor' in outcome) {
      await insertActivity(run, node, 'OS', outcome.suspendFor, outcome.message);
      await setProcessState(run, 'OS', outcome.message);
      return { state: 'OS', message: outcome.message };
    }
    await insertActivity(run, node, 'CC', null, outcome.message);
    if (outcome.message) last = outcome.message;
    id = chooseTransition(run.graph, node.id, run.docAction)?.to ?? null;
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
 * The document engine's gate: a document action whose workflow reaches a user node runs as that
 * workflow, so that it can suspend there; every other action (no workflow, no user node on its
 * path, or an approval the caller may give) runs directly, with no workflow rows and no extra
 * statement once the definitions are cached.
 */
export async function documentWorkflowGate(d: DocumentContext): Promise<DocumentActionResult | null> {
  const graph = await documentWorkflow(d.wc.tx, d.wc.auth.clientId, d.table.id);
  if (!graph) return null;
  const path = pathOf(graph, d.action);
  const stop = path[path.length - 1];
  if (!stop || !isUserNode(stop)) return null;
  if (nodeKind(stop) === 'approval') {
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
