import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

/** Accounts of the demo's defaults. */
const NIR = 21190;
const CLEARING = 51290;
const IPV = 58100;
const EXPENSE = 51200;
const ASSET = 14100;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Debit − credit by account over the facts of some documents. */
function balances(...facts: Record<string, unknown>[][]): Map<number, number> {
  const out = new Map<number, number>();
  for (const f of facts.flat()) {
    const account = Number(idOf(f.Account_ID));
    out.set(account, round2((out.get(account) ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr)));
  }
  return out;
}

describe('posting of invoice matches: invoice price variance', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  const lines = async (table: string, key: string, id: number) => (await rows(table, `${key} eq ${id}`)).sort((x, y) => x.Line - y.Line);

  /**
   * A completed purchase order of Oak (123) at `price`, and a service line (126) when asked. Oak is
   * costed at standard (35): its receipts come in at 35, so the orders here are at 35 and a
   * variance is the invoice's price against it.
   */
  async function purchaseOrder(qty: number, price: number, service = false) {
    const po = await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 114,
      C_DocTypeTarget_ID: 126,
      IsSOTrx: false,
      C_OrderLine: [{ M_Product_ID: 123, QtyEntered: qty, PriceEntered: price }, ...(service ? [{ M_Product_ID: 126, QtyEntered: 2, PriceEntered: 30 }] : [])],
      'doc-action': 'CO',
    });
    return { po, lines: await stock.orderLines(po.id) };
  }
  const receive = (orderId: number, orderLines: Record<string, any>[]) =>
    ok('POST', '/api/v1/models/m_inout', { C_Order_ID: orderId, M_InOutLine: orderLines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
  const invoice = (orderId: number, invoiceLines: Record<string, unknown>[]) =>
    ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: orderId, C_DocTypeTarget_ID: 123, C_InvoiceLine: invoiceLines, 'doc-action': 'CO' });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('an invoice priced above its order: the vendor invoice posts its item to Inventory Clearing, the match clears it and Not-invoiced Receipts, the difference goes to Invoice Price Variance', async () => {
    const { po, lines: [oak, service] } = await purchaseOrder(5, 35, true);
    const receipt = await receive(po.id, [oak!, service!]);
    const receiptFacts = await stock.facts('m_inout', receipt.id);
    assert.deepEqual(Object.fromEntries(balances(receiptFacts.rows)), { [ASSET]: 175, [NIR]: -175 });

    const inv = await invoice(po.id, [
      { C_OrderLine_ID: oak!.id, PriceEntered: 37 },
      { C_OrderLine_ID: service!.id, PriceEntered: 30 },
    ]);
    assert.equal(idOf(inv.DocStatus), 'CO');
    const [iOak, iService] = await lines('c_invoiceline', 'C_Invoice_ID', inv.id);
    const invoiceFacts = await stock.facts('c_invoice', inv.id);
    assert.equal(invoiceFacts.dr, invoiceFacts.cr);
    const byLine = (lineId: number) => invoiceFacts.rows.filter((f) => Number(f.Line_ID) === lineId).map((f) => [Number(idOf(f.Account_ID)), Number(f.AmtAcctDr), Number(f.AmtAcctCr)]);
    assert.deepEqual(byLine(iOak!.id), [[CLEARING, 185, 0]], 'an item goes to Inventory Clearing until matched');
    assert.deepEqual(byLine(iService!.id), [[EXPENSE, 60, 0]], 'a service goes to expense');

    const matches = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iOak!.id} or C_InvoiceLine_ID eq ${iService!.id}`);
    assert.equal(matches.length, 2);
    for (const m of matches) assert.equal(idOf(m.Posted), 'Y', `match ${m.id} is posted`);
    const [mOak, mService] = matches.sort((x, y) => (idOf(x.C_InvoiceLine_ID) as number) - (idOf(y.C_InvoiceLine_ID) as number));
    const oakFacts = await stock.facts('m_matchinv', mOak!.id);
    assert.equal(oakFacts.dr, oakFacts.cr, 'the match balances');
    assert.deepEqual(
      oakFacts.rows.map((f) => [Number(idOf(f.Account_ID)), Number(f.AmtAcctDr), Number(f.AmtAcctCr), Number(idOf(f.M_Product_ID))]).sort((x, y) => x[0]! - y[0]!),
      [
        [NIR, 175, 0, 123],
        [CLEARING, 0, 185, 123],
        [IPV, 10, 0, 123],
      ],
    );
    assert.equal((await stock.facts('m_matchinv', mService!.id)).count, 0, 'a service match posts nothing: its invoice line went to expense');

    const all = balances(receiptFacts.rows, invoiceFacts.rows, oakFacts.rows);
    assert.equal(all.get(NIR), 0, 'nothing left in Not-invoiced Receipts');
    assert.equal(all.get(CLEARING), 0, 'nothing left in Inventory Clearing');
    assert.equal(all.get(IPV), 10, 'the invoice price variance');
    assert.equal(all.get(ASSET), 175, 'the stock keeps the receipt cost');
  });

  it('an invoice completed before its receipt is matched and posted when the receipt completes; a cheaper invoice credits the variance', async () => {
    const { po, lines: [oak] } = await purchaseOrder(4, 35);
    const inv = await invoice(po.id, [{ C_OrderLine_ID: oak!.id, PriceEntered: 30 }]);
    const [iOak] = await lines('c_invoiceline', 'C_Invoice_ID', inv.id);
    assert.equal((await rows('m_matchinv', `C_InvoiceLine_ID eq ${iOak!.id}`)).length, 0, 'nothing received yet');
    const receipt = await receive(po.id, [oak!]);
    const [match] = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iOak!.id}`);
    assert.ok(match, 'the receipt matched the invoice line');
    assert.equal(match.Qty, 4);
    assert.equal(idOf(match.Posted), 'Y');
    const matchFacts = await stock.facts('m_matchinv', match.id);
    assert.equal(matchFacts.dr, matchFacts.cr);
    assert.deepEqual(Object.fromEntries(balances(matchFacts.rows)), { [NIR]: 140, [CLEARING]: -120, [IPV]: -20 });
    const all = balances((await stock.facts('m_inout', receipt.id)).rows, (await stock.facts('c_invoice', inv.id)).rows, matchFacts.rows);
    assert.deepEqual([all.get(NIR), all.get(CLEARING), all.get(IPV)], [0, 0, -20]);
  });

  it('reversing the invoice reverses its posted match; the next invoice is matched with the receipt again', async () => {
    const { po, lines: [oak] } = await purchaseOrder(3, 35);
    const receipt = await receive(po.id, [oak!]);
    const first = await invoice(po.id, [{ C_OrderLine_ID: oak!.id, PriceEntered: 36 }]);
    const [iFirst] = await lines('c_invoiceline', 'C_Invoice_ID', first.id);
    const reversed = await ok('PUT', `/api/v1/models/c_invoice/${first.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const [original, reversal] = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iFirst!.id}`);
    assert.equal(idOf(original!.Reversal_ID), reversal!.id);
    assert.equal(reversal!.Qty, -3);
    assert.equal(idOf(reversal!.Posted), 'Y');
    const originalFacts = await stock.facts('m_matchinv', original!.id);
    const reversalFacts = await stock.facts('m_matchinv', reversal!.id);
    assert.deepEqual(Object.fromEntries(balances(reversalFacts.rows)), Object.fromEntries([...balances(originalFacts.rows)].map(([a, b]) => [a, -b])), 'the reversal negates the match');
    const receiptFacts = (await stock.facts('m_inout', receipt.id)).rows;
    const firstFacts = (await stock.facts('c_invoice', first.id)).rows;
    const reversalInvoiceFacts = (await stock.facts('c_invoice', Number(idOf(reversed.Reversal_ID)))).rows;
    const open = balances(receiptFacts, firstFacts, reversalInvoiceFacts, originalFacts.rows, reversalFacts.rows);
    assert.deepEqual([open.get(NIR), open.get(CLEARING), open.get(IPV)], [-105, 0, 0], 'received, not invoiced again');

    const second = await invoice(po.id, [{ C_OrderLine_ID: oak!.id }]);
    const [iSecond] = await lines('c_invoiceline', 'C_Invoice_ID', second.id);
    const [match] = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iSecond!.id}`);
    assert.ok(match, 'the receipt is matched with the next invoice');
    const secondFacts = await stock.facts('m_matchinv', match.id);
    assert.deepEqual(Object.fromEntries(balances(secondFacts.rows)), { [NIR]: 105, [CLEARING]: -105 }, 'at the order price: no variance');
  });

  it('matches and their facts are read as invoices are', async () => {
    const { po, lines: [oak] } = await purchaseOrder(1, 35);
    await receive(po.id, [oak!]);
    const inv = await invoice(po.id, [{ C_OrderLine_ID: oak!.id, PriceEntered: 38 }]);
    const [iOak] = await lines('c_invoiceline', 'C_Invoice_ID', inv.id);
    const [match] = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iOak!.id}`);
    const { user, ws } = await demoRoleTokens(server);
    for (const t of [user, ws]) {
      const invoiceRead = await call('GET', `/api/v1/models/c_invoice/${inv.id}?$expand=fact_acct.record_id`, undefined, t);
      const matchRead = await call('GET', `/api/v1/models/m_matchinv/${match!.id}?$expand=fact_acct.record_id`, undefined, t);
      assert.equal(matchRead.status, invoiceRead.status, matchRead.text);
    }
    const written = await call('PUT', `/api/v1/models/m_matchinv/${match!.id}`, { Posted: false }, user);
    assert.ok(written.status >= 400 && written.status < 500, written.text);
  });
});
