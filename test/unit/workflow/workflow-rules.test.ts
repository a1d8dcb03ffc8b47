import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WfCondition } from '../../../src/workflow/transition-conditions.js';
import { approverFor, checkChoice, chooseTransition, mayApprove, nodeKind, pathOf, suspends, type Approver, type WfGraph, type WfNode, type WfTransition } from '../../../src/workflow/workflow-rules.js';

const node = (id: number, action: string, extra: Partial<WfNode> = {}): WfNode => ({
  id, workflowId: 1, name: `n${id}`, description: null, help: null, action, docAction: null, columnName: null, attributeName: null, attributeValue: null, responsibleId: null, priority: 0, waitTime: 0, ...extra,
});
const next = (from: number, to: number, seqNo: number, code: string | null = null, conditions: WfCondition[] = []): WfTransition => ({ from, to, seqNo, code, conditions });
const cond = (column: string, operation: string, value: string, extra: Partial<WfCondition> = {}): WfCondition => ({
  seqNo: 10, andOr: 'A', column, kind: 'other', operation, value, value2: null, clientId: 0, ...extra,
});
const order = { ad_client_id: 11, grandtotal: 2226, docstatus: 'DR' };

/** Process_Order as seeded: start, prepare (PR), approval (code CO), auto (--), approval -> complete. */
function processOrder(): WfGraph {
  const nodes = [node(1, 'Z'), node(2, 'D', { docAction: 'PR' }), node(3, 'D', { docAction: 'CO' }), node(4, 'D', { docAction: '--' }), node(5, 'C', { columnName: 'isapproved' })];
  return {
    workflowId: 1, tableId: 259, startNodeId: 1, responsibleId: 100,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    next: new Map([
      [1, [next(1, 2, 10), next(1, 5, 20, 'CO'), next(1, 4, 100)]],
      [5, [next(5, 3, 10)]],
    ]),
  };
}

describe('workflow transitions', () => {
  it('takes the transition whose code or target document action is the requested action, else the default', () => {
    const g = processOrder();
    assert.equal(chooseTransition(g, 1, 'CO')?.to, 5);
    assert.equal(chooseTransition(g, 1, 'PR')?.to, 2);
    assert.equal(chooseTransition(g, 1, 'VO')?.to, 4);
    assert.equal(chooseTransition(g, 5, 'CO')?.to, 3, 'a single transition is always taken');
    assert.equal(chooseTransition(g, 3, 'CO'), null, 'the end');
  });

  it('walks a path up to the first user node', () => {
    const g = processOrder();
    assert.deepEqual(pathOf(g, 'CO', order), { nodes: [g.nodes.get(1), g.nodes.get(5)], stop: 'suspend' });
    assert.deepEqual(pathOf(g, 'PR', order).nodes.map((n) => n.id), [1, 2]);
    assert.equal(pathOf(g, 'PR', order).stop, 'end');
    assert.deepEqual(pathOf(g, 'CL', order).nodes.map((n) => n.id), [1, 4]);
  });

  it('stops at a wait with a waiting time; a wait without one goes on', () => {
    const g = processOrder();
    g.nodes.set(6, node(6, 'Z', { waitTime: 60 }));
    g.next.set(1, [next(1, 6, 10, 'CO'), next(1, 4, 100)]);
    g.next.set(6, [next(6, 3, 10)]);
    assert.deepEqual(pathOf(g, 'CO', order), { nodes: [g.nodes.get(1), g.nodes.get(6)], stop: 'suspend' });
    assert.equal(suspends(node(7, 'Z', { waitTime: -1 })), true, 'a negative waiting time waits too (it is due at once)');
    assert.equal(suspends(node(7, 'Z')), false);
  });

  it('names node kinds', () => {
    assert.equal(nodeKind(node(1, 'C', { columnName: 'isapproved' })), 'approval');
    assert.equal(nodeKind(node(1, 'C', { columnName: 'description' })), 'choice');
    assert.equal(nodeKind(node(1, 'I')), 'notification');
    assert.equal(nodeKind(node(1, 'D')), 'other');
  });
});

