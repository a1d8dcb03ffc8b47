import { CACHE_RESET_CHANNEL, type CacheSource } from '../cache/cache-registry.js';
import { NotifiedCache } from '../cache/notified-cache.js';
import type { Queryable } from '../db/types.js';
import type { ModelEvents } from '../events/model-events.js';
import type { WfCondition } from './transition-conditions.js';
import type { Approver, WfGraph, WfNode, WfTransition } from './workflow-rules.js';

/** A responsible of nodes (AD_WF_Responsible): a human (a user, or the invoker when none), a role. */
export interface Responsible {
  id: number;
  type: string;
  userId: number | null;
  roleId: number | null;
}

/**
 * Workflow definitions and approval data are read on every document action, so they are kept in
 * memory until their tables change: a write empties them at once here, and on every instance
 * through the cache registry's reset channel when it commits.
 */
const DEFINITION_TABLES = ['ad_workflow', 'ad_wf_node', 'ad_wf_nodenext', 'ad_wf_nextcondition', 'ad_wf_responsible'] as const;
const APPROVER_TABLES = ['ad_user', 'ad_role', 'ad_user_roles'] as const;
const graphs = new NotifiedCache<string, WfGraph | null>(1000);
const graphsById = new NotifiedCache<number, WfGraph | null>(1000);
const responsibles = new NotifiedCache<number, Responsible | null>(1000);
const approvers = new NotifiedCache<number, Map<number, Approver>>(100);
/** Transactions that changed one of the tables: what they read must not be kept (it may roll back). */
const changedIn = new WeakSet<object>();

const clearDefinitions = (): void => {
  graphs.clear();
  graphsById.clear();
  responsibles.clear();
};

const sumStats = (caches: NotifiedCache<unknown, unknown>[]) =>
  caches.map((c) => c.stats()).reduce((a, b) => ({ size: a.size + b.size, maxSize: a.maxSize + b.maxSize, hits: a.hits + b.hits, misses: a.misses + b.misses }));

/** The workflow caches as GET /caches shows them and DELETE /caches (or a table's reset) empties them. */
export const workflowCacheSources: readonly CacheSource[] = [
  { name: 'Workflow definitions', tables: DEFINITION_TABLES, expireMinutes: 0, stats: () => sumStats([graphs, graphsById, responsibles] as NotifiedCache<unknown, unknown>[]), reset: clearDefinitions },
  { name: 'Workflow approvers', tables: APPROVER_TABLES, expireMinutes: 0, stats: () => approvers.stats(), reset: () => approvers.clear() },
];

/** The cached value, or `load`'s, kept unless the reading transaction changed the tables. */
async function cached<K, V>(cache: NotifiedCache<K, V>, key: K, q: Queryable, load: () => Promise<V>): Promise<V> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const started = cache.readStarted();
  const value = await load();
  if (!changedIn.has(q)) cache.set(key, value, started);
  return value;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/** Empties the caches when a workflow, role or user table is written, here and on every instance. */
export function watchWorkflowTables(events: ModelEvents): void {
  const on = (tables: readonly string[], clear: () => void) => {
    for (const type of ['after-new', 'after-change', 'after-delete'] as const) {
      for (const t of tables) {
        events.on(type, t, async (e) => {
          changedIn.add(e.tx);
          clear();
          await e.tx.notify(CACHE_RESET_CHANNEL, t);
        });
      }
    }
  };
  on(DEFINITION_TABLES, clearDefinitions);
  on(APPROVER_TABLES, () => approvers.clear());
}

const NODE_SQL = `SELECT n.ad_wf_node_id, n.ad_workflow_id, n.name, n.description, n.help, n.action, n.docaction, lower(c.columnname) AS columnname,
       n.attributename, n.attributevalue, n.ad_wf_responsible_id, n.priority, n.waittime
  FROM ad_wf_node n LEFT JOIN ad_column c ON c.ad_column_id = n.ad_column_id
 WHERE n.ad_workflow_id = $1 AND n.isactive = 'Y'`;
/** Transitions with their conditions, one row per condition (one without any for a transition that has none). */
const NEXT_SQL = `SELECT x.ad_wf_nodenext_id, x.ad_wf_node_id, x.ad_wf_next_id, x.seqno, x.transitioncode,
       c.ad_wf_nextcondition_id, c.ad_client_id AS conditionclient, c.seqno AS conditionseqno, c.andor, c.operation, c.value, c.value2,
       lower(col.columnname) AS conditioncolumn, col.ad_reference_id AS conditionreference
  FROM ad_wf_nodenext x JOIN ad_wf_node n ON n.ad_wf_node_id = x.ad_wf_node_id
  LEFT JOIN ad_wf_nextcondition c ON c.ad_wf_nodenext_id = x.ad_wf_nodenext_id AND c.isactive = 'Y'
  LEFT JOIN ad_column col ON col.ad_column_id = c.ad_column_id
 WHERE n.ad_workflow_id = $1 AND x.isactive = 'Y' ORDER BY x.seqno, x.ad_wf_nodenext_id, c.seqno, c.ad_wf_nextcondition_id`;

/** Yes-No and date references: their values compare as booleans and as timestamps. */
const conditionKind = (referenceId: unknown): WfCondition['kind'] => {
  const ref = Number(referenceId);
  return ref === 20 ? 'yesNo' : ref === 15 || ref === 16 ? 'date' : 'other';
};

