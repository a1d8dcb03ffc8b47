import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

describe('purchase order matches: quantities', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  const lineOf = async (table: string, key: string, id: number) => (await rows(table, `${key} eq ${id}`))[0]!;

  async function purchaseOrder(qty: number) {
    const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 123, QtyEntered: qty }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(po.id);
    return { po, line: line! };
  }
  const receive = async (orderId: number, orderLineId: number, qty: number) => {
    const r = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: orderId, M_InOutLine: [{ C_OrderLine_ID: orderLineId, QtyEntered: qty }], 'doc-action': 'CO' });
    return { id: r.id as number, line: (await lineOf('m_inoutline', 'M_InOut_ID', r.id)).id as number };
  };
  const invoice = async (orderId: number, orderLineId: number, qty: number) => {
    const r = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: orderId, C_DocTypeTarget_ID: 123, C_InvoiceLine: [{ C_OrderLine_ID: orderLineId, QtyEntered: qty }], 'doc-action': 'CO' });
    return { id: r.id as number, line: (await lineOf('c_invoiceline', 'C_Invoice_ID', r.id)).id as number };
  };
  /** An order line's matches as [receipt line, invoice line, qty], and the sums of what they received and invoiced. */
  const matchesOf = async (orderLineId: number) => {
    const all = await rows('m_matchpo', `C_OrderLine_ID eq ${orderLineId} and Reversal_ID eq null`);
    const sum = (f: (m: Record<string, any>) => boolean) => all.filter(f).reduce((n, m) => n + Number(m.Qty), 0);
    return {
      rows: all.map((m) => [idOf(m.M_InOutLine_ID) ?? null, idOf(m.C_InvoiceLine_ID) ?? null, m.Qty]),
      received: sum((m) => idOf(m.M_InOutLine_ID) != null),
      invoiced: sum((m) => idOf(m.C_InvoiceLine_ID) != null),
    };
  };
  const invoiceMatches = async (filter: string) =>
    (await rows('m_matchinv', filter)).map((m) => [idOf(m.C_InvoiceLine_ID), idOf(m.M_InOutLine_ID), m.Qty, idOf(m.Posted)]).sort((x, y) => Number(x[0]) - Number(y[0]) || Number(x[1]) - Number(y[1]));

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('an order line of 10 received in two parts and invoiced once holds one match per receipt line, each with the invoice line: 10 received, 10 invoiced', async () => {
    const { po, line } = await purchaseOrder(10);
    const r1 = await receive(po.id, line.id, 6);
    const r2 = await receive(po.id, line.id, 4);
    const inv = await invoice(po.id, line.id, 10);
    const m = await matchesOf(line.id);
    assert.deepEqual(m.rows, [
      [r1.line, inv.line, 6],
      [r2.line, inv.line, 4],
    ]);
    assert.deepEqual([m.received, m.invoiced], [10, 10]);
    assert.deepEqual(await invoiceMatches(`C_InvoiceLine_ID eq ${inv.line}`), [
      [inv.line, r1.line, 6, 'Y'],
      [inv.line, r2.line, 4, 'Y'],
    ]);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[10, 10]]);
  });

  it('invoices completed before the receipt: the receipt fills their matches and is matched with each invoice line', async () => {
    const { po, line } = await purchaseOrder(10);
    const x = await invoice(po.id, line.id, 4);
    const y = await invoice(po.id, line.id, 6);
    assert.deepEqual((await matchesOf(line.id)).rows, [
      [null, x.line, 4],
      [null, y.line, 6],
    ]);
    assert.deepEqual(await invoiceMatches(`C_InvoiceLine_ID eq ${x.line} or C_InvoiceLine_ID eq ${y.line}`), [], 'nothing received yet');
    const r = await receive(po.id, line.id, 10);
    const m = await matchesOf(line.id);
    assert.deepEqual(m.rows, [
      [r.line, x.line, 4],
      [r.line, y.line, 6],
    ]);
    assert.deepEqual([m.received, m.invoiced], [10, 10]);
    assert.deepEqual(await invoiceMatches(`M_InOutLine_ID eq ${r.line}`), [
      [x.line, r.line, 4, 'Y'],
      [y.line, r.line, 6, 'Y'],
    ]);
  });

  it('receipts and invoices in turns: every receipt line and invoice line is matched for its whole quantity, never twice', async () => {
    const { po, line } = await purchaseOrder(10);
    const a = await receive(po.id, line.id, 6);
    const x = await invoice(po.id, line.id, 4);
    const b = await receive(po.id, line.id, 4);
    const y = await invoice(po.id, line.id, 6);
    const m = await matchesOf(line.id);
    assert.deepEqual([m.received, m.invoiced], [10, 10]);
    const inv = await invoiceMatches(`C_InvoiceLine_ID eq ${x.line} or C_InvoiceLine_ID eq ${y.line}`);
    const total = (pick: (r: unknown[]) => unknown, id: number) => inv.filter((r) => pick(r) === id).reduce((n, r) => n + Number(r[2]), 0);
    assert.deepEqual([total((r) => r[0], x.line), total((r) => r[0], y.line)], [4, 6], 'each invoice line matched for its quantity');
    assert.deepEqual([total((r) => r[1], a.line), total((r) => r[1], b.line)], [6, 4], 'each receipt line matched for its quantity');
  });

  it('refuses a receipt or an invoice beyond what the order line ordered, and keeps nothing of it', async () => {
    const { po, line } = await purchaseOrder(5);
    const onHand = await stock.onHand(123);
    const over = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: line.id, QtyEntered: 7 }], 'doc-action': 'CO' });
    assert.equal(over.status, 400, over.text);
    assert.equal(over.body.title, 'Failed Processing Document');
    assert.match(over.body.detail, /would have 7 received, more than the 5 ordered/);
    assert.equal(await stock.onHand(123), onHand, 'no stock moved');
    await receive(po.id, line.id, 5);
    const again = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: line.id, QtyEntered: 1 }] });
    assert.equal(again.status, 201, again.text);
    const refused = await call('PUT', `/api/v1/models/m_inout/${again.body.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /would have 6 received, more than the 5 ordered/);
    assert.equal(idOf((await ok('GET', `/api/v1/models/m_inout/${again.body.id}`)).DocStatus), 'DR', 'the receipt stays drafted');
    await invoice(po.id, line.id, 5);
    const twice = await call('POST', '/api/v1/models/c_invoice', { C_Order_ID: po.id, C_DocTypeTarget_ID: 123, C_InvoiceLine: [{ C_OrderLine_ID: line.id, QtyEntered: 2 }], 'doc-action': 'CO' });
    assert.equal(twice.status, 400, twice.text);
    assert.match(twice.body.detail, /would have 7 invoiced, more than the 5 ordered/);
    const m = await matchesOf(line.id);
    assert.deepEqual([m.received, m.invoiced], [5, 5]);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[5, 5]]);
  });
});
