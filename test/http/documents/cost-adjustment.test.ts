import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, costingCalls } from './costing-helpers.js';
import { otherClientAdmin } from './other-client.js';

/** The demo's document type Cost Adjustment (MMI, CA) and its cost adjustment account. */
const COST_ADJUSTMENT_DOCTYPE = 1131000;
const COST_ADJUSTMENT = 1128101;
const HQ_WAREHOUSE = 103;

type Rec = Record<string, any>;

describe('cost adjustments (M_Inventory of sub type CA) and the cost history', () => {
  const fx = serverWithDemoRoles();
  const c = costingCalls(() => ({ server: fx.server, token: fx.admin }));
  const violations = () => booksViolations(fx.server.services.db, 11);
  const round2 = (n: number) => Math.round(n * 100) / 100;

  /** A cost adjustment of the lines (product, new price), in draft. */
  const adjustment = (lines: [product: number, price: number][], extra: Rec = {}, token = fx.admin) =>
    c.call('POST', '/api/v1/models/m_inventory', {
      C_DocType_ID: COST_ADJUSTMENT_DOCTYPE, M_Warehouse_ID: HQ_WAREHOUSE, ...extra,
      M_InventoryLine: lines.map(([product, price]) => ({ M_Product_ID: product, NewCostPrice: price })),
    }, token);

  /** Completes a document (asserting it), answering its id. */
  async function complete(id: number, token = fx.admin) {
    const done = await c.call('PUT', `/api/v1/models/m_inventory/${id}`, { 'doc-action': 'CO' }, token);
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    assert.equal(idOf(done.body.Posted), 'Y');
    return id;
  }

  /** A completed adjustment of one product to a new price. */
  async function adjust(product: number, price: number, token = fx.admin) {
    const a = await adjustment([[product, price]], {}, token);
    assert.equal(a.status, 201, a.text);
    return complete(Number(a.body.id), token);
  }

  /** The document's facts as debit − credit by account (rounded). */
  async function facts(id: number) {
    const rows = await c.records('fact_acct', `AD_Table_ID eq 321 and Record_ID eq ${id}`, 'Fact_Acct_ID');
    const dr = rows.reduce((n, f) => n + Number(f.AmtAcctDr), 0);
    const cr = rows.reduce((n, f) => n + Number(f.AmtAcctCr), 0);
    assert.equal(round2(dr), round2(cr), 'the facts balance');
    const out: Record<number, number> = {};
    for (const f of rows) out[Number(idOf(f.Account_ID))] = round2((out[Number(idOf(f.Account_ID))] ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr));
    return out;
  }

  /** The history rows of a product's cost adjustments (the stock documents' costing keeps rows of its own). */
  const adjustmentRows = async (product: number) => {
    const details = new Set((await c.records('m_costdetail', `M_Product_ID eq ${product} and Description eq 'Cost Adjustment'`)).map((d) => Number(d.id)));
    return (await c.records('m_costhistory', `M_Product_ID eq ${product}`, 'M_CostHistory_ID')).filter((h) => details.has(Number(idOf(h.M_CostDetail_ID))));
  };
  const history = async (product: number) =>
    (await adjustmentRows(product)).map((h) => [
      Number(h.OldCostPrice), Number(h.NewCostPrice), Number(h.OldQty), Number(h.NewQty), round2(Number(h.OldCAmt)), round2(Number(h.NewCAmt)),
    ]);

  const expectCost = async (product: number, price: number, qty: number, step: string) => {
    const cost = await c.cost(product);
    assert.deepEqual([round2(cost.price), cost.qty], [price, qty], step);
    assert.equal(await c.balance(product, ASSET), round2(price * qty), `${step}: the inventory account holds the stock value`);
  };

  const lineOf = async (id: number) => (await c.records('m_inventoryline', `M_Inventory_ID eq ${id}`))[0]!;

  it('sets a standard cost up and down, revaluing the stock on hand against Cost Adjustment; a reversal takes the change back', async () => {
    const p = await c.product('S', 10);
    await c.receive(p, 10, 10);
    await expectCost(p, 10, 10, 'received at the standard cost');

    const draft = await adjustment([[p, 12]]);
    assert.equal(draft.status, 201, draft.text);
    const [line] = draft.body.M_InventoryLine;
    assert.deepEqual([Number(line.CurrentCostPrice), Number(line.NewCostPrice), Number(line.QtyBook), Number(line.QtyCount)], [10, 12, 0, 0], 'the line takes the current cost');
    const up = await complete(Number(draft.body.id));
    await expectCost(p, 12, 10, 'raised to 12');
    assert.deepEqual(await facts(up), { [ASSET]: 20, [COST_ADJUSTMENT]: -20 });
    const [detail] = await c.records('m_costdetail', `M_InventoryLine_ID eq ${line.id}`);
    assert.deepEqual([Number(detail!.Amt), Number(detail!.Qty), Number(detail!.CurrentCostPrice), Number(detail!.CurrentQty)], [20, 0, 10, 10]);
    assert.deepEqual((await c.records('m_transaction', `M_InventoryLine_ID eq ${line.id}`)).length, 0, 'no stock moves');
    assert.deepEqual(await violations(), []);

    await c.ship(p, 4);
    await expectCost(p, 12, 6, 'shipped at 12');
    const down = await adjust(p, 9);
    await expectCost(p, 9, 6, 'lowered to 9');
    assert.deepEqual(await facts(down), { [ASSET]: -18, [COST_ADJUSTMENT]: 18 });
    assert.deepEqual(await history(p), [
      [10, 12, 10, 10, 0, 20],
      [12, 9, 6, 6, 20, 2],
    ]);
    assert.deepEqual(await violations(), []);

    const reversed = await c.ok('PUT', `/api/v1/models/m_inventory/${down}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const reversalId = Number(idOf(reversed.Reversal_ID));
    await expectCost(p, 12, 6, 'the reversal takes the 3 back');
    assert.deepEqual(await facts(reversalId), { [ASSET]: 18, [COST_ADJUSTMENT]: -18 });
    const back = await lineOf(reversalId);
    assert.deepEqual([Number(back.CurrentCostPrice), Number(back.NewCostPrice)], [9, 12]);
    assert.equal((await history(p)).length, 3);
    assert.deepEqual(await violations(), []);
  });

  it('sets an average cost, as a weighted average of the revaluation with no quantity; a void after stock moved keeps the books equal to the stock', async () => {
    const p = await c.product('A', 10);
    await c.receive(p, 10, 10);
    await c.receive(p, 10, 14);
    await expectCost(p, 12, 20, 'averaged 10 and 14');
    const before = await c.records('m_cost', `M_Product_ID eq ${p}`);

    const first = await adjust(p, 15);
    await expectCost(p, 15, 20, 'adjusted to 15');
    assert.deepEqual(await facts(first), { [ASSET]: 60, [COST_ADJUSTMENT]: -60 });
    const [cost] = await c.records('m_cost', `M_Product_ID eq ${p}`);
    assert.equal(round2(Number(cost!.CumulatedAmt) - Number(before[0]!.CumulatedAmt)), 60, 'the cumulated amount takes the revaluation');
    assert.equal(Number(cost!.CumulatedQty), Number(before[0]!.CumulatedQty), 'and no quantity');

    await c.ship(p, 5);
    const second = await adjust(p, 11);
    await expectCost(p, 11, 15, 'adjusted to 11');
    assert.deepEqual(await facts(second), { [ASSET]: -60, [COST_ADJUSTMENT]: 60 });
    assert.deepEqual((await history(p)).map((h) => h.slice(0, 4)), [
      [12, 15, 20, 20],
      [15, 11, 15, 15],
    ]);
    assert.deepEqual(await violations(), []);

    const voided = await c.ok('PUT', `/api/v1/models/m_inventory/${first}`, { 'doc-action': 'VO' });
    assert.ok(['VO', 'RE'].includes(String(idOf(voided.DocStatus))), String(idOf(voided.DocStatus)));
    await expectCost(p, 8, 15, 'the void takes the 3 a unit back from the 15 on hand');
    assert.deepEqual(await facts(Number(idOf(voided.Reversal_ID))), { [ASSET]: -45, [COST_ADJUSTMENT]: 45 });
    assert.deepEqual(await violations(), []);
  });

  it('a receipt or a count reversed after its standard cost changed takes its stock out at the new cost, the difference to Cost Adjustment', async () => {
    const p = await c.product('S', 10);
    const receipt = await c.receive(p, 10, 10);
    const counted = await c.ok('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: HQ_WAREHOUSE, 'doc-action': 'CO', M_InventoryLine: [{ M_Product_ID: p, QtyCount: 8 }] });
    await expectCost(p, 10, 8, 'two counted out at 10');
    await adjust(p, 12);
    await expectCost(p, 12, 8, 'adjusted to 12');

    const recount = await c.ok('PUT', `/api/v1/models/m_inventory/${counted.id}`, { 'doc-action': 'RC' });
    await expectCost(p, 12, 10, 'the count\'s reversal brings the two back at 12');
    assert.deepEqual(await facts(Number(idOf(recount.Reversal_ID))), { [ASSET]: 24, [COST_ADJUSTMENT]: -4, 1109000: -20 });
    const back = await c.ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'RC' });
    await expectCost(p, 12, 0, 'the receipt\'s reversal takes the ten out at 12');
    const reversalFacts = await c.records('fact_acct', `AD_Table_ID eq 319 and Record_ID eq ${Number(idOf(back.Reversal_ID))} and Account_ID eq ${COST_ADJUSTMENT}`);
    assert.deepEqual(reversalFacts.map((f) => round2(Number(f.AmtAcctDr) - Number(f.AmtAcctCr))), [20]);
    assert.deepEqual(await violations(), []);
  });

  it('refuses an adjustment without lines, products it cannot adjust, negative prices, and a line whose cost changed since; nothing is written', async () => {
    const empty = await adjustment([]);
    assert.equal(empty.status, 201, empty.text);
    const noLines = await c.call('PUT', `/api/v1/models/m_inventory/${empty.body.id}`, { 'doc-action': 'CO' });
    assert.equal(noLines.status, 400, noLines.text);
    assert.match(noLines.body.detail, /no lines/);

    const fresh = await c.product('A', 10);
    const noCost = await adjustment([[fresh, 5]]);
    assert.equal(noCost.status, 400, noCost.text);
    assert.match(noCost.body.detail, /has no cost to adjust/);

    const fifo = await c.product('F', 10);
    await c.receive(fifo, 2, 10);
    const layered = await adjustment([[fifo, 5]]);
    assert.equal(layered.status, 400, layered.text);
    assert.match(layered.body.detail, /costed by Fifo/);

    const avg = await c.product('A', 10);
    await c.receive(avg, 4, 10);
    const negative = await adjustment([[avg, -1]]);
    assert.equal(negative.status, 400, negative.text);
    assert.match(negative.body.detail, /column NewCostPrice/);
    const zero = await adjustment([[avg, 0]]);
    assert.equal(zero.status, 400, zero.text);
    assert.match(zero.body.detail, /greater than 0 \(column NewCostPrice\)/);
    const otherMethod = await adjustment([[avg, 11]], { CostingMethod: 'S' });
    assert.equal(otherMethod.status, 400, otherMethod.text);
    assert.match(otherMethod.body.detail, /adjusts Standard Costing/);
    const twice = await c.call('POST', '/api/v1/models/m_inventory', {
      C_DocType_ID: COST_ADJUSTMENT_DOCTYPE, M_Warehouse_ID: HQ_WAREHOUSE, M_InventoryLine: [{ M_Product_ID: avg, NewCostPrice: 11 }, { M_Product_ID: avg, NewCostPrice: 12 }],
    });
    assert.equal(twice.status, 201, twice.text);
    const refusedTwice = await c.call('PUT', `/api/v1/models/m_inventory/${twice.body.id}`, { 'doc-action': 'CO' });
    assert.equal(refusedTwice.status, 400, refusedTwice.text);
    assert.match(refusedTwice.body.detail, /more than one line/);

    const stale = await adjustment([[avg, 20]]);
    assert.equal(stale.status, 201, stale.text);
    await c.receive(avg, 4, 14);
    await expectCost(avg, 12, 8, 'the receipt moved the average');
    const refused = await c.call('PUT', `/api/v1/models/m_inventory/${stale.body.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /line 10: the current cost of product \d+ changed since the line was made \(from 10 to 12\)/);
    await expectCost(avg, 12, 8, 'nothing was adjusted');
    const [still] = await c.records('m_inventory', `M_Inventory_ID eq ${stale.body.id}`);
    assert.notEqual(idOf(still!.DocStatus), 'CO');
    assert.equal((await adjustmentRows(avg)).length, 0);
    assert.equal((await c.records('fact_acct', `AD_Table_ID eq 321 and Record_ID eq ${stale.body.id}`)).length, 0);

    // Made again, the line takes the cost now and completes.
    const line = await lineOf(Number(stale.body.id));
    const again = await c.call('PUT', `/api/v1/models/m_inventoryline/${line.id}`, { M_Product_ID: fresh });
    assert.equal(again.status, 400, again.text);
    const remade = await adjustment([[avg, 20]]);
    assert.equal(Number(remade.body.M_InventoryLine[0].CurrentCostPrice), 12);
    await complete(Number(remade.body.id));
    await expectCost(avg, 20, 8, 'adjusted to 20');
    assert.deepEqual(await violations(), []);
  });

  it('the cost history is written by documents only: the least-privileged role adjusts costs of its organization and reads the history, writes none; another client sees none', async () => {
    const p = await c.product('A', 10);
    await c.receive(p, 3, 10);
    const own = await adjust(p, 13, fx.ws);
    await expectCost(p, 13, 3, 'adjusted by the least-privileged role');
    const read = await c.call('GET', `/api/v1/models/m_costhistory?$filter=${encodeURIComponent(`M_Product_ID eq ${p}`)}`, undefined, fx.ws);
    assert.equal(read.status, 200, read.text);
    const adjusted = new Set((await adjustmentRows(p)).map((r) => Number(r.id)));
    const rows = (read.body.records as Rec[]).filter((r) => adjusted.has(Number(r.id)));
    assert.equal(rows.length, 1, 'the adjustment\'s row is among those the role reads');
    const [h] = rows;
    const write = await c.call('POST', '/api/v1/models/m_costhistory', {
      M_Product_ID: p, M_CostDetail_ID: idOf(h!.M_CostDetail_ID), M_CostElement_ID: idOf(h!.M_CostElement_ID), M_CostType_ID: idOf(h!.M_CostType_ID),
      M_AttributeSetInstance_ID: 0, OldCostPrice: 1, NewCostPrice: 2, OldQty: 0, NewQty: 0, DateAcct: '2026-01-01',
    }, fx.ws);
    assert.equal(write.status, 403, write.text);
    for (const token of [fx.ws, fx.admin]) {
      const change = await c.call('PUT', `/api/v1/models/m_costhistory/${h!.id}`, { NewCostPrice: 1 }, token);
      assert.equal(change.status, 403, change.text);
      const remove = await c.call('DELETE', `/api/v1/models/m_costhistory/${h!.id}`, undefined, token);
      assert.equal(remove.status, 403, remove.text);
    }

    const foreign = await adjustment([[p, 14]], { AD_Org_ID: 50000, M_Warehouse_ID: 50001 });
    assert.equal(foreign.status, 201, foreign.text);
    const refused = await c.call('PUT', `/api/v1/models/m_inventory/${foreign.body.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(refused.status, 403, refused.text);
    await expectCost(p, 13, 3, 'another organization\'s adjustment is out of the role\'s reach');

    const other = await otherClientAdmin(fx.server);
    const list = await c.call('GET', '/api/v1/models/m_costhistory', undefined, other);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.records.length, 0, 'another client sees none of the demo company\'s cost history');
    const theirs = await c.call('GET', `/api/v1/models/m_inventory/${own}`, undefined, other);
    assert.ok([403, 404].includes(theirs.status), theirs.text);
    const voidIt = await c.call('PUT', `/api/v1/models/m_inventory/${own}`, { 'doc-action': 'VO' }, other);
    assert.ok([403, 404].includes(voidIt.status), voidIt.text);
    await expectCost(p, 13, 3, 'unchanged by another client');
  });
});
