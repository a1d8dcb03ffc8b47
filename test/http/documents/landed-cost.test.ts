import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, costingCalls } from './costing-helpers.js';
import { otherClientAdmin } from './other-client.js';

const FREIGHT = 200000;
const VENDOR = 114;
const AP_INVOICE = 123;
const AR_INVOICE = 116;
const INVOICE_TABLE = 318;
/** The demo's accounts of landed costs the stock does not cover and of standard-costed products. */
const AVERAGE_COST_VARIANCE = 1128100;
const COST_ADJUSTMENT = 1128101;
const FREIGHT_EXPENSE = 51200;

type Rec = Record<string, any>;

describe('landed costs: a vendor invoice line distributed over receipt lines into the products\' costs', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const c = costingCalls(at);
  const violations = () => booksViolations(fx.server.services.db, 11);
  const round2 = (n: number) => Math.round(n * 100) / 100;

  /** A completed purchase order of the products, received in full by one receipt (answered with its lines, by order line). */
  async function receive(lines: [product: number, qty: number, price: number][], org = 11, token = fx.admin) {
    const as = (method: string, path: string, body: unknown) => c.call(method, path, body, token);
    const po = await as('POST', '/api/v1/models/c_order', {
      AD_Org_ID: org, C_BPartner_ID: VENDOR, C_DocTypeTarget_ID: 126, IsSOTrx: false, ...(org === 11 ? {} : { M_Warehouse_ID: 50001 }),
      C_OrderLine: lines.map(([product, qty, price]) => ({ M_Product_ID: product, QtyEntered: qty, PriceEntered: price })), 'doc-action': 'CO',
    });
    assert.equal(po.status, 201, po.text);
    const orderLines = await c.records('c_orderline', `C_Order_ID eq ${po.body.id}`, 'Line');
    const receipt = await as('POST', '/api/v1/models/m_inout', {
      AD_Org_ID: org, C_Order_ID: po.body.id, M_InOutLine: orderLines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO',
    });
    assert.equal(receipt.status, 201, receipt.text);
    assert.equal(idOf(receipt.body.DocStatus), 'CO');
    return { id: Number(receipt.body.id), lines: (await c.records('m_inoutline', `M_InOut_ID eq ${receipt.body.id}`, 'Line')).map((l) => Number(l.id)) };
  }

  /** A vendor invoice of a freight charge line at `amount` with landed costs, completed unless told. */
  async function freightInvoice(amount: number, landedCosts: Rec[], opts: { complete?: boolean; token?: string; org?: number; docType?: number; partner?: number } = {}) {
    const token = opts.token ?? fx.admin;
    const inv = await c.call('POST', '/api/v1/models/c_invoice', {
      AD_Org_ID: opts.org ?? 11, C_BPartner_ID: opts.partner ?? VENDOR, C_DocTypeTarget_ID: opts.docType ?? AP_INVOICE,
      C_InvoiceLine: [{ C_Charge_ID: FREIGHT, QtyEntered: 1, PriceEntered: amount, PriceActual: amount }],
    }, token);
    assert.equal(inv.status, 201, inv.text);
    const [line] = await c.records('c_invoiceline', `C_Invoice_ID eq ${inv.body.id}`);
    const costs: Rec[] = [];
    for (const lc of landedCosts) {
      const r = await c.call('POST', '/api/v1/models/c_landedcost', { AD_Org_ID: opts.org ?? 11, C_InvoiceLine_ID: line!.id, ...lc }, token);
      assert.equal(r.status, 201, r.text);
      costs.push(r.body);
    }
    if (opts.complete !== false) {
      const done = await c.call('PUT', `/api/v1/models/c_invoice/${inv.body.id}`, { 'doc-action': 'CO' }, token);
      assert.equal(done.status, 200, done.text);
      assert.equal(idOf(done.body.DocStatus), 'CO');
    }
    return { id: Number(inv.body.id), lineId: Number(line!.id), costs };
  }

  const allocations = async (lineId: number, token = fx.admin) => {
    const r = await c.call('GET', `/api/v1/models/c_landedcostallocation?$filter=${encodeURIComponent(`C_InvoiceLine_ID eq ${lineId}`)}&$orderby=C_LandedCostAllocation_ID`, undefined, token);
    assert.equal(r.status, 200, r.text);
    return (r.body.records as Rec[]).map((a) => ({ receiptLine: Number(idOf(a.M_InOutLine_ID)), product: Number(idOf(a.M_Product_ID)), base: Number(a.Base), qty: Number(a.Qty), amt: Number(a.Amt) }));
  };

  /** The invoice's facts as debit − credit by account and product. */
  async function invoiceFacts(invoiceId: number) {
    const facts = await c.records('fact_acct', `AD_Table_ID eq ${INVOICE_TABLE} and Record_ID eq ${invoiceId}`, 'Fact_Acct_ID');
    const dr = facts.reduce((n, f) => n + Number(f.AmtAcctDr), 0);
    const cr = facts.reduce((n, f) => n + Number(f.AmtAcctCr), 0);
    assert.equal(round2(dr), round2(cr), 'the invoice\'s facts balance');
    const out: Record<string, number> = {};
    for (const f of facts) {
      const key = `${Number(idOf(f.Account_ID))}${f.M_Product_ID ? `/${Number(idOf(f.M_Product_ID))}` : ''}`;
      out[key] = round2((out[key] ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr));
    }
    return out;
  }

  const expectCost = async (product: number, price: number, qty: number, step: string) => {
    const cost = await c.cost(product);
    assert.deepEqual([round2(cost.price * 1e6) / 1e6, cost.qty], [price, qty], step);
    assert.equal(await c.balance(product, ASSET), round2(price * qty), `${step}: the inventory account holds the stock value`);
  };

  it('by quantity over a receipt: each product takes its share into the asset and its average cost; the reversal takes it back', async () => {
    const a = await c.product('A', 10);
    const b = await c.product('A', 5);
    const receipt = await receive([[a, 10, 10], [b, 30, 5]]);
    const inv = await freightInvoice(100, [{ M_InOut_ID: receipt.id, LandedCostDistribution: 'Q' }]);

    assert.deepEqual(await allocations(inv.lineId), [
      { receiptLine: receipt.lines[0], product: a, base: 10, qty: 10, amt: 25 },
      { receiptLine: receipt.lines[1], product: b, base: 30, qty: 30, amt: 75 },
    ]);
    const facts = await invoiceFacts(inv.id);
    assert.equal(facts[`${ASSET}/${a}`], 25);
    assert.equal(facts[`${ASSET}/${b}`], 75);
    assert.equal(facts[String(FREIGHT_EXPENSE)], undefined, 'the freight does not go to the charge\'s expense');
    await expectCost(a, 12.5, 10, 'A: 10 + 25 / 10');
    await expectCost(b, 7.5, 30, 'B: 5 + 75 / 30');
    const details = await c.records('m_costdetail', `C_InvoiceLine_ID eq ${inv.lineId}`, 'M_CostDetail_ID');
    assert.deepEqual(details.map((d) => [Number(idOf(d.M_Product_ID)), Number(d.Amt), Number(d.Qty), Number(d.CurrentCostPrice), Number(d.CurrentQty)]), [[a, 25, 0, 10, 10], [b, 75, 0, 5, 30]]);
    const history = await c.records('m_costhistory', `M_CostDetail_ID eq ${details[0]!.id} or M_CostDetail_ID eq ${details[1]!.id}`, 'M_CostHistory_ID');
    assert.deepEqual(
      history.map((h) => [Number(idOf(h.M_Product_ID)), Number(h.OldQty), Number(h.OldCostPrice), Number(h.NewQty), Number(h.NewCostPrice), Number(h.OldCAmt), Number(h.NewCAmt)]),
      [[a, 10, 10, 10, 12.5, 100, 125], [b, 30, 5, 30, 7.5, 150, 225]],
      'each landed cost detail keeps the cost it changed',
    );
    const [lc] = await c.records('c_landedcost', `C_InvoiceLine_ID eq ${inv.lineId}`);
    assert.equal(lc!.Processed, true);
    assert.deepEqual(await violations(), []);

    const reversed = await c.ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const [reversalLine] = await c.records('c_invoiceline', `C_Invoice_ID eq ${Number(idOf(reversed.Reversal_ID))}`);
    assert.deepEqual((await allocations(reversalLine!.id)).map((x) => [x.product, x.qty, x.amt]), [[a, -10, -25], [b, -30, -75]], 'the reversal line takes the allocations negated');
    const back = await invoiceFacts(Number(idOf(reversed.Reversal_ID)));
    assert.deepEqual([back[`${ASSET}/${a}`], back[`${ASSET}/${b}`]], [-25, -75]);
    await expectCost(a, 10, 10, 'A back at its order price');
    await expectCost(b, 5, 30, 'B back at its order price');
    assert.deepEqual(await violations(), []);
  });

  it('by costs over receipt lines: the shares add up to the line amount exactly, what rounding leaves over on the largest', async () => {
    const a = await c.product('I', 10);
    const b = await c.product('I', 10);
    const receipt = await receive([[a, 10, 10], [b, 30, 10]]);
    // 1.02 over 100 and 300: 0.255 → 0.26 and 0.765 → 0.77 add up to 1.03; the largest gives back 0.01.
    const inv = await freightInvoice(1.02, [
      { M_InOutLine_ID: receipt.lines[0], LandedCostDistribution: 'C' },
      { M_InOutLine_ID: receipt.lines[1], LandedCostDistribution: 'C' },
    ]);
    const shares = await allocations(inv.lineId);
    assert.deepEqual(shares.map((x) => [x.product, x.base, x.amt]), [[a, 100, 0.26], [b, 300, 0.76]]);
    assert.equal(round2(shares.reduce((n, x) => n + x.amt, 0)), 1.02);
    const [lc] = await c.records('c_landedcost', `C_InvoiceLine_ID eq ${inv.lineId}`);
    assert.equal(Number(idOf(lc!.M_InOut_ID)), receipt.id, 'a receipt line names its receipt');
    await expectCost(a, 10.026, 10, 'A: 10 + 0.26 / 10');
    assert.equal(await c.balance(b, ASSET), 300.76);
    assert.deepEqual(await violations(), []);
  });

  it('what the stock no longer holds goes to Average Cost Variance; a standard-costed product\'s share to Cost Adjustment, its cost unchanged', async () => {
    const a = await c.product('A', 10);
    const s = await c.product('S', 10);
    const receipt = await receive([[a, 10, 10], [s, 10, 10]]);
    await c.ship(a, 5);
    const inv = await freightInvoice(40, [{ M_InOut_ID: receipt.id, LandedCostDistribution: 'L' }]);
    assert.deepEqual((await allocations(inv.lineId)).map((x) => [x.product, x.base, x.amt]), [[a, 1, 20], [s, 1, 20]], 'by line: one share each');
    const facts = await invoiceFacts(inv.id);
    // The 5 left of the 10 received cover half of A's 20.
    assert.deepEqual([facts[`${ASSET}/${a}`], facts[`${AVERAGE_COST_VARIANCE}/${a}`], facts[`${COST_ADJUSTMENT}/${s}`], facts[`${ASSET}/${s}`]], [10, 10, 20, undefined]);
    await expectCost(a, 12, 5, 'A: 10 + 10 / 5');
    await expectCost(s, 10, 10, 'the standard cost stays');
    assert.deepEqual(await violations(), []);

    // Reversed after the rest of A left: the cost cannot take back its 10, which moves from the asset to the variance.
    await c.ship(a, 5);
    const reversed = await c.ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    const back = await invoiceFacts(Number(idOf(reversed.Reversal_ID)));
    assert.deepEqual([back[`${ASSET}/${a}`] ?? 0, back[`${AVERAGE_COST_VARIANCE}/${a}`], back[`${COST_ADJUSTMENT}/${s}`]], [0, -20, -20]);
    assert.equal(await c.balance(a, ASSET), 0);
    assert.deepEqual(await violations(), []);
  });

  it('the process Distribute Costs distributes a draft invoice\'s landed costs; completing distributes them again', async () => {
    const a = await c.product('A', 10);
    const receipt = await receive([[a, 4, 10]]);
    const inv = await freightInvoice(8, [{ M_InOutLine_ID: receipt.lines[0] }], { complete: false });
    const run = await c.call('POST', '/api/v1/processes/c_landedcost_distribute', { 'model-name': 'c_landedcost', 'record-id': inv.costs[0]!.id });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.isError, false, run.body.summary);
    assert.deepEqual(await allocations(inv.lineId), [{ receiptLine: receipt.lines[0], product: a, base: 4, qty: 4, amt: 8 }], 'by quantity, the default');
    assert.equal((await c.cost(a)).price, 10, 'distributing moves no cost');
    await c.ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'CO' });
    assert.equal((await allocations(inv.lineId)).length, 1, 'completion replaced the allocations');
    await expectCost(a, 12, 4, '10 + 8 / 4');
  });

  it('refuses a landed cost without a target, on a customer invoice, on a completed invoice, and bases that add up to zero', async () => {
    const a = await c.product('A', 10);
    const receipt = await receive([[a, 2, 10]]);
    const draft = await freightInvoice(10, [], { complete: false });
    const none = await c.call('POST', '/api/v1/models/c_landedcost', { C_InvoiceLine_ID: draft.lineId, LandedCostDistribution: 'Q' });
    assert.equal(none.status, 400, none.text);
    assert.match(none.body.detail, /names a receipt, a receipt line or a product/);

    const sales = await c.ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: AR_INVOICE, C_InvoiceLine: [{ C_Charge_ID: FREIGHT, QtyEntered: 1, PriceEntered: 5 }] });
    const [salesLine] = await c.records('c_invoiceline', `C_Invoice_ID eq ${sales.id}`);
    const onSales = await c.call('POST', '/api/v1/models/c_landedcost', { C_InvoiceLine_ID: salesLine!.id, M_InOut_ID: receipt.id });
    assert.equal(onSales.status, 400, onSales.text);
    assert.match(onSales.body.detail, /customer invoice/);

    // Weight: the product weighs nothing, so there is nothing to share by; the invoice stays a draft.
    const weightless = await freightInvoice(10, [{ M_InOut_ID: receipt.id, LandedCostDistribution: 'W' }], { complete: false });
    const refused = await c.call('PUT', `/api/v1/models/c_invoice/${weightless.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /add up to 0/);
    assert.deepEqual([refused.body.title, refused.body.status], ['Failed Processing Document', 400]);
    const still = await c.ok('GET', `/api/v1/models/c_invoice/${weightless.id}`);
    assert.equal(idOf(still.DocStatus), 'DR');
    assert.deepEqual(await allocations(weightless.lineId), []);
    assert.equal((await c.cost(a)).price, 10);

    // A draft line with landed costs deleted: its landed costs go with it.
    const removed = await c.call('DELETE', `/api/v1/models/c_invoiceline/${weightless.lineId}`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(await c.records('c_landedcost', `C_InvoiceLine_ID eq ${weightless.lineId}`), []);

    const done = await freightInvoice(10, [{ M_InOut_ID: receipt.id }]);
    const change = await c.call('PUT', `/api/v1/models/c_landedcost/${done.costs[0]!.id}`, { LandedCostDistribution: 'L' });
    assert.equal(change.status, 400, change.text);
    assert.match(change.body.detail, /processed/);
    const added = await c.call('POST', '/api/v1/models/c_landedcost', { C_InvoiceLine_ID: done.lineId, M_InOut_ID: receipt.id });
    assert.equal(added.status, 400, added.text);
    assert.deepEqual(await violations(), []);
  });

  it('the least-privileged role distributes landed costs of its organization; another organization\'s and another client\'s stay out of reach', async () => {
    const a = await c.product('A', 10);
    const receipt = await receive([[a, 5, 10]]);
    const own = await freightInvoice(5, [{ M_InOut_ID: receipt.id }], { token: fx.ws });
    assert.deepEqual((await allocations(own.lineId, fx.ws)).map((x) => x.amt), [5], 'the role reads the allocations of its invoice');
    await expectCost(a, 11, 5, '10 + 5 / 5');

    const foreignReceipt = await receive([[a, 1, 10]], 50000);
    const foreign = await freightInvoice(3, [{ M_InOut_ID: foreignReceipt.id }], { org: 50000, complete: false });
    const read = await c.call('GET', `/api/v1/models/c_landedcost/${foreign.costs[0]!.id}`, undefined, fx.ws);
    assert.ok([403, 404].includes(read.status), read.text);
    const write = await c.call('PUT', `/api/v1/models/c_landedcost/${foreign.costs[0]!.id}`, { LandedCostDistribution: 'L' }, fx.ws);
    assert.ok([403, 404].includes(write.status), write.text);
    const add = await c.call('POST', '/api/v1/models/c_landedcost', { AD_Org_ID: 11, C_InvoiceLine_ID: foreign.lineId, M_InOut_ID: receipt.id }, fx.ws);
    assert.ok([403, 404].includes(add.status), add.text);

    const other = await otherClientAdmin(fx.server);
    for (const table of ['c_landedcost', 'c_landedcostallocation']) {
      const list = await c.call('GET', `/api/v1/models/${table}`, undefined, other);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.records.length, 0, `another client sees none of the demo company's ${table}`);
    }
    const theirs = await c.call('GET', `/api/v1/models/c_landedcost/${own.costs[0]!.id}`, undefined, other);
    assert.ok([403, 404].includes(theirs.status), theirs.text);
    const change = await c.call('PUT', `/api/v1/models/c_landedcost/${foreign.costs[0]!.id}`, { LandedCostDistribution: 'L' }, other);
    assert.ok([403, 404].includes(change.status), change.text);
    const [still] = await c.records('c_landedcost', `C_LandedCost_ID eq ${foreign.costs[0]!.id}`);
    assert.equal(idOf(still!.LandedCostDistribution), 'Q');
  });
});
