import { tableReadable } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import { ident } from '../db/sql.js';
import type { Queryable, Tx } from '../db/types.js';
import type { Dictionary } from '../dictionary/model.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { Row } from '../events/model-events.js';
import { formatDateTime } from '../records/format.js';
import { updateRecord } from '../records/write/persist.js';
import type { WriteContext } from '../records/write/write-context.js';
import { approversOf, workflowById } from './workflow-definitions.js';
import { approvalAmount, approveDocument, continueAfter, finishActivity, rejectDocument, runOfActivity, setProcessState, withMessage } from './workflow-engine.js';
import { historyHtml, type HistoryLine } from './history-html.js';
import { ACTION, approverFor, checkChoice, nodeKind, type NodeKind, type WfState } from './workflow-rules.js';

/**
 * Whether an activity is the user's, as the original decides: its user; an invoker responsible
 * without user or role (the activity's user, or anyone when it has none); a human responsible
 * naming the user; a role responsible whose role the user has. $1 is the user.
 */
const IS_USERS = `(a.ad_user_id = $1
  OR EXISTS (SELECT 1 FROM ad_wf_responsible r WHERE r.ad_wf_responsible_id = a.ad_wf_responsible_id AND r.responsibletype = 'H'
             AND COALESCE(r.ad_user_id, 0) = 0 AND COALESCE(r.ad_role_id, 0) = 0 AND a.ad_user_id IS NULL)
  OR EXISTS (SELECT 1 FROM ad_wf_responsible r WHERE r.ad_wf_responsible_id = a.ad_wf_responsible_id AND r.responsibletype = 'H' AND r.ad_user_id = $1)
  OR EXISTS (SELECT 1 FROM ad_wf_responsible r JOIN ad_user_roles ur ON ur.ad_role_id = r.ad_role_id
             WHERE r.ad_wf_responsible_id = a.ad_wf_responsible_id AND r.responsibletype = 'R' AND ur.ad_user_id = $1 AND ur.isactive = 'Y'))`;

const STATE_NAMES: Record<string, string> = { ON: 'Not Started', OR: 'Running', OS: 'Suspended', CC: 'Completed', CA: 'Aborted', CT: 'Terminated' };

/** Columns a document summary is made of, where the table has them. */
const SUMMARY_COLUMNS = ['documentno', 'grandtotal', 'payamt', 'description', 'name'];

/** The history of each process as the original's HTML: one paragraph per activity (when, node, state, user, message). */
async function histories(q: Queryable, processIds: number[]): Promise<Map<number, string>> {
  const lines = new Map<number, HistoryLine[]>();
  if (!processIds.length) return new Map();
  const { rows } = await q.query<Row>(
    `SELECT a.ad_wf_process_id, a.created, a.wfstate, a.textmsg, n.name AS node, u.name AS username
       FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id LEFT JOIN ad_user u ON u.ad_user_id = a.ad_user_id
      WHERE a.ad_wf_process_id = ANY($1::bigint[]) ORDER BY a.created, a.ad_wf_activity_id`,
    [processIds],
  );
  for (const r of rows) {
    const id = Number(r.ad_wf_process_id);
    const state = STATE_NAMES[String(r.wfstate)] ?? String(r.wfstate);
    const line: HistoryLine = {
      created: String(r.created),
      node: String(r.node),
      description: r.username ? `${state} (${String(r.username)})` : state,
      message: r.textmsg ? String(r.textmsg) : null,
    };
    lines.set(id, [...(lines.get(id) ?? []), line]);
  }
  return new Map([...lines].map(([id, l]) => [id, historyHtml(l)]));
}

