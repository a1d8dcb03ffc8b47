import { conditionsFor, conditionsHold, type WfCondition } from './transition-conditions.js';

/**
 * The pure rules of the workflow engine: which transition a node takes, whether a user may
 * approve a document amount, and which kind of answer a suspended node expects. No database.
 */

/** Workflow instance states (reference 305). */
export type WfState = 'ON' | 'OR' | 'OS' | 'CC' | 'CA' | 'CT';

/** Node actions (reference 302) that the engine runs. */
export const ACTION = { userChoice: 'C', documentAction: 'D', userInfo: 'I', setVariable: 'V', wait: 'Z' } as const;

export interface WfNode {
  id: number;
  workflowId: number;
  name: string;
  description: string | null;
  help: string | null;
  action: string;
  docAction: string | null;
  /** The column of a user choice node, by physical name. */
  columnName: string | null;
  attributeName: string | null;
  attributeValue: string | null;
  responsibleId: number | null;
  priority: number;
  /** Minutes a wait node waits (AD_WF_Node.WaitTime); 0: none. */
  waitTime: number;
}

export interface WfTransition {
  from: number;
  to: number;
  seqNo: number;
  /** A document action that selects this transition (AD_WF_NodeNext.TransitionCode). */
  code: string | null;
  /** Its conditions (AD_WF_NextCondition), by SeqNo. */
  conditions: WfCondition[];
}

export interface WfGraph {
  workflowId: number;
  tableId: number;
  startNodeId: number;
  responsibleId: number | null;
  nodes: Map<number, WfNode>;
  /** Outgoing transitions of each node, by SeqNo. */
  next: Map<number, WfTransition[]>;
}

/** The kind of answer a suspended node waits for. */
export type NodeKind = 'approval' | 'choice' | 'notification' | 'other';

export function nodeKind(node: WfNode): NodeKind {
  if (node.action === ACTION.userChoice) return node.columnName === 'isapproved' ? 'approval' : 'choice';
  if (node.action === ACTION.userInfo) return 'notification';
  return 'other';
}

/** Nodes that suspend the workflow until a user answers. */
export const isUserNode = (node: WfNode): boolean => nodeKind(node) !== 'other';

/** A wait node with a waiting time: it suspends until the Workflow Processor continues it. */
export const isTimedWait = (node: WfNode): boolean => node.action === ACTION.wait && node.waitTime !== 0;

/** Nodes that suspend the workflow: user nodes and timed waits. */
export const suspends = (node: WfNode): boolean => isUserNode(node) || isTimedWait(node);

/** Whether the choice out of a node depends on the document's values (a transition has conditions). */
export const hasConditions = (graph: WfGraph, nodeId: number): boolean => (graph.next.get(nodeId) ?? []).some((t) => t.conditions.length > 0);

/**
 * The transition a node takes for a requested document action (XOR split). When a transition
 * of the node has conditions for the document's client, the choice is the original's: the first
 * transition by SeqNo that is valid — its conditions hold on the row and its TransitionCode, if
 * any, names the action. Otherwise: one whose TransitionCode names the action; else one leading
 * to a document action node of that action; else the default (a transition with no code that
 * leads to no specific document action). A single transition is taken whatever its code. Null:
 * the node ends the workflow. The row is needed only when the node has conditions.
 */
export function chooseTransition(graph: WfGraph, fromNodeId: number, docAction: string, row: Readonly<Record<string, unknown>> | null = null): WfTransition | null {
  const out = graph.next.get(fromNodeId) ?? [];
  if (hasConditions(graph, fromNodeId)) {
    if (!row) throw new Error(`the transitions of node ${fromNodeId} have conditions: the document row is needed`);
    const clientId = Number(row.ad_client_id ?? 0);
    const applying = out.map((t) => ({ t, conditions: conditionsFor(t.conditions, clientId) }));
    if (applying.some((a) => a.conditions.length)) {
      const valid = applying.find((a) => (out.length === 1 || !a.t.code || a.t.code === docAction) && conditionsHold(a.conditions, row));
      return valid?.t ?? null;
    }
  }
  if (out.length <= 1) return out[0] ?? null;
  const target = (t: WfTransition) => graph.nodes.get(t.to);
  const specificAction = (t: WfTransition) => {
    const n = target(t);
    return n?.action === ACTION.documentAction && n.docAction && n.docAction !== '--' ? n.docAction : null;
  };
  return (
    out.find((t) => t.code === docAction) ??
    out.find((t) => !t.code && specificAction(t) === docAction) ??
    out.find((t) => !t.code && specificAction(t) === null) ??
    null
  );
}

