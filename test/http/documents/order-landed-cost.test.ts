import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, costingCalls } from './costing-helpers.js';
import { otherClientAdmin } from './other-client.js';
import { recordStatements } from '../../helpers/statements.js';

const VENDOR = 114;
const PURCHASE_ORDER = 126;
const AP_INVOICE = 123;
const FREIGHT = 200000;
const NOT_INVOICED_RECEIPTS = 21190;
const CLEARING = 1134100;
const RECEIPT_TABLE = 319;
const INVOICE_TABLE = 318;

type Rec = Record<string, any>;

describe('landed costs estimated on purchase orders: distributed at completion, taken into the receipt\'s cost against Landed Cost Clearing, cleared by the vendor invoice', () => {
  const fx = serverWithDemoRoles();
  const c = costingCalls(() => ({ server: fx.server, token: fx.admin }));
  const violations = () => booksViolations(fx.server.services.db, 11);
  const round2 = (n: number) => Math.round(n * 100) / 100;

  /** A drafted purchase order of the products ([product, qty, price]) with estimated landed costs, completed unless told. */
  async function order(lines: [number, number, number][], costs: Rec[], complete = true, org = 11) {
    const po = await c.ok('POST', '/api/v1/models/c_order', {
      AD_Org_ID: org, C_BPartner_ID: VENDOR, C_DocTypeTarget_ID: PURCHASE_ORDER, IsSOTrx: false, ...(org === 11 ? {} : { M_Warehouse_ID: 50001 }),
      C_OrderLine: lines.map(([product, qty, price]) => ({ M_Product_ID: product, QtyEntered: qty, PriceEntered: price })),
    });
    const landed: Rec[] = [];
    for (const lc of costs) landed.push(await c.ok('POST', '/api/v1/models/c_orderlandedcost', { AD_Org_ID: org, C_Order_ID: po.id, ...lc }));
    if (complete) assert.equal(idOf((await c.ok('PUT', `/api/v1/models/c_order/${po.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    const orderLines = await c.records('c_orderline', `C_Order_ID eq ${po.id}`, 'Line');
    return { id: Number(po.id), lines: orderLines.map((l) => Number(l.id)), landed };
  }

  /** Receives the order in full. */
  async function receive(orderId: number, orderLines: number[]) {
    const r = await c.ok('POST', '/api/v1/models/m_inout', { C_Order_ID: orderId, M_InOutLine: orderLines.map((id) => ({ C_OrderLine_ID: id })), 'doc-action': 'CO' });
    assert.equal(idOf(r.DocStatus), 'CO');
    return { id: Number(r.id), lines: (await c.records('m_inoutline', `M_InOut_ID eq ${r.id}`, 'Line')).map((l) => Number(l.id)) };
  }

  /** A record's facts as debit − credit by account (and product when `byProduct`). */
  async function balances(table: number, id: number, byProduct = false) {
    const out: Record<string, number> = {};
    for (const f of await c.records('fact_acct', `AD_Table_ID eq ${table} and Record_ID eq ${id}`, 'Fact_Acct_ID')) {
      const key = `${Number(idOf(f.Account_ID))}${byProduct && f.M_Product_ID ? `/${Number(idOf(f.M_Product_ID))}` : ''}`;
      out[key] = round2((out[key] ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr));
    }
    return out;
  }

  const clearingBalance = async (product: number) => c.balance(product, CLEARING);
  const allocations = async (landedCostId: number) =>
    (await c.records('c_orderlandedcostallocation', `C_OrderLandedCost_ID eq ${landedCostId}`, 'C_OrderLandedCostAllocation_ID'))
      .map((a) => [Number(idOf(a.C_OrderLine_ID)), Number(a.Base), Number(a.Qty), Number(a.Amt), a.Processed]);

  it('distributes by quantity and by cost at completion (the rounding on the largest share); the receipt takes the estimate into the average cost against clearing; the invoice clears it and averages in the difference', async () => {
    const a = await c.product('A', 10);
    const b = await c.product('A', 5);
    const po = await order([[a, 10, 10], [b, 30, 5]], [{ LandedCostDistribution: 'Q', Amt: 100 }, { LandedCostDistribution: 'C', Amt: 10 }]);
    assert.deepEqual(await allocations(po.landed[0]!.id), [[po.lines[0], 10, 10, 25, true], [po.lines[1], 30, 30, 75, true]]);
    // By cost: 100 and 150 of 250 → 4 and 6.
    assert.deepEqual((await allocations(po.landed[1]!.id)).map((x) => x[3]), [4, 6]);
    const [processed] = await c.records('c_orderlandedcost', `C_OrderLandedCost_ID eq ${po.landed[0]!.id}`);
    assert.equal(processed!.Processed, true);

    const receipt = await receive(po.id, po.lines);
    // a: 100 + 25 + 4 = 129 over 10; b: 150 + 75 + 6 = 231 over 30.
    assert.deepEqual([(await c.cost(a)).price, (await c.cost(a)).qty], [12.9, 10]);
    assert.deepEqual([(await c.cost(b)).price, (await c.cost(b)).qty], [7.7, 30]);
    assert.deepEqual(await balances(RECEIPT_TABLE, receipt.id, true), {
      [`${ASSET}/${a}`]: 129, [`${NOT_INVOICED_RECEIPTS}/${a}`]: -100, [`${CLEARING}/${a}`]: -29,
      [`${ASSET}/${b}`]: 231, [`${NOT_INVOICED_RECEIPTS}/${b}`]: -150, [`${CLEARING}/${b}`]: -81,
    });
    const details = await c.records('m_costdetail', `M_InOutLine_ID eq ${receipt.lines[0]}`);
    assert.deepEqual(details.map((x) => Number(x.Amt)), [129], 'the receipt line\'s cost detail holds the estimate');
    assert.deepEqual(await violations(), []);

    // The freight invoice: 120 by quantity over the receipt → 30 and 90 against estimates of 29 and 81.
    const inv = await c.ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: VENDOR, C_DocTypeTarget_ID: AP_INVOICE, C_InvoiceLine: [{ C_Charge_ID: FREIGHT, QtyEntered: 1, PriceEntered: 120, PriceActual: 120 }],
    });
    const [line] = await c.records('c_invoiceline', `C_Invoice_ID eq ${inv.id}`);
    await c.ok('POST', '/api/v1/models/c_landedcost', { C_InvoiceLine_ID: line!.id, M_InOut_ID: receipt.id, LandedCostDistribution: 'Q' });
    assert.equal(idOf((await c.ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    const facts = await balances(INVOICE_TABLE, Number(inv.id), true);
    assert.deepEqual([facts[`${CLEARING}/${a}`], facts[`${ASSET}/${a}`], facts[`${CLEARING}/${b}`], facts[`${ASSET}/${b}`]], [29, 1, 81, 9]);
    assert.equal(await clearingBalance(a), 0, 'the invoice cleared the estimate of a');
    assert.equal(await clearingBalance(b), 0, 'the invoice cleared the estimate of b');
    // Only the differences average in: 12.9 + 1 / 10, 7.7 + 9 / 30.
    assert.deepEqual([(await c.cost(a)).price, (await c.cost(b)).price], [13, 8]);
    assert.equal(await c.balance(a, ASSET), 130);
    assert.equal(await c.balance(b, ASSET), 240);
    assert.deepEqual(await violations(), []);

    // Reversing the invoice takes the difference back out and puts the estimate back on clearing.
    const reversed = await c.ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    assert.deepEqual([(await c.cost(a)).price, (await c.cost(b)).price], [12.9, 7.7]);
    assert.deepEqual([await clearingBalance(a), await clearingBalance(b)], [-29, -81]);
    assert.deepEqual(await violations(), []);
  });

  it('a reversed receipt takes the estimate back out of the cost and off clearing; standard costing keeps its price and posts no clearing', async () => {
    const a = await c.product('A', 10);
    const po = await order([[a, 4, 10]], [{ LandedCostDistribution: 'L', Amt: 8 }]);
    const receipt = await receive(po.id, po.lines);
    assert.equal((await c.cost(a)).price, 12);
    const reversed = await c.ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    assert.equal((await c.cost(a)).qty, 0);
    assert.equal(await clearingBalance(a), 0);
    assert.equal(await c.balance(a, ASSET), 0);

    const s = await c.product('S', 10);
    const std = await order([[s, 5, 11]], [{ LandedCostDistribution: 'Q', Amt: 5 }]);
    const stdReceipt = await receive(std.id, std.lines);
    assert.equal((await c.cost(s)).price, 10, 'standard cost keeps its price');
    assert.equal((await balances(RECEIPT_TABLE, stdReceipt.id))[String(CLEARING)], undefined);
    assert.deepEqual(await violations(), []);
  });

  it('refuses estimates on sales orders, on processed orders, negative ones, allocations to another order\'s lines, and a completion with nothing to share by', async () => {
    const a = await c.product('A', 10);
    const so = await c.ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: a, QtyEntered: 1 }] });
    const onSales = await c.call('POST', '/api/v1/models/c_orderlandedcost', { C_Order_ID: so.id, Amt: 5 });
    assert.equal(onSales.status, 400, onSales.text);
    assert.match(onSales.body.detail, /sales order/);

    const done = await order([[a, 2, 10]], [{ Amt: 2 }]);
    const late = await c.call('POST', '/api/v1/models/c_orderlandedcost', { C_Order_ID: done.id, Amt: 5 });
    assert.equal(late.status, 400, late.text);
    assert.match(late.body.detail, /processed/);
    const change = await c.call('PUT', `/api/v1/models/c_orderlandedcost/${done.landed[0]!.id}`, { Amt: 50 });
    assert.equal(change.status, 400, change.text);

    const open = await order([[a, 2, 10]], [], false);
    const negative = await c.call('POST', '/api/v1/models/c_orderlandedcost', { C_Order_ID: open.id, Amt: -1 });
    assert.equal(negative.status, 400, negative.text);
    const cost = await c.ok('POST', '/api/v1/models/c_orderlandedcost', { C_Order_ID: open.id, Amt: 3, LandedCostDistribution: 'W' });
    const foreign = await c.call('POST', '/api/v1/models/c_orderlandedcostallocation', { C_OrderLandedCost_ID: cost.id, C_OrderLine_ID: done.lines[0] });
    assert.equal(foreign.status, 400, foreign.text);
    assert.match(foreign.body.detail, /not a product line/);
    // The product has no weight: nothing to share the cost by.
    const refused = await c.call('PUT', `/api/v1/models/c_order/${open.id}`, { 'doc-action': 'CO' });
    assert.ok(refused.status >= 400 && refused.status < 500, refused.text);
    assert.match(refused.text, /add up to 0/);
    const [still] = await c.records('c_order', `C_Order_ID eq ${open.id}`);
    assert.notEqual(idOf(still!.DocStatus), 'CO');
    assert.deepEqual(await c.records('c_orderlandedcostallocation', `C_OrderLandedCost_ID eq ${cost.id}`), []);
  });

  it('costs one statement at the order\'s completion, with or without estimates, and none more at the receipt', async () => {
    const a = await c.product('A', 10);
    const count = async (fn: () => Promise<unknown>) => {
      const { statements } = await recordStatements(fx.server.services.db, fn);
      return { all: statements.length, landed: statements.filter((x) => /c_orderlandedcost/i.test(x.text)).length };
    };
    const complete = (id: number) => count(() => c.ok('PUT', `/api/v1/models/c_order/${id}`, { 'doc-action': 'CO' }));
    const withCost = await order([[a, 2, 10]], [{ Amt: 4 }], false);
    const without = await order([[a, 2, 10]], [], false);
    const one = await complete(withCost.id);
    const other = await complete(without.id);
    assert.equal(one.landed, 1, 'the distribution is one statement');
    assert.equal(one.all, other.all, 'an order with estimates completes in as many statements as one without');
    const receipt = await count(() => receive(withCost.id, withCost.lines));
    const plain = await count(() => receive(without.id, without.lines));
    assert.equal(receipt.all, plain.all, 'the estimate rides in the receipt\'s costing statement');
    assert.equal((await c.cost(a)).price, 11, '(20 + 4 + 20) / 4: the estimate was taken by the first receipt');
  });

  it('the web service and user roles work with estimates of their organization only, as with the order; another client sees none', async () => {
    const a = await c.product('A', 10);
    const foreignOrder = await order([[a, 1, 10]], [{ Amt: 1 }], false, 50000);
    const read = await c.call('GET', `/api/v1/models/c_orderlandedcost/${foreignOrder.landed[0]!.id}`, undefined, fx.ws);
    assert.ok([403, 404].includes(read.status), read.text);
    const write = await c.call('PUT', `/api/v1/models/c_orderlandedcost/${foreignOrder.landed[0]!.id}`, { Amt: 9 }, fx.ws);
    assert.ok([403, 404].includes(write.status), write.text);
    const add = await c.call('POST', '/api/v1/models/c_orderlandedcost', { AD_Org_ID: 11, C_Order_ID: foreignOrder.id, Amt: 2 }, fx.ws);
    assert.ok([403, 404].includes(add.status), add.text);

    // The least-privileged role writes estimates exactly where it may write the order itself (the same organization access).
    const own = await order([[a, 1, 10]], [], false);
    const orderWrite = await c.call('PUT', `/api/v1/models/c_order/${own.id}`, { Description: 'by the user role' }, fx.user);
    const costWrite = await c.call('POST', '/api/v1/models/c_orderlandedcost', { AD_Org_ID: 11, C_Order_ID: own.id, Amt: 2 }, fx.user);
    assert.equal(costWrite.status < 300, orderWrite.status < 300, `${orderWrite.status} ${costWrite.status} ${costWrite.text}`);
    const userForeign = await c.call('PUT', `/api/v1/models/c_orderlandedcost/${foreignOrder.landed[0]!.id}`, { Amt: 9 }, fx.user);
    assert.ok([403, 404].includes(userForeign.status), userForeign.text);

    const other = await otherClientAdmin(fx.server);
    for (const table of ['c_orderlandedcost', 'c_orderlandedcostallocation']) {
      const list = await c.call('GET', `/api/v1/models/${table}`, undefined, other);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.records.length, 0, `another client sees none of the demo company's ${table}`);
    }
    const change = await c.call('PUT', `/api/v1/models/c_orderlandedcost/${foreignOrder.landed[0]!.id}`, { Amt: 9 }, other);
    assert.ok([403, 404].includes(change.status), change.text);
    const [still] = await c.records('c_orderlandedcost', `C_OrderLandedCost_ID eq ${foreignOrder.landed[0]!.id}`);
    assert.equal(Number(still!.Amt), 1);
  });
});
