import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { approverFor, checkChoice, chooseTransition, mayApprove, nodeKind, pathOf, type Approver, type WfGraph, type WfNode } from '../../../src/workflow/workflow-rules.js';

const node = (id: number, action: string, extra: Partial<WfNode> = {}): WfNode => ({
  id, workflowId: 1, name: `n${id}`, description: null, help: null, action, docAction: null, columnName: null, attributeName: null, attributeValue: null, responsibleId: null, priority: 0, ...extra,
});

/** Process_Order as seeded: start, prepare (PR), approval (code CO), auto (--), approval -> complete. */
function processOrder(): WfGraph {
  const nodes = [node(1, 'Z'), node(2, 'D', { docAction: 'PR' }), node(3, 'D', { docAction: 'CO' }), node(4, 'D', { docAction: '--' }), node(5, 'C', { columnName: 'isapproved' })];
  return {
    workflowId: 1, tableId: 259, startNodeId: 1, responsibleId: 100,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    next: new Map([
      [1, [{ from: 1, to: 2, seqNo: 10, code: null }, { from: 1, to: 5, seqNo: 20, code: 'CO' }, { from: 1, to: 4, seqNo: 100, code: null }]],
      [5, [{ from: 5, to: 3, seqNo: 10, code: null }]],
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
    assert.deepEqual(pathOf(g, 'CO').map((n) => n.id), [1, 5]);
    assert.deepEqual(pathOf(g, 'PR').map((n) => n.id), [1, 2]);
    assert.deepEqual(pathOf(g, 'CL').map((n) => n.id), [1, 4]);
  });

  it('names node kinds', () => {
    assert.equal(nodeKind(node(1, 'C', { columnName: 'isapproved' })), 'approval');
    assert.equal(nodeKind(node(1, 'C', { columnName: 'description' })), 'choice');
    assert.equal(nodeKind(node(1, 'I')), 'notification');
    assert.equal(nodeKind(node(1, 'D')), 'other');
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
