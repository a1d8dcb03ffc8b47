import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const PRODUCTS = [128, 133, 137];

describe('order to cash', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const snapshot = async () => {
    const out: Record<number, [number, number]> = {};
    for (const p of PRODUCTS) out[p] = [await stock.onHand(p), await stock.reserved(p)];
    return out;
  };
  /**
   * Grand total less the amounts of its allocation lines: every allocation here is completed, or
   * reversed together with its reversal, whose negated lines cancel it.
   */
  const openAmount = async (invoice: Record<string, any>) => {
    const lines = await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${invoice.id}`)}`);
    return Math.round((Number(invoice.GrandTotal) - lines.records.reduce((n: number, l: any) => n + Number(l.Amount), 0)) * 100) / 100;
  };
  const balanced = async (table: string, id: number, expectedDr?: number) => {
    const f = await stock.facts(table, id);
    assert.ok(f.count > 0, `${table} ${id} has facts`);
    assert.equal(f.dr, f.cr, `${table} ${id}: debits = credits`);
    if (expectedDr !== undefined) assert.equal(f.dr, expectedDr);
    return f;
  };
  const newOrder = () =>
    ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [
        { M_Product_ID: 128, QtyEntered: 5, C_Tax_ID: 105 },
        { M_Product_ID: 133, QtyEntered: 4, C_Tax_ID: 107 },
        { M_Product_ID: 137, QtyEntered: 10, C_Tax_ID: 105 },
      ],
      'doc-action': 'CO',
    });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('order → complete → shipment → invoice → payment → allocation → close', async () => {
    const start = await snapshot();
    const order = await newOrder();
    assert.equal(idOf(order.DocStatus), 'CO');
    assert.match(order.DocumentNo, /^\d+$/);
    assert.equal(order.TotalLines, 270);
    assert.equal(order.GrandTotal, 287, '270 + 6% of 190 + 7% of 80');
    const taxes = await ok('GET', `/api/v1/models/c_ordertax?$filter=${q(`C_Order_ID eq ${order.id}`)}&$orderby=C_Tax_ID`);
    assert.deepEqual(taxes.records.map((t: any) => [idOf(t.C_Tax_ID), t.TaxBaseAmt, t.TaxAmt]), [
      [105, 190, 11.4],
      [107, 80, 5.6],
    ]);
    const reserved = await snapshot();
    for (const [p, qty] of [[128, 5], [133, 4], [137, 10]] as const) assert.deepEqual(reserved[p], [start[p]![0], start[p]![1] + qty], `product ${p} reserved`);

    const lines = await stock.orderLines(order.id);
    const shipment = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: lines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
    assert.equal(idOf(shipment.DocStatus), 'CO');
    assert.notEqual(shipment.DocumentNo, order.DocumentNo);
    const shipped = await snapshot();
    for (const [p, qty] of [[128, 5], [133, 4], [137, 10]] as const) assert.deepEqual(shipped[p], [start[p]![0] - qty, start[p]![1]], `product ${p} shipped`);
    await balanced('m_inout', shipment.id, 5 * 11 + 4 * 10 + 10 * 3.5);

    const invoice = await ok('POST', '/api/v1/models/c_invoice', {
      C_Order_ID: order.id,
      C_InvoiceLine: shipment.M_InOutLine.map((l: any) => ({ M_InOutLine_ID: l.id })),
      'doc-action': 'CO',
    });
    assert.equal(idOf(invoice.DocStatus), 'CO');
    assert.equal(idOf(invoice.C_DocType_ID), 116, 'AR Invoice');
    assert.equal(invoice.GrandTotal, 287);
    assert.equal(invoice.IsPaid, false);
    assert.equal(await openAmount(invoice), 287);
    const invoiceFacts = await balanced('c_invoice', invoice.id, 287);
    assert.deepEqual([...new Set(invoiceFacts.accounts)].sort(), [12110, 21610, 41000], 'receivable, tax due, revenue');
    assert.deepEqual((await stock.orderLines(order.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[5, 5], [4, 4], [10, 10]]);

    const payment = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, PayAmt: 287, 'doc-action': 'CO' });
    assert.equal(idOf(payment.DocStatus), 'CO');
    assert.equal(idOf(payment.C_DocType_ID), 119, 'AR Receipt');
    assert.equal(payment.IsAllocated, false);
    await balanced('c_payment', payment.id, 287);

    const allocation = await ok('POST', '/api/v1/models/c_allocationhdr', {
      C_AllocationLine: [{ C_Invoice_ID: invoice.id, C_Payment_ID: payment.id, Amount: 287 }],
      'doc-action': 'CO',
    });
    assert.equal(idOf(allocation.DocStatus), 'CO');
    await balanced('c_allocationhdr', allocation.id, 287);
    const paid = await ok('GET', `/api/v1/models/c_invoice/${invoice.id}`);
    assert.equal(paid.IsPaid, true);
    assert.equal(await openAmount(paid), 0);
    assert.equal((await ok('GET', `/api/v1/models/c_payment/${payment.id}`)).IsAllocated, true);

    const closed = await ok('PUT', `/api/v1/models/c_order/${order.id}`, { 'doc-action': 'CL' });
    assert.equal(idOf(closed.DocStatus), 'CL');
    assert.equal(closed.GrandTotal, 287, 'everything was delivered');
    const end = await snapshot();
    for (const p of PRODUCTS) assert.deepEqual(end[p], shipped[p]);
  });

  it('void and reverse: a payment allocated at completion, voided; the invoice and shipment reversed; the order voided', async () => {
    const start = await snapshot();
    const order = await newOrder();
    const lines = await stock.orderLines(order.id);
    const shipment = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: lines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
    const invoice = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: order.id, C_InvoiceLine: lines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
    assert.equal(invoice.GrandTotal, 287);
    const payment = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: invoice.id, 'doc-action': 'CO' });
    assert.equal(payment.PayAmt, 287, 'the open amount of the invoice');
    assert.equal(payment.IsAllocated, true);
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${invoice.id}`)).IsPaid, true);

    const refusedOrderVoid = await call('PUT', `/api/v1/models/c_order/${order.id}`, { 'doc-action': 'VO' });
    assert.equal(refusedOrderVoid.status, 400);
    assert.match(refusedOrderVoid.body.detail, /status CO: action VO refused: .*shipped or invoiced/);
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_order/${order.id}`)).DocStatus), 'CO', 'unchanged');

    const voided = await ok('PUT', `/api/v1/models/c_payment/${payment.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    const reversalPayment = await ok('GET', `/api/v1/models/c_payment/${idOf(voided.Reversal_ID)}`);
    assert.equal(reversalPayment.PayAmt, -287);
    await balanced('c_payment', payment.id, 287);
    const reversed = await stock.facts('c_payment', reversalPayment.id);
    assert.equal(reversed.dr, -287);
    assert.equal(reversed.cr, -287);
    const reopened = await ok('GET', `/api/v1/models/c_invoice/${invoice.id}`);
    assert.equal(reopened.IsPaid, false);
    assert.equal(await openAmount(reopened), 287);

    const rc = await ok('PUT', `/api/v1/models/c_invoice/${invoice.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(rc.DocStatus), 'RE');
    const reversalInvoice = await ok('GET', `/api/v1/models/c_invoice/${idOf(rc.Reversal_ID)}`);
    assert.equal(reversalInvoice.GrandTotal, -287);
    assert.equal(reversalInvoice.DocumentNo, `${invoice.DocumentNo}^`);
    const rf = await stock.facts('c_invoice', reversalInvoice.id);
    assert.equal(rf.dr, -287);
    assert.equal(rf.dr, rf.cr);
    assert.deepEqual((await stock.orderLines(order.id)).map((l) => l.QtyInvoiced), [0, 0, 0]);

    const sr = await ok('PUT', `/api/v1/models/m_inout/${shipment.id}`, { 'doc-action': 'RA' });
    assert.equal(idOf(sr.DocStatus), 'RE');
    const back = await snapshot();
    for (const [p, qty] of [[128, 5], [133, 4], [137, 10]] as const) assert.deepEqual(back[p], [start[p]![0], start[p]![1] + qty], `product ${p} back in stock, reserved again`);

    const vo = await ok('PUT', `/api/v1/models/c_order/${order.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(vo.DocStatus), 'VO');
    assert.equal(vo.GrandTotal, 0);
    const end = await snapshot();
    for (const p of PRODUCTS) assert.deepEqual(end[p], start[p], `product ${p} as before`);

    const again = await call('PUT', `/api/v1/models/c_invoice/${invoice.id}`, { 'doc-action': 'VO' });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /status RE: action VO refused/);
  });

  it('refuses a payment without amount and leaves it as it was', async () => {
    const p = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, Description: 'no amount' });
    const r = await call('PUT', `/api/v1/models/c_payment/${p.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /C_Payment \S+ in status DR: action CO refused: the payment has no amount/);
    const same = await ok('GET', `/api/v1/models/c_payment/${p.id}`);
    assert.equal(idOf(same.DocStatus), 'DR');
    assert.equal(same.DocumentNo, p.DocumentNo);
    assert.equal((await stock.facts('c_payment', p.id)).count, 0);
  });
});
