import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

describe('matching of purchase orders, receipts and vendor invoices', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('receipt and invoice of a purchase order write one MatchPO per receipt line holding the invoice line, and MatchInv; reversing the invoice undoes them', async () => {
    const po = await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 114,
      C_DocTypeTarget_ID: 126,
      IsSOTrx: false,
      C_OrderLine: [
        { M_Product_ID: 123, QtyEntered: 6 },
        { M_Product_ID: 124, QtyEntered: 3 },
      ],
      'doc-action': 'CO',
    });
    const [a, b] = await stock.orderLines(po.id);
    const receipt = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: a!.id, QtyEntered: 4 }, { C_OrderLine_ID: b!.id }], 'doc-action': 'CO' });
    assert.equal(idOf(receipt.MovementType), 'V+');
    const rLines = (await rows('m_inoutline', `M_InOut_ID eq ${receipt.id}`)).sort((x, y) => x.Line - y.Line);
    const byReceipt = await rows('m_matchpo', `M_InOutLine_ID eq ${rLines[0]!.id} or M_InOutLine_ID eq ${rLines[1]!.id}`);
    assert.deepEqual(
      byReceipt.map((m) => [idOf(m.C_OrderLine_ID), idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID) ?? null, m.Qty, idOf(m.M_Product_ID)]),
      [
        [a!.id, rLines[0]!.id, null, 4, 123],
        [b!.id, rLines[1]!.id, null, 3, 124],
      ],
    );
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[4, 0], [3, 0]]);

    const invoice = await ok('POST', '/api/v1/models/c_invoice', {
      C_Order_ID: po.id,
      C_DocTypeTarget_ID: 123,
      C_InvoiceLine: [{ M_InOutLine_ID: rLines[0]!.id, C_OrderLine_ID: a!.id }, { C_OrderLine_ID: b!.id }],
      'doc-action': 'CO',
    });
    assert.equal(idOf(invoice.DocStatus), 'CO');
    const iLines = (await rows('c_invoiceline', `C_Invoice_ID eq ${invoice.id}`)).sort((x, y) => x.Line - y.Line);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[4, 4], [3, 3]]);
    const inv = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iLines[0]!.id} or C_InvoiceLine_ID eq ${iLines[1]!.id}`);
    assert.deepEqual(
      inv.map((m) => [idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID), m.Qty, m.Processed]).sort((x, y) => Number(x[1]) - Number(y[1])),
      [
        [rLines[0]!.id, iLines[0]!.id, 4, true],
        [rLines[1]!.id, iLines[1]!.id, 3, true],
      ],
      'the line naming the receipt line, and the other through the receipt match of its order line (as the original)',
    );
    const poInv = await rows('m_matchpo', `C_OrderLine_ID eq ${a!.id} or C_OrderLine_ID eq ${b!.id}`);
    assert.deepEqual(
      poInv.map((m) => [idOf(m.C_OrderLine_ID), idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID), m.Qty]),
      [
        [a!.id, rLines[0]!.id, iLines[0]!.id, 4],
        [b!.id, rLines[1]!.id, iLines[1]!.id, 3],
      ],
      'the receipt matches take the invoice lines: one row per order line',
    );

    const reversed = await ok('PUT', `/api/v1/models/c_invoice/${invoice.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[4, 0], [3, 0]]);
    const invAfter = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iLines[0]!.id}`);
    assert.equal(invAfter.length, 2);
    const [orig, rev] = invAfter;
    assert.equal(rev!.Qty, -4);
    assert.equal(idOf(orig!.Reversal_ID), rev!.id);
    assert.equal(idOf(rev!.Reversal_ID), orig!.id);
    assert.equal((await rows('m_matchpo', `C_InvoiceLine_ID eq ${iLines[0]!.id} or C_InvoiceLine_ID eq ${iLines[1]!.id}`)).length, 0, 'no match holds the reversed invoice');
    const poAfter = await rows('m_matchpo', `C_OrderLine_ID eq ${a!.id} or C_OrderLine_ID eq ${b!.id}`);
    assert.deepEqual(
      poAfter.map((m) => [idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID) ?? null, m.Qty]),
      [
        [rLines[0]!.id, null, 4],
        [rLines[1]!.id, null, 3],
      ],
      'the receipt matches keep their receipt lines, to be invoiced again',
    );
  });

  it('an invoice completed before the receipt is matched when the receipt completes; reversing the receipt reverses its matches', async () => {
    const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 123, QtyEntered: 2 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(po.id);
    const receipt = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }] });
    const [rLine] = await rows('m_inoutline', `M_InOut_ID eq ${receipt.id}`);
    const invoice = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: po.id, C_DocTypeTarget_ID: 123, C_InvoiceLine: [{ M_InOutLine_ID: rLine!.id, C_OrderLine_ID: line!.id, QtyEntered: 2 }], 'doc-action': 'CO' });
    const [iLine] = await rows('c_invoiceline', `C_Invoice_ID eq ${invoice.id}`);
    assert.equal((await rows('m_matchinv', `C_InvoiceLine_ID eq ${iLine!.id}`)).length, 0, 'the receipt is not completed yet');
    await ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'CO' });
    const matched = await rows('m_matchinv', `C_InvoiceLine_ID eq ${iLine!.id}`);
    assert.deepEqual(matched.map((m) => [idOf(m.M_InOutLine_ID), m.Qty]), [[rLine!.id, 2]]);
    assert.deepEqual(
      (await rows('m_matchpo', `C_OrderLine_ID eq ${line!.id}`)).map((m) => [idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID), m.Qty]),
      [[rLine!.id, iLine!.id, 2]],
      "the receipt line filled the invoice line's match",
    );
    await ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'RC' });
    assert.deepEqual((await rows('m_matchinv', `C_InvoiceLine_ID eq ${iLine!.id}`)).map((m) => m.Qty), [2, -2]);
    const after = await rows('m_matchpo', `C_OrderLine_ID eq ${line!.id}`);
    assert.deepEqual(
      after.map((m) => [idOf(m.M_InOutLine_ID) ?? null, idOf(m.C_InvoiceLine_ID), m.Qty, m.Reversal_ID ? 'reversed' : 'open']),
      [
        [rLine!.id, iLine!.id, 2, 'reversed'],
        [rLine!.id, iLine!.id, -2, 'reversed'],
        [null, iLine!.id, 2, 'open'],
      ],
      'the receipt match is reversed and the invoice line keeps a match of its own, as the original',
    );
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[0, 2]]);
  });

  it('the demo vendor invoice is matched with its receipt; sales documents are not matched; matches are read as invoices are', async () => {
    const demo = await rows('m_matchinv', `DocumentNo eq '200000'`);
    assert.deepEqual(demo.map((m) => [idOf(m.M_InOutLine_ID), idOf(m.C_InvoiceLine_ID), m.Qty]), [[102, 103, 10], [103, 104, 10]]);
    assert.equal((await rows('m_matchinv', 'C_InvoiceLine_ID eq 102')).length, 0, 'a customer invoice line of a shipment line');
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    const ship = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const [sLine] = await rows('m_inoutline', `M_InOut_ID eq ${ship.id}`);
    assert.equal((await rows('m_matchpo', `M_InOutLine_ID eq ${sLine!.id}`)).length, 0);
    const { ws } = await demoRoleTokens(server);
    const invoices = await call('GET', '/api/v1/models/c_invoice?$top=1', undefined, ws);
    const r = await call('GET', '/api/v1/models/m_matchinv?$top=1', undefined, ws);
    assert.equal(r.status, invoices.status, r.text);
  });
});
