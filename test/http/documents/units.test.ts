import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

/** Elm (124) is kept by the each (100); the demo converts it to the dozen (109) by 12. Azalea (128) has no dozen. */
const ELM = 124;
const AZALEA = 128;
const EACH = 100;
const DOZEN = 109;

describe('units of measure of document lines', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=Line`)).records as Record<string, any>[];
  const qtyOf = (l: Record<string, any>, column: string) => [idOf(l.C_UOM_ID), l.QtyEntered, l[column]];

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('an order line of 1 dozen orders, reserves, ships and invoices 12 each, priced by the dozen', async () => {
    const reserved = await stock.reserved(ELM);
    const onHand = await stock.onHand(ELM);
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: ELM, C_UOM_ID: DOZEN, QtyEntered: 1 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    assert.deepEqual(qtyOf(line!, 'QtyOrdered'), [DOZEN, 1, 12]);
    assert.deepEqual([line!.PriceActual, line!.PriceEntered, line!.PriceList, line!.LineNetAmt], [45, 540, 50, 540], 'the price list price is per each, the entered price per dozen');
    assert.equal(line!.QtyReserved, 12);
    assert.equal(await stock.reserved(ELM), reserved + 12);

    const ship = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const [shipLine] = await rows('m_inoutline', `M_InOut_ID eq ${ship.id}`);
    assert.deepEqual(qtyOf(shipLine!, 'MovementQty'), [DOZEN, 1, 12]);
    assert.equal(await stock.onHand(ELM), onHand - 12);
    assert.equal(await stock.reserved(ELM), reserved);
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyReserved]), [[12, 0]]);

    const inv = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: so.id, C_InvoiceLine: [{ M_InOutLine_ID: shipLine!.id }], 'doc-action': 'CO' });
    const [invLine] = await rows('c_invoiceline', `C_Invoice_ID eq ${inv.id}`);
    assert.deepEqual(qtyOf(invLine!, 'QtyInvoiced'), [DOZEN, 1, 12]);
    assert.deepEqual([invLine!.PriceActual, invLine!.PriceEntered, invLine!.LineNetAmt], [45, 540, 540]);
    assert.equal(inv.TotalLines, 540);
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => l.QtyInvoiced), [12]);
  });

  it('closing an order line of dozens keeps what was delivered in both units', async () => {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: ELM, C_UOM_ID: DOZEN, QtyEntered: 2 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 1 }], 'doc-action': 'CO' });
    await ok('PUT', `/api/v1/models/c_order/${so.id}`, { 'doc-action': 'CL' });
    const [closed] = await stock.orderLines(so.id);
    assert.deepEqual([...qtyOf(closed!, 'QtyOrdered'), closed!.QtyDelivered, closed!.QtyLostSales, closed!.LineNetAmt], [DOZEN, 1, 12, 12, 12, 540]);
  });

  it('a unit the product has no conversion to is refused, on order, invoice and shipment lines', async () => {
    const order = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: AZALEA, C_UOM_ID: DOZEN, QtyEntered: 1 }] });
    assert.equal(order.status, 400, order.text);
    assert.match(order.body.detail, /Product 128 has no conversion from its unit Each to Dozen \(column C_UOM_ID\)/);
    const invoice = await call('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: AZALEA, C_UOM_ID: DOZEN, QtyEntered: 1 }] });
    assert.equal(invoice.status, 400, invoice.text);
    assert.match(invoice.body.detail, /no conversion/);
    const ship = await call('POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: AZALEA, C_UOM_ID: DOZEN, QtyEntered: 1 }] });
    assert.equal(ship.status, 400, ship.text);
    assert.match(ship.body.detail, /no conversion/);
    assert.doesNotMatch(`${order.text}${invoice.text}${ship.text}`, /SELECT|c_uom_conversion/i);
  });

  it('a receipt or shipment line given only MovementQty keeps it and QtyEntered follows in the line unit; a change of MovementQty alone does too', async () => {
    const onHand = await stock.onHand(ELM);
    const receipt = await ok('POST', '/api/v1/models/m_inout', {
      C_BPartner_ID: 114,
      IsSOTrx: false,
      C_DocType_ID: 122,
      M_InOutLine: [
        { M_Product_ID: ELM, MovementQty: 24 },
        { M_Product_ID: ELM, C_UOM_ID: DOZEN, MovementQty: 24 },
        { M_Product_ID: ELM, C_UOM_ID: DOZEN, QtyEntered: 3 },
      ],
    });
    const lines = await rows('m_inoutline', `M_InOut_ID eq ${receipt.id}`);
    assert.deepEqual(
      lines.map((l) => qtyOf(l, 'MovementQty')),
      [
        [EACH, 24, 24],
        [DOZEN, 2, 24],
        [DOZEN, 3, 36],
      ],
    );
    const changed = await ok('PUT', `/api/v1/models/m_inoutline/${lines[1]!.id}`, { MovementQty: 60 });
    assert.deepEqual(qtyOf(changed, 'MovementQty'), [DOZEN, 5, 60]);
    const entered = await ok('PUT', `/api/v1/models/m_inoutline/${lines[1]!.id}`, { QtyEntered: 4 });
    assert.deepEqual(qtyOf(entered, 'MovementQty'), [DOZEN, 4, 48]);
    await ok('PUT', `/api/v1/models/m_inout/${receipt.id}`, { 'doc-action': 'CO' });
    assert.equal(await stock.onHand(ELM), onHand + 24 + 48 + 36);
  });

  it('an order line given only QtyOrdered and an invoice line given only QtyInvoiced keep them, in the product unit', async () => {
    const so = await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [
        { M_Product_ID: ELM, C_UOM_ID: DOZEN, QtyOrdered: 36 },
        { M_Product_ID: AZALEA, QtyOrdered: 7 },
      ],
    });
    const [elm, azalea] = await stock.orderLines(so.id);
    assert.deepEqual(qtyOf(elm!, 'QtyOrdered'), [DOZEN, 3, 36]);
    assert.equal(elm!.LineNetAmt, 36 * 45);
    assert.deepEqual(qtyOf(azalea!, 'QtyOrdered'), [EACH, 7, 7]);
    const changed = await ok('PUT', `/api/v1/models/c_orderline/${elm!.id}`, { QtyOrdered: 48 });
    assert.deepEqual([...qtyOf(changed, 'QtyOrdered'), changed.LineNetAmt], [DOZEN, 4, 48, 48 * 45]);

    const inv = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: ELM, C_UOM_ID: DOZEN, QtyInvoiced: 24 }] });
    const [line] = await rows('c_invoiceline', `C_Invoice_ID eq ${inv.id}`);
    assert.deepEqual([...qtyOf(line!, 'QtyInvoiced'), line!.PriceEntered, line!.LineNetAmt], [DOZEN, 2, 24, 540, 1080]);
  });

  it('a role that may write orders gets the same conversion; one that may not is refused as for any line', async () => {
    const { user, ws } = await demoRoleTokens(server);
    const body = (uom: number) => ({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: ELM, C_UOM_ID: uom, QtyEntered: 2 }] });
    for (const t of [user, ws]) {
      const plain = await call('POST', '/api/v1/models/c_order', body(EACH), t);
      const dozen = await call('POST', '/api/v1/models/c_order', body(DOZEN), t);
      assert.equal(dozen.status, plain.status, dozen.text);
      if (dozen.status === 201) assert.deepEqual(qtyOf(dozen.body.C_OrderLine[0], 'QtyOrdered'), [DOZEN, 2, 24]);
    }
  });
});
