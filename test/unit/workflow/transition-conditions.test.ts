import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { conditionHolds, conditionsHold, ConditionError, decodedValue, type WfCondition } from '../../../src/workflow/transition-conditions.js';

const cond = (column: string, operation: string, value: string | null, extra: Partial<WfCondition> = {}): WfCondition => ({
  seqNo: 10, andOr: 'A', column, kind: 'other', operation, value, value2: null, clientId: 0, ...extra,
});
const row = { grandtotal: 2226, c_bpartner_id: 118, documentno: 'WF80001', isapproved: 'N', issotrx: 'Y', description: null, dateordered: '2024-03-01 00:00:00', totallines: 100 };
const holds = (c: WfCondition) => conditionHolds(c, row);

describe('transition conditions', () => {
  it('compares numbers as numbers', () => {
    assert.equal(holds(cond('grandtotal', '>>', '1000')), true);
    assert.equal(holds(cond('grandtotal', '>>', '2226')), false);
    assert.equal(holds(cond('grandtotal', '>=', '2226.00')), true);
    assert.equal(holds(cond('grandtotal', '<<', '10000')), true, '<< is less than');
    assert.equal(holds(cond('grandtotal', '<=', '2225.99')), false);
    assert.equal(holds(cond('grandtotal', '==', '2226')), true);
    assert.equal(holds(cond('grandtotal', '!=', '2226')), false);
    assert.equal(holds(cond('grandtotal', '~~', '2226')), true, 'like compares as equality, as in the original');
    assert.equal(holds(cond('c_bpartner_id', '==', '118')), true, 'ids are numbers');
  });

  it('compares between both values, inclusive; a missing upper value fails', () => {
    assert.equal(holds(cond('grandtotal', 'AB', '2000', { value2: '3000' })), true);
    assert.equal(holds(cond('grandtotal', 'AB', '2226', { value2: '2226' })), true);
    assert.equal(holds(cond('grandtotal', 'AB', '2300', { value2: '3000' })), false);
    assert.equal(holds(cond('grandtotal', 'AB', '2000', { value2: null })), false);
    assert.equal(holds(cond('documentno', 'AB', 'WF8', { value2: 'WF9' })), true);
  });

  it('compares a number with a value that is not one as texts', () => {
    assert.equal(holds(cond('grandtotal', '>>', 'abc')), false, '"2226" sorts before "abc"');
    assert.equal(holds(cond('totallines', '<<', ' 99')), false, 'a space makes it text: "100" sorts after " 99"');
  });

  it('compares texts by character codes, and an empty column as empty text', () => {
    assert.equal(holds(cond('documentno', '==', 'WF80001')), true);
    assert.equal(holds(cond('documentno', '>>', 'WF8')), true);
    assert.equal(holds(cond('documentno', '<<', 'wf')), true, 'upper case sorts first');
    assert.equal(holds(cond('description', '==', '')), true);
    assert.equal(holds(cond('description', '!=', 'x')), true);
    assert.equal(holds(cond('nosuchcolumn', '==', '')), true, 'a column the row lacks reads empty, as the original');
  });

  it('compares Yes-No columns as booleans, with = and != only', () => {
    assert.equal(holds(cond('issotrx', '==', 'Y', { kind: 'yesNo' })), true);
    assert.equal(holds(cond('issotrx', '==', 'true', { kind: 'yesNo' })), true);
    assert.equal(holds(cond('isapproved', '==', 'Y', { kind: 'yesNo' })), false);
    assert.equal(holds(cond('isapproved', '!=', 'Y', { kind: 'yesNo' })), true);
    assert.equal(holds(cond('isapproved', '==', 'N', { kind: 'yesNo' })), true);
    assert.throws(() => holds(cond('isapproved', '>>', 'N', { kind: 'yesNo' })), ConditionError);
  });

  it('compares dates as the original\'s timestamp text', () => {
    assert.equal(holds(cond('dateordered', '==', '2024-03-01 00:00:00.0', { kind: 'date' })), true);
    assert.equal(holds(cond('dateordered', '>=', '2024-03-01', { kind: 'date' })), true);
    assert.equal(holds(cond('dateordered', '<<', '2024-02-29', { kind: 'date' })), false);
  });

  it('refuses SQL, unknown operations and conditions without a column', () => {
    assert.throws(() => holds(cond('grandtotal', 'SQ', 'x')), /SQL/);
    assert.throws(() => holds(cond('grandtotal', '=~', '1')), /unknown operation/);
    assert.throws(() => conditionHolds({ ...cond('x', '==', '1'), column: null }, row), /no column/);
  });

  it('decodes @COL= and @Name@ values from the row', () => {
    assert.equal(decodedValue('@COL=TotalLines', row), '100');
    assert.equal(decodedValue('@COL=Description', row), '@COL=Description', 'an empty column leaves the text');
    assert.equal(decodedValue('@DocumentNo@', row), 'WF80001');
    assert.equal(decodedValue('@Unknown@', row), '');
    assert.equal(decodedValue('plain', row), 'plain');
    assert.equal(holds(cond('grandtotal', '>>', '@COL=TotalLines')), true);
  });

  it('joins conditions left to right by their And/Or, without precedence', () => {
    const t = cond('grandtotal', '>>', '0');
    const f = cond('grandtotal', '<<', '0');
    const or = (c: WfCondition) => ({ ...c, andOr: 'O' });
    assert.equal(conditionsHold([], row), true);
    assert.equal(conditionsHold([{ ...f, andOr: 'O' }], row), false, 'the first condition\'s And/Or is not used');
    assert.equal(conditionsHold([f, or(t)], row), true);
    assert.equal(conditionsHold([t, f], row), false);
    // (t OR f) AND f = false; t OR (f AND f) would be true
    assert.equal(conditionsHold([t, or(f), f], row), false);
    // (f AND t) OR t = true
    assert.equal(conditionsHold([f, t, or(t)], row), true);
  });

  it('does not evaluate the right side once the result is known', () => {
    const sql = cond('grandtotal', 'SQ', 'x');
    assert.equal(conditionsHold([cond('grandtotal', '>>', '0'), { ...sql, andOr: 'O' }], row), true);
    assert.equal(conditionsHold([cond('grandtotal', '<<', '0'), sql], row), false);
    assert.throws(() => conditionsHold([cond('grandtotal', '>>', '0'), sql], row), ConditionError);
  });
});