/**
 * The nodes a document action walks through, from the start node, and why the walk stops: the
 * workflow ends, a node suspends it, or a choice depends on conditions that a node before it may
 * change on the document (a document action or set variable node): only running it tells.
 */
export interface WfPath {
  nodes: WfNode[];
  stop: 'end' | 'suspend' | 'unknown';
}

export function pathOf(graph: WfGraph, docAction: string, row: Readonly<Record<string, unknown>>, from = graph.startNodeId): WfPath {
  const nodes: WfNode[] = [];
  const seen = new Set<number>();
  let writes = false;
  let id: number | null = from;
  while (id !== null && !seen.has(id)) {
    seen.add(id);
    const node = graph.nodes.get(id);
    if (!node) break;
    nodes.push(node);
    if (suspends(node)) return { nodes, stop: 'suspend' };
    writes ||= node.action === ACTION.documentAction || node.action === ACTION.setVariable;
    if (writes && hasConditions(graph, id)) return { nodes, stop: 'unknown' };
    id = chooseTransition(graph, id, docAction, row)?.to ?? null;
  }
  return { nodes, stop: 'end' };
}

/** What the approval rules know of a user: the roles and the supervisor. */
export interface Approver {
  userId: number;
  isActive: boolean;
  supervisorId: number | null;
  roles: { amtApproval: number; canApproveOwnDoc: boolean }[];
}

/**
 * Whether one user may approve an amount: a role of theirs whose approval amount is positive and
 * at least the amount, and that may approve the user's own documents when the document is theirs.
 * Nothing to approve (a zero amount) is always approved.
 */
export function mayApprove(user: Approver, amount: number, ownDocument: boolean): boolean {
  if (amount === 0) return true;
  return user.roles.some((r) => (!ownDocument || r.canApproveOwnDoc) && r.amtApproval > 0 && Math.abs(amount) <= r.amtApproval);
}

/**
 * The user who approves an amount for a starter, as the original walks it: the starter when a role
 * of theirs may (own documents need IsCanApproveOwnDoc), else up the supervisor chain (documents are
 * no longer the supervisor's own). Null when the chain ends (no supervisor, an inactive user or a
 * loop) without anyone who may approve.
 */
export function approverFor(users: ReadonlyMap<number, Approver>, startUserId: number, amount: number, ownDocument: boolean): number | null {
  const seen = new Set<number>();
  let user = users.get(startUserId);
  let own = ownDocument;
  while (user && !seen.has(user.userId)) {
    seen.add(user.userId);
    if (user.isActive && mayApprove(user, amount, own)) return user.userId;
    own = false;
    user = user.supervisorId !== null ? users.get(user.supervisorId) : undefined;
  }
  return null;
}

/** The optional message of a confirmation body, and its other members. */
export function bodyObject(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function messageOf(body: unknown): string | null {
  const m = bodyObject(body).message;
  return typeof m === 'string' && m.trim() ? m.trim() : typeof m === 'number' ? String(m) : null;
}

/** A user choice value checked against its column: List values by key, String values by length. */
export function checkChoice(column: { name: string; referenceId: number; fieldLength: number }, listValues: ReadonlySet<string> | null, value: unknown): { value: string } | { refused: string } {
  if (value === undefined || value === null || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) {
    return { refused: 'value is required (a string)' };
  }
  const text = String(value);
  if (column.referenceId === 17) {
    if (!listValues?.has(text)) return { refused: `${text} is not a value of the list of ${column.name}` };
    return { value: text };
  }
  if (column.referenceId === 10 || column.referenceId === 14) {
    if (column.fieldLength > 0 && text.length > column.fieldLength) return { refused: `${column.name} holds at most ${column.fieldLength} characters` };
    return { value: text };
  }
  return { refused: `user choices are set on List and String columns only; ${column.name} is neither` };
}
