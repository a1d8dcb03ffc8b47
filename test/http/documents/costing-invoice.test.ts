import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, costingCalls } from './costing-helpers.js';

const AVERAGE_INVOICE_ELEMENT = 104;
const IPV = 58100;
const MATCH_INV_TABLE = 472;

describe('costing: average invoice, the invoice price averaged in when the invoice is matched with the receipt', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const c = costingCalls(at);
  const violations = () => booksViolations(fx.server.services.db, 11);

  /** A completed vendor invoice of the receipt's order line at `price`. */
  async function invoice(receipt: Record<string, any>, price: number) {
    const orderLineId = Number(idOf(receipt.M_InOutLine[0].C_OrderLine_ID));
    const inv = await c.ok('POST', '/api/v1/models/c_invoice', {
      C_Order_ID: Number(idOf(receipt.C_Order_ID)), C_DocTypeTarget_ID: 123, C_InvoiceLine: [{ C_OrderLine_ID: orderLineId, PriceEntered: price }], 'doc-action': 'CO',
    });
    assert.equal(idOf(inv.DocStatus), 'CO');
    const [line] = await c.records('c_invoiceline', `C_Invoice_ID eq ${inv.id}`);
    const matches = await c.records('m_matchinv', `C_InvoiceLine_ID eq ${line!.id}`);
    return { inv, matches };
  }

  /** The match's facts as [account, debit − credit], by account. */
  async function matchBalances(matchId: number) {
    const facts = await c.records('fact_acct', `AD_Table_ID eq ${MATCH_INV_TABLE} and Record_ID eq ${matchId}`, 'Fact_Acct_ID');
    const out = new Map<number, number>();
    for (const f of facts) {
      const account = Number(idOf(f.Account_ID));
      out.set(account, Math.round(((out.get(account) ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr)) * 100) / 100);
    }
    return out;
  }

  it('receipts average in at the order price; each invoice match moves the variance the stock covers into the asset and the cost, the rest to Invoice Price Variance; a reversed invoice takes it back', async () => {
    const product = await c.product('I', 10);
    const expectCost = async (price: number, qty: number, step: string) => {
      const cost = await c.cost(product);
      assert.deepEqual([cost.price, cost.qty, cost.element], [price, qty, AVERAGE_INVOICE_ELEMENT], step);
      assert.equal(await c.balance(product, ASSET), Math.round(price * qty * 100) / 100, `${step}: inventory account = stock value`);
    };

    const first = await c.receive(product, 10, 10);
    await expectCost(10, 10, 'received 10 at the order price 10');
    const second = await c.receive(product, 10, 12);
    // (10 × 10 + 10 × 12) / 20
    await expectCost(11, 20, 'received 10 more at the order price 12');

    // Invoiced at 13: 130 against the receipt's 100; the 20 in stock cover the 10 matched, so all 30 goes into the asset: 11 + 30 / 20.
    const one = await invoice(first, 13);
    assert.equal(one.matches.length, 1);
    assert.deepEqual(Object.fromEntries(await matchBalances(one.matches[0]!.id)), { 21190: 100, 51290: -130, [ASSET]: 30 }, 'no invoice price variance while the stock covers the match');
    await expectCost(12.5, 20, 'the first receipt invoiced at 13');
    const [detail] = await c.records('m_costdetail', `M_MatchInv_ID eq ${one.matches[0]!.id}`);
    assert.deepEqual([Number(detail!.Amt), Number(detail!.Qty), Number(detail!.CurrentCostPrice), Number(detail!.CurrentQty)], [30, 0, 11, 20], 'a cost detail of the match with the cost it met');

    await c.ship(product, 15);
    await expectCost(12.5, 5, 'shipped 15 at the average');

    // Invoiced at 11: 110 against 120, a variance of −10; the 5 left cover half of the 10 matched: −5 into the asset (12.5 − 5 / 5), −5 to IPV.
    const two = await invoice(second, 11);
    const twoMatch = two.matches[0]!.id;
    assert.deepEqual(Object.fromEntries(await matchBalances(twoMatch)), { 21190: 120, 51290: -110, [ASSET]: -5, [IPV]: -5 });
    await expectCost(11.5, 5, 'the second receipt invoiced at 11 with half of it shipped');

    // The reversal is posted anew for −10: +10, of which the 5 in stock cover half.
    const reversed = await c.ok('PUT', `/api/v1/models/c_invoice/${two.inv.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const [, reversal] = await c.records('m_matchinv', `C_InvoiceLine_ID eq ${(await c.records('c_invoiceline', `C_Invoice_ID eq ${two.inv.id}`))[0]!.id}`);
    assert.equal(Number(reversal!.Qty), -10);
    assert.deepEqual(Object.fromEntries(await matchBalances(reversal!.id)), { 21190: -120, 51290: 110, [ASSET]: 5, [IPV]: 5 });
    await expectCost(12.5, 5, 'the second invoice reversed');
    assert.deepEqual(await violations(), []);
  });

  it('each invoice match that changes the cost keeps a cost history row with the cost before and after; one that changes nothing keeps none', async () => {
    const product = await c.product('I', 10);
    const receipt = await c.receive(product, 10, 10);
    const { matches } = await invoice(receipt, 13);
    const [detail] = await c.records('m_costdetail', `M_MatchInv_ID eq ${matches[0]!.id}`);
    const history = await c.records('m_costhistory', `M_Product_ID eq ${product}`, 'M_CostHistory_ID');
    const row = (h: Record<string, any>) => [h.OldQty, h.OldCostPrice, h.OldCQty, h.OldCAmt, h.NewQty, h.NewCostPrice, h.NewCQty, h.NewCAmt].map(Number);
    // Receipt: 10 in at 10; match: the 30 of variance over the 10 in stock, 10 + 30 / 10, cumulated 100 + 30.
    assert.deepEqual(history.map(row), [[0, 0, 0, 0, 10, 10, 10, 100], [10, 10, 10, 100, 10, 13, 10, 130]]);
    assert.equal(Number(idOf(history[1]!.M_CostDetail_ID)), Number(detail!.id), 'the match\'s row names its cost detail');
    assert.equal(Number(idOf(history[1]!.M_CostElement_ID)), AVERAGE_INVOICE_ELEMENT);
    const cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty], [Number(history[1]!.NewCostPrice), Number(history[1]!.NewQty)], 'the last history row is the cost');

    await c.ship(product, 10);
    const second = await c.receive(product, 5, 10);
    await c.ship(product, 5);
    const before = (await c.records('m_costhistory', `M_Product_ID eq ${product}`)).length;
    await invoice(second, 12);
    assert.equal((await c.records('m_costhistory', `M_Product_ID eq ${product}`)).length, before, 'no stock left: the cost is unchanged and no history row is written');
  });

  it('an invoice completed before the receipt is matched as the receipt completes; reversing the receipt takes the variance back out with it', async () => {
    const product = await c.product('I', 10);
    const po = await c.ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: product, QtyEntered: 10, PriceEntered: 10 }], 'doc-action': 'CO',
    });
    const [orderLine] = await c.records('c_orderline', `C_Order_ID eq ${po.id}`);
    await invoice({ C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: orderLine!.id }] }, 12);
    const receipt = await c.ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: orderLine!.id }], 'doc-action': 'CO' });
    const matches = await c.records('m_matchinv', `M_InOutLine_ID eq ${receipt.M_InOutLine[0].id}`);
    assert.equal(matches.length, 1, 'the receipt met the invoice');
    // In at the order price 10, then the invoice's 120 against 100: 10 + 20 / 10.
    assert.deepEqual(Object.fromEntries(await matchBalances(matches[0]!.id)), { 21190: 100, 51290: -120, [ASSET]: 20 });
    let cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty], [12, 10]);
    assert.equal(await c.balance(product, ASSET), 120);

    const reversed = await c.ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const [, reversal] = await c.records('m_matchinv', `M_InOutLine_ID eq ${receipt.M_InOutLine[0].id}`);
    assert.deepEqual(Object.fromEntries(await matchBalances(reversal!.id)), { 21190: -100, 51290: 120, [ASSET]: -20 }, 'the variance leaves while the 10 are still in stock');
    cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty], [10, 0]);
    assert.equal(await c.balance(product, ASSET), 0);
    assert.deepEqual(await violations(), []);
  });

  it('with no stock left the whole variance goes to Invoice Price Variance and the cost keeps its price', async () => {
    const product = await c.product('I', 10);
    const receipt = await c.receive(product, 4, 10);
    await c.ship(product, 4);
    const { matches } = await invoice(receipt, 12);
    assert.deepEqual(Object.fromEntries(await matchBalances(matches[0]!.id)), { 21190: 40, 51290: -48, [IPV]: 8 });
    const cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty], [10, 0]);
    assert.equal(await c.balance(product, ASSET), 0);
    const details = await c.records('m_costdetail', `M_MatchInv_ID eq ${matches[0]!.id}`);
    assert.deepEqual(details.map((d) => Number(d.Amt)), [0], 'the match is detailed with nothing covered');
    assert.deepEqual(await violations(), []);
  });

  it('average PO takes the invoice price the same way (the original stock coverage of Average PO)', async () => {
    const product = await c.product('A', 10);
    const receipt = await c.receive(product, 8, 10);
    const { matches } = await invoice(receipt, 10.5);
    // 84 against 80: the 8 in stock take the 4, 10 + 4 / 8.
    assert.deepEqual(Object.fromEntries(await matchBalances(matches[0]!.id)), { 21190: 80, 51290: -84, [ASSET]: 4 });
    const cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty, cost.element], [10.5, 8, 103]);
    assert.deepEqual(await violations(), []);
  });

  it('standard cost: the whole variance goes to Invoice Price Variance, no cost detail of the match', async () => {
    const product = await c.product('S', 10);
    const receipt = await c.receive(product, 3, 10);
    const { matches } = await invoice(receipt, 11);
    assert.deepEqual(Object.fromEntries(await matchBalances(matches[0]!.id)), { 21190: 30, 51290: -33, [IPV]: 3 });
    assert.equal((await c.cost(product)).price, 10);
    assert.deepEqual(await c.records('m_costdetail', `M_MatchInv_ID eq ${matches[0]!.id}`), []);
  });
});
