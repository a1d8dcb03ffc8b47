import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthContext } from '../../../src/auth/context.js';
import type { Column } from '../../../src/dictionary/model.js';
import { applyPlannedDefaults, defaultPlan, defaultWithoutQuery, evaluateDefault, NEEDS_QUERY } from '../../../src/records/write/defaults.js';
import type { Queryable } from '../../../src/db/types.js';

const auth = { clientId: 11, userId: 100, roleId: 102, orgId: 11, warehouseId: 103, language: 'en_US' } as AuthContext;
const column = (kind: Column['kind'], defaultValue: string): Column => ({ kind, defaultValue }) as Column;

/** A query runner that answers one value and counts the statements it was asked to run. */
function oneValue(value: unknown): Queryable & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    query: async (sql: string) => {
      statements.push(sql);
      return { rows: [{ v: value }], rowCount: 1 };
    },
  } as unknown as Queryable & { statements: string[] };
}

describe('column defaults', () => {
  it('gives literals, variables and SYSDATE without a query, typed as the column', () => {
    assert.equal(defaultWithoutQuery(column('boolean', "'Y'"), {}, null, auth), 'Y');
    assert.equal(defaultWithoutQuery(column('integer', '10'), {}, null, auth), 10);
    assert.equal(defaultWithoutQuery(column('foreign-key', '@#AD_Org_ID@'), {}, null, auth), 11);
    assert.equal(defaultWithoutQuery(column('foreign-key', '@C_BPartner_ID@'), {}, { c_bpartner_id: 117 }, auth), 117, "the parent's value");
    assert.equal(defaultWithoutQuery(column('foreign-key', '@C_BPartner_ID@'), { c_bpartner_id: 118 }, { c_bpartner_id: 117 }, auth), 118, 'its own value first');
    assert.match(String(defaultWithoutQuery(column('date', 'SYSDATE'), {}, null, auth)), /^\d{4}-\d\d-\d\d 00:00:00$/);
    assert.equal(defaultWithoutQuery(column('string', '@Missing@;fallback'), {}, null, auth), 'fallback', 'the next alternative when one gives nothing');
    assert.equal(defaultWithoutQuery(column('string', ''), {}, null, auth), null);
  });

  it('says when a query is needed, and evaluateDefault then runs it with the variables as parameters', async () => {
    const col = column('foreign-key', '@Missing@;@SQL=SELECT x FROM t WHERE c = @#AD_Client_ID@');
    assert.equal(defaultWithoutQuery(col, {}, null, auth), NEEDS_QUERY);
    const q = oneValue(42);
    assert.equal(await evaluateDefault(q, col, {}, null, auth), 42);
    assert.deepEqual(q.statements, ['SELECT x FROM t WHERE c = $1']);
    const before = column('integer', '7;@SQL=SELECT 1');
    assert.equal(defaultWithoutQuery(before, {}, null, auth), 7, 'a value before the query alternative needs no query');
  });

  it('plans a table\'s defaults once and fills rows as the per-row evaluation does, or has no plan when one needs a query', () => {
    const named = (dbName: string, kind: Column['kind'], defaultValue: string): Column => ({ dbName, name: dbName, kind, defaultValue }) as Column;
    const columns = [
      named('isactive', 'boolean', "'Y'"),
      named('qty', 'integer', '10'),
      named('ad_org_id', 'foreign-key', '@#AD_Org_ID@'),
      named('c_bpartner_id', 'foreign-key', '@C_BPartner_ID@'),
      named('description', 'string', '@Missing@;fallback'),
      named('dateacct', 'date', 'SYSDATE'),
      named('note', 'string', ''),
    ];
    const plan = defaultPlan(columns, () => false);
    assert.ok(plan);
    for (const [row, parent] of [
      [{}, null],
      [{ c_bpartner_id: 118, qty: 3 }, { c_bpartner_id: 117 }],
      [{}, { c_bpartner_id: 117 }],
    ] as [Record<string, unknown>, Record<string, unknown> | null][]) {
      const planned = { ...row };
      applyPlannedDefaults(plan, planned, parent, auth);
      const evaluated: Record<string, unknown> = { ...row };
      for (const col of columns) {
        if (evaluated[col.dbName] !== undefined) continue;
        const v = defaultWithoutQuery(col, evaluated, parent, auth);
        if (v !== null) evaluated[col.dbName] = v;
      }
      // SYSDATE is the clock's: compared by its form.
      assert.match(String(planned.dateacct), /^\d{4}-\d\d-\d\d 00:00:00$/);
      assert.deepEqual({ ...planned, dateacct: 'd' }, { ...evaluated, dateacct: 'd' }, JSON.stringify(row));
    }
    assert.equal(defaultPlan([...columns, named('m_pricelist_id', 'foreign-key', '@SQL=SELECT 1')], () => false), null);
  });
});