/** A short summary of each record (document number, amount, description), by table and id. */
async function summaries(q: Queryable, dict: Dictionary, rows: Row[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byTable = new Map<number, number[]>();
  for (const r of rows) byTable.set(Number(r.ad_table_id), [...(byTable.get(Number(r.ad_table_id)) ?? []), Number(r.record_id)]);
  for (const [tableId, ids] of byTable) {
    const t = dict.byId.get(tableId);
    const key = t?.keyColumn?.dbName;
    const cols = SUMMARY_COLUMNS.filter((c) => t?.byName.has(c));
    if (!t || !key || !cols.length) continue;
    const { rows: recs } = await q.query<Row>(`SELECT ${ident(key)} AS id, ${cols.map(ident).join(', ')} FROM ${ident(t.dbName)} WHERE ${ident(key)} = ANY($1::bigint[])`, [ids]);
    for (const r of recs) {
      const parts = cols.filter((c) => r[c] !== null && r[c] !== undefined && r[c] !== '').map((c) => String(r[c]));
      out.set(`${tableId}:${Number(r.id)}`, parts.join(' - '));
    }
  }
  return out;
}

/**
 * Whether the caller may see an activity listed for another user: its document's table and
 * organisation are readable by the caller's role, so the list discloses no document the caller
 * could not read itself. One's own activities are always listed.
 */
function visibleToCaller(dict: Dictionary, auth: AuthContext, userId: number, r: Row): boolean {
  if (userId === auth.userId) return true;
  const table = dict.byId.get(Number(r.ad_table_id));
  return !!table && tableReadable(auth, table) && (auth.orgIds === null || auth.orgIds.includes(Number(r.ad_org_id)));
}

/**
 * The suspended, unprocessed activities of a user in the caller's client, as the spec's workflow
 * nodes. Waits are left out: they have no user and nobody answers them.
 */
export async function listActivities(q: Queryable, dict: Dictionary, auth: AuthContext, userId: number): Promise<Record<string, unknown>[]> {
  let { rows } = await q.query<Row>(
    `SELECT a.ad_wf_activity_id, a.ad_wf_activity_uu, a.ad_org_id, a.ad_wf_process_id, a.ad_table_id, a.record_id, a.priority, a.created,
            n.name AS nodename, n.description AS nodedescription, n.help AS nodehelp, n.action, lower(c.columnname) AS columnname, t.tablename
       FROM ad_wf_activity a
       JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id
       LEFT JOIN ad_column c ON c.ad_column_id = n.ad_column_id
       LEFT JOIN ad_table t ON t.ad_table_id = a.ad_table_id
      WHERE a.processed = 'N' AND a.wfstate = 'OS' AND a.isactive = 'Y' AND a.ad_client_id = $2 AND n.action <> 'Z' AND ${IS_USERS}
      ORDER BY a.priority DESC, a.created, a.ad_wf_activity_id`,
    [userId, auth.clientId],
  );
  rows = rows.filter((r) => visibleToCaller(dict, auth, userId, r));
  const history = await histories(q, [...new Set(rows.map((r) => Number(r.ad_wf_process_id)))]);
  const summary = await summaries(q, dict, rows);
  return rows.map((r) => {
    const kind = nodeKind({ action: String(r.action), columnName: r.columnname ? String(r.columnname) : null } as Parameters<typeof nodeKind>[0]);
    const node: Record<string, unknown> = { id: Number(r.ad_wf_activity_id) };
    if (r.ad_wf_activity_uu) node.uid = String(r.ad_wf_activity_uu);
    node['model-name'] = 'ad_wf_activity';
    node['node-name'] = String(r.nodename ?? '');
    if (r.nodedescription) node['node-description'] = String(r.nodedescription);
    node.priority = Number(r.priority ?? 0);
    const s = summary.get(`${Number(r.ad_table_id)}:${Number(r.record_id)}`);
    if (s) node.summary = s;
    if (r.nodehelp) node['node-help'] = String(r.nodehelp);
    // Always present, as the spec lists it (a listed activity has at least its own line).
    node['history-records'] = history.get(Number(r.ad_wf_process_id)) ?? '';
    if (r.tablename) node['table-name'] = String(r.tablename);
    node.ad_table_id = Number(r.ad_table_id);
    node.record_id = Number(r.record_id);
    node['node-approval'] = kind === 'approval';
    node['node-confirmation'] = kind === 'notification';
    node.created = formatDateTime(String(r.created));
    return node;
  });
}

/** The user a /workflow/{userid} request names: an id or UUID of a user the caller may read (own client or System). */
export async function userOfPath(q: Queryable, auth: AuthContext, text: string): Promise<number> {
  const isId = /^\d{1,15}$/.test(text);
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
  const found = isId || isUuid
    ? (await q.query<Row>(`SELECT ad_user_id FROM ad_user WHERE ${isId ? 'ad_user_id = $1::bigint' : 'ad_user_uu = $1'} AND ad_client_id IN (0, $2)`, [isId ? text : text.toLowerCase(), auth.clientId])).rows[0]
    : undefined;
  if (!found) throw badRequest('User not found', `No user found matching id ${text}`);
  return Number(found.ad_user_id);
}

export type Answer =
  | { kind: 'approve' | 'reject' | 'acknowledge'; message: string | null }
  | { kind: 'forward'; userTo: unknown; message: string | null }
  | { kind: 'setuserchoice'; value: unknown; message: string | null };

/** The node kinds each answer is for. */
const ANSWERS_FOR: Record<Answer['kind'], NodeKind> = { approve: 'approval', reject: 'approval', forward: 'approval', acknowledge: 'notification', setuserchoice: 'choice' };
const KIND_NAMES: Record<NodeKind, string> = { approval: 'an approval node', choice: 'a user choice node', notification: 'a notification node', other: 'a node without user action' };

/** What an answer reports, as the original's: the record's summary and the process's history. */
export interface AnswerResult {
  summary: string | null;
  history: string;
}

/**
 * Answers one suspended activity for the caller, in the caller's transaction: checks that it is
 * suspended and unprocessed, not a wait, the caller's, and of the kind the answer is for; then approves,
 * rejects, forwards, acknowledges or sets the choice, and walks the workflow on when the node is
 * done. Returns the record's summary and the process's history.
 */
export async function answerActivity(wc: WriteContext, idText: string, answer: Answer): Promise<AnswerResult> {
  const tx: Tx = wc.tx;
  const auth = wc.auth;
  if (!/^\d{1,15}$/.test(idText)) throw notFound('Activity not found', `No workflow activity with id ${idText}`);
  const { rows } = await tx.query<Row>('SELECT a.* FROM ad_wf_activity a WHERE a.ad_wf_activity_id = $1 AND a.ad_client_id = $2 AND a.isactive = $3 FOR UPDATE', [idText, auth.clientId, 'Y']);
  const a = rows[0];
  if (!a) throw notFound('Activity not found', `No workflow activity with id ${idText}`);
  if (a.processed === 'Y' || a.wfstate !== 'OS') {
    // 400 as the original's (its pending-activity check refuses it); neither upstream document lists a 409 here.
    throw badRequest('Activity not suspended', `Workflow activity ${idText} is ${STATE_NAMES[String(a.wfstate)] ?? String(a.wfstate)} and processed: it takes no more answers`);
  }
  const graph = await workflowById(tx, Number(a.ad_workflow_id));
  const node = graph?.nodes.get(Number(a.ad_wf_node_id));
  if (!graph || !node) throw conflict('Workflow error', `The node of workflow activity ${idText} is no longer active`);
  if (node.action === ACTION.wait) {
    const until = a.endwaittime ? ` until ${String(a.endwaittime).slice(0, 19)} UTC` : '';
    throw badRequest('Not a user node', `Workflow activity ${idText} is a wait node (${node.name}): it waits${until} and the Workflow Processor continues it; it takes no answers`);
  }
  const mine = await tx.query(`SELECT 1 FROM ad_wf_activity a WHERE a.ad_wf_activity_id = $2 AND ${IS_USERS}`, [auth.userId, idText]);
  if (!mine.rows.length) throw badRequest('Not your workflow activity', `Workflow activity ${idText} waits for another user`);
  const kind = nodeKind(node);
  if (ANSWERS_FOR[answer.kind] !== kind) {
    throw badRequest(`Not ${KIND_NAMES[ANSWERS_FOR[answer.kind]].replace(/^an? /, '')}`, `Workflow activity ${idText} is ${KIND_NAMES[kind]} (${node.name}); ${answer.kind} is for ${KIND_NAMES[ANSWERS_FOR[answer.kind]]} only`);
  }
  const proc = (await tx.query<Row>('SELECT * FROM ad_wf_process WHERE ad_wf_process_id = $1 FOR UPDATE', [a.ad_wf_process_id])).rows[0];
  if (!proc) throw conflict('Workflow error', `The process of workflow activity ${idText} does not exist`);
  const { run, row } = await runOfActivity(wc, graph, a, proc);
  const table = run.table;

  const close = async (state: WfState, message: string | null) => finishActivity(run, a, state, message, auth.userId);
  const reassign = async (userId: number, message: string) => finishActivity(run, a, 'OS', message, userId);
  const goOn = async () => continueAfter(run, node.id);

  switch (answer.kind) {
    case 'approve': {
      const users = await approversOf(tx, run.clientId);
      const own = Number(row.salesrep_id ?? row.createdby ?? 0) === auth.userId;
      const next = approverFor(users, auth.userId, approvalAmount(row), own);
      if (next === null) {
        // As the original: nobody may approve, so the document is rejected and the workflow aborted.
        await rejectDocument(run);
        await close('CA', withMessage(answer.message, 'Cannot approve: no approver'));
        await setProcessState(run, 'CA', 'Cannot approve: no approver');
      } else if (next !== auth.userId) {
        await reassign(next, withMessage(answer.message, `Forwarded to the next approver (user ${next})`)!);
      } else {
        await approveDocument(run);
        await close('CC', withMessage(answer.message, 'Approved'));
        await goOn();
      }
      break;
    }
    case 'reject':
      await rejectDocument(run);
      await close('CA', withMessage(answer.message, 'Rejected'));
      await setProcessState(run, 'CA', 'Rejected');
      break;
    case 'forward': {
      const to = await forwardTarget(tx, auth, answer.userTo);
      await reassign(to, withMessage(answer.message, `Forwarded by user ${auth.userId} to user ${to}`)!);
      break;
    }
    case 'acknowledge':
      await close('CC', withMessage(answer.message, 'Acknowledged'));
      await goOn();
      break;
    case 'setuserchoice': {
      const column = node.columnName ? table.byName.get(node.columnName) : undefined;
      if (!column) throw conflict('Workflow error', `The user choice node ${node.name} names no column of ${table.name}`);
      const list = column.referenceId === 17 && column.listReferenceId !== null ? new Set((wc.dict.references.get(column.listReferenceId)?.list ?? []).filter((v) => v.isActive).map((v) => v.value)) : null;
      const checked = checkChoice(column, list, answer.value);
      if ('refused' in checked) throw badRequest('Invalid value', checked.refused);
      await updateRecord(wc, table, String(run.recordId), { [column.name]: checked.value });
      await wc.deferred.flush();
      await close('CC', withMessage(answer.message, `${column.name}=${checked.value}`));
      await goOn();
      break;
    }
  }
  const summary = (await summaries(tx, wc.dict, [a])).get(`${Number(a.ad_table_id)}:${Number(a.record_id)}`);
  return { summary: summary || null, history: (await histories(tx, [run.processId])).get(run.processId) ?? '' };
}

/** The user a node is forwarded to: an active user of the caller's client (or the System's), not the caller. */
async function forwardTarget(q: Queryable, auth: AuthContext, raw: unknown): Promise<number> {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw badRequest('userTo property is mandatory.', 'userTo property is not set or it has an invalid value');
  const isId = /^\d{1,15}$/.test(text);
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
  const { rows } = isId || isUuid
    ? await q.query<Row>(`SELECT ad_user_id, isactive FROM ad_user WHERE ${isId ? 'ad_user_id = $1::bigint' : 'ad_user_uu = $1'} AND ad_client_id IN (0, $2)`, [isId ? text : text.toLowerCase(), auth.clientId])
    : { rows: [] as Row[] };
  const u = rows[0];
  if (!u) throw badRequest('userTo property is mandatory.', `userTo ${text} is not a user of this tenant`);
  if (u.isactive !== 'Y') throw badRequest('Inactive user', `userTo ${text} is not active`);
  const id = Number(u.ad_user_id);
  if (id === auth.userId) throw badRequest('userTo cannot be the same as the current user');
  return id;
}