async function loadGraph(q: Queryable, wf: Row): Promise<WfGraph> {
  const id = Number(wf.ad_workflow_id);
  const [nodes, next] = await Promise.all([q.query<Row>(NODE_SQL, [id]), q.query<Row>(NEXT_SQL, [id])]);
  const graph: WfGraph = {
    workflowId: id,
    tableId: Number(wf.ad_table_id ?? 0),
    startNodeId: Number(wf.ad_wf_node_id ?? 0),
    responsibleId: num(wf.ad_wf_responsible_id),
    nodes: new Map(),
    next: new Map(),
  };
  for (const r of nodes.rows) {
    const node: WfNode = {
      id: Number(r.ad_wf_node_id),
      workflowId: id,
      name: String(r.name ?? ''),
      description: text(r.description),
      help: text(r.help),
      action: String(r.action ?? ''),
      docAction: text(r.docaction),
      columnName: text(r.columnname),
      attributeName: text(r.attributename),
      attributeValue: text(r.attributevalue),
      responsibleId: num(r.ad_wf_responsible_id),
      priority: Number(r.priority ?? 0),
      waitTime: Number(r.waittime ?? 0),
    };
    graph.nodes.set(node.id, node);
  }
  const transitions = new Map<number, WfTransition>();
  for (const r of next.rows) {
    let t = transitions.get(Number(r.ad_wf_nodenext_id));
    if (!t) {
      t = { from: Number(r.ad_wf_node_id), to: Number(r.ad_wf_next_id), seqNo: Number(r.seqno ?? 0), code: text(r.transitioncode)?.trim().toUpperCase() ?? null, conditions: [] };
      transitions.set(Number(r.ad_wf_nodenext_id), t);
      graph.next.set(t.from, [...(graph.next.get(t.from) ?? []), t]);
    }
    if (r.ad_wf_nextcondition_id === null || r.ad_wf_nextcondition_id === undefined) continue;
    t.conditions.push({
      seqNo: Number(r.conditionseqno ?? 0),
      andOr: String(r.andor ?? 'O'),
      column: text(r.conditioncolumn),
      kind: conditionKind(r.conditionreference),
      operation: String(r.operation ?? '').trim(),
      value: r.value === null || r.value === undefined ? null : String(r.value),
      value2: r.value2 === null || r.value2 === undefined ? null : String(r.value2),
      clientId: Number(r.conditionclient ?? 0),
    });
  }
  return graph;
}

/** The document-process workflow (type P) of a table for a client: the client's own before the System's. */
export async function documentWorkflow(q: Queryable, clientId: number, tableId: number): Promise<WfGraph | null> {
  return cached(graphs, `${clientId}:${tableId}`, q, async () => {
    const { rows } = await q.query<Row>(
    `SELECT ad_workflow_id, ad_table_id, ad_wf_node_id, ad_wf_responsible_id FROM ad_workflow
      WHERE ad_table_id = $1 AND workflowtype = 'P' AND isactive = 'Y' AND ad_client_id IN (0, $2)
      ORDER BY ad_client_id DESC, isdefault DESC, ad_workflow_id LIMIT 1`,
    [tableId, clientId],
    );
    return rows[0] ? loadGraph(q, rows[0]) : null;
  });
}

/** Any workflow by id (an activity's). */
export async function workflowById(q: Queryable, workflowId: number): Promise<WfGraph | null> {
  return cached(graphsById, workflowId, q, async () => {
    const { rows } = await q.query<Row>('SELECT ad_workflow_id, ad_table_id, ad_wf_node_id, ad_wf_responsible_id FROM ad_workflow WHERE ad_workflow_id = $1', [workflowId]);
    return rows[0] ? loadGraph(q, rows[0]) : null;
  });
}

export async function responsibleById(q: Queryable, id: number | null): Promise<Responsible | null> {
  if (id === null) return null;
  return cached(responsibles, id, q, async () => {
    const { rows } = await q.query<Row>('SELECT ad_wf_responsible_id, responsibletype, ad_user_id, ad_role_id FROM ad_wf_responsible WHERE ad_wf_responsible_id = $1', [id]);
    const r = rows[0];
    return r ? { id, type: String(r.responsibletype ?? 'H'), userId: num(r.ad_user_id) || null, roleId: num(r.ad_role_id) || null } : null;
  });
}

/** The users of a client (and the System's) with their roles' approval limits and supervisors. */
export async function approversOf(q: Queryable, clientId: number): Promise<Map<number, Approver>> {
  return cached(approvers, clientId, q, () => loadApprovers(q, clientId));
}

async function loadApprovers(q: Queryable, clientId: number): Promise<Map<number, Approver>> {
  const { rows } = await q.query<Row>(
    `SELECT u.ad_user_id, u.isactive, u.supervisor_id, r.amtapproval, r.iscanapproveowndoc
       FROM ad_user u
       LEFT JOIN ad_user_roles ur ON ur.ad_user_id = u.ad_user_id AND ur.isactive = 'Y' AND ur.ad_client_id = $1
       LEFT JOIN ad_role r ON r.ad_role_id = ur.ad_role_id AND r.isactive = 'Y'
      WHERE u.ad_client_id IN (0, $1)`,
    [clientId],
  );
  const users = new Map<number, Approver>();
  for (const r of rows) {
    const id = Number(r.ad_user_id);
    let u = users.get(id);
    if (!u) users.set(id, (u = { userId: id, isActive: r.isactive === 'Y', supervisorId: num(r.supervisor_id) || null, roles: [] }));
    if (r.amtapproval !== null && r.amtapproval !== undefined) u.roles.push({ amtApproval: Number(r.amtapproval), canApproveOwnDoc: r.iscanapproveowndoc === 'Y' });
  }
  return users;
}