describe('transitions with conditions', () => {
  /** (Start) -> wait when the grand total is above 1,000 (seq 10), else -> complete (seq 20), else -> auto (seq 100). */
  function routing(conditions: WfCondition[]): WfGraph {
    const nodes = [node(1, 'Z'), node(2, 'Z', { waitTime: 30 }), node(3, 'D', { docAction: 'CO' }), node(4, 'D', { docAction: '--' })];
    return {
      workflowId: 1, tableId: 259, startNodeId: 1, responsibleId: null,
      nodes: new Map(nodes.map((n) => [n.id, n])),
      next: new Map([
        [1, [next(1, 2, 10, null, conditions), next(1, 3, 20, 'CO'), next(1, 4, 100)]],
        [2, [next(2, 3, 10)]],
      ]),
    };
  }

  it('takes the first valid transition by SeqNo, its conditions holding on the row', () => {
    const g = routing([cond('grandtotal', '>>', '1000')]);
    assert.equal(chooseTransition(g, 1, 'CO', order)?.to, 2);
    assert.equal(chooseTransition(g, 1, 'CO', { ...order, grandtotal: 999 })?.to, 3);
    assert.equal(chooseTransition(g, 1, 'CO', { ...order, grandtotal: 1000 })?.to, 3, '>> is strictly greater');
    assert.equal(chooseTransition(g, 1, 'PR', { ...order, grandtotal: 10 })?.to, 4, 'a TransitionCode makes its transition valid for that action only');
    assert.throws(() => chooseTransition(g, 1, 'CO', null), /row/);
  });

  it('follows the conditions on the path, and leaves the path open when a node before them may change the row', () => {
    const g = routing([cond('grandtotal', '>>', '1000')]);
    assert.deepEqual(pathOf(g, 'CO', order).nodes.map((n) => n.id), [1, 2]);
    assert.deepEqual(pathOf(g, 'CO', { ...order, grandtotal: 5 }), { nodes: [g.nodes.get(1), g.nodes.get(3)], stop: 'end' });
    g.nodes.set(1, node(1, 'V', { attributeName: 'GrandTotal', attributeValue: '5000' }));
    assert.equal(pathOf(g, 'CO', { ...order, grandtotal: 5 }).stop, 'unknown');
  });

  it('applies the System\'s conditions and the document client\'s, not another client\'s', () => {
    const g = routing([cond('grandtotal', '>>', '1000', { clientId: 12 })]);
    assert.equal(chooseTransition(g, 1, 'CO', order)?.to, 3, 'no condition applies: the choice by action');
    const own = routing([cond('grandtotal', '>>', '1000', { clientId: 11 })]);
    assert.equal(chooseTransition(own, 1, 'CO', order)?.to, 2);
  });

  it('ends the workflow when the only transition\'s conditions fail', () => {
    const g = routing([]);
    g.next.set(2, [next(2, 3, 10, null, [cond('docstatus', '==', 'IP')])]);
    assert.equal(chooseTransition(g, 2, 'CO', order), null);
    assert.equal(chooseTransition(g, 2, 'CO', { ...order, docstatus: 'IP' })?.to, 3);
  });
});

describe('approval decisions', () => {
  const users = new Map<number, Approver>([
    [102, { userId: 102, isActive: true, supervisorId: 101, roles: [{ amtApproval: 1000, canApproveOwnDoc: true }] }],
    [101, { userId: 101, isActive: true, supervisorId: 104, roles: [{ amtApproval: 100000, canApproveOwnDoc: false }] }],
    [104, { userId: 104, isActive: false, supervisorId: null, roles: [{ amtApproval: 1e9, canApproveOwnDoc: true }] }],
    [105, { userId: 105, isActive: true, supervisorId: 105, roles: [] }],
  ]);

  it('lets a role approve up to its amount; zero approves nothing but a zero amount', () => {
    assert.equal(mayApprove(users.get(102)!, 1000, false), true);
    assert.equal(mayApprove(users.get(102)!, 1000.01, false), false);
    assert.equal(mayApprove({ userId: 1, isActive: true, supervisorId: null, roles: [{ amtApproval: 0, canApproveOwnDoc: true }] }, 5, false), false);
    assert.equal(mayApprove(users.get(105)!, 0, false), true);
  });

  it('needs IsCanApproveOwnDoc for own documents', () => {
    assert.equal(mayApprove(users.get(101)!, 10, true), false);
    assert.equal(mayApprove(users.get(101)!, 10, false), true);
  });

  it('walks the supervisor chain, skipping inactive users, and ends without an approver', () => {
    assert.equal(approverFor(users, 102, 500, true), 102);
    assert.equal(approverFor(users, 102, 5000, true), 101, 'the supervisor; no longer his own document');
    assert.equal(approverFor(users, 101, 50, true), null, 'own document, and the supervisor is inactive');
    assert.equal(approverFor(users, 105, 1, false), null, 'a loop ends');
    assert.equal(approverFor(users, 999, 1, false), null);
  });
});

describe('user choice values', () => {
  const list = { name: 'DeliveryRule', referenceId: 17, fieldLength: 1 };
  const text = { name: 'Description', referenceId: 10, fieldLength: 10 };
  it('checks list values, string lengths and the column type', () => {
    assert.deepEqual(checkChoice(list, new Set(['A', 'F']), 'F'), { value: 'F' });
    assert.ok('refused' in checkChoice(list, new Set(['A', 'F']), 'Z'));
    assert.deepEqual(checkChoice(text, null, 'short'), { value: 'short' });
    assert.ok('refused' in checkChoice(text, null, 'much too long'));
    assert.ok('refused' in checkChoice(text, null, undefined));
    assert.ok('refused' in checkChoice(text, null, { a: 1 }));
    assert.ok('refused' in checkChoice({ name: 'QtyOrdered', referenceId: 29, fieldLength: 22 }, null, '5'));
  });
});
