import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { booksHelpers } from './books-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const STANDARD_ORDER = 132;
const PURCHASE_ORDER = 126;
const CUSTOMER_RMA = 131;
const VENDOR_RMA = 150;
const MM_CUSTOMER_RETURN = 149;
const MM_VENDOR_RETURN = 151;
const AR_CREDIT_MEMO = 118;
const AP_CREDIT_MEMO = 124;

describe('returns by RMA: against shipped and received lines, return documents and credit memos generated from them', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  const books = booksHelpers(at);
  const stock = stockHelpers(at);
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  const run = (slug: string, rmaId: number, token = fx.admin) => call('POST', `/api/v1/processes/${slug}`, { 'model-name': 'm_rma', 'record-id': rmaId }, token);
  const generateReturn = (rmaId: number, token?: string) => run('m_inout_generaterma-manual', rmaId, token);
  const generateCreditMemo = (rmaId: number) => run('c_invoice_generaterma-manual', rmaId);

  /** A completed sales order of 5 of a product, shipped and invoiced. */
  async function shippedAndInvoiced() {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: STANDARD_ORDER, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 5 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    const ship = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const [shipLine] = await rows('m_inoutline', `M_InOut_ID eq ${ship.id}`);
    await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: so.id, C_InvoiceLine: [{ M_InOutLine_ID: shipLine!.id }], 'doc-action': 'CO' });
    return { so, line: line!, ship, shipLine: shipLine! };
  }

  it('a customer RMA returns part of a shipment; its return document (C+) takes the goods and delivered quantity back, its AR credit memo the invoiced quantity; the books balance', async () => {
    const { so, line, ship, shipLine } = await shippedAndInvoiced();
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[5, 5]]);
    const rma = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 2 }], 'doc-action': 'CO' });
    assert.equal(idOf(rma.DocStatus), 'CO');
    assert.equal(idOf(rma.C_DocType_ID), CUSTOMER_RMA);
    assert.equal(rma.IsSOTrx, true);
    assert.equal(idOf(rma.C_BPartner_ID), 118);
    assert.equal(Number(rma.Amt), Math.round(2 * Number(line.PriceActual) * 100) / 100);
    const onHand = await stock.onHand(128);

    const generated = await generateReturn(rma.id);
    assert.equal(generated.status, 200, generated.text);
    assert.equal(generated.body.isError, false, generated.body.summary);
    const [ret] = await rows('m_inout', `M_RMA_ID eq ${rma.id}`);
    assert.deepEqual([idOf(ret!.DocStatus), idOf(ret!.MovementType), idOf(ret!.C_DocType_ID)], ['CO', 'C+', MM_CUSTOMER_RETURN]);
    assert.equal(await stock.onHand(128), onHand + 2);
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[3, 5]]);
    const [rmaLine] = await rows('m_rmaline', `M_RMA_ID eq ${rma.id}`);
    assert.deepEqual([rmaLine!.QtyDelivered, rmaLine!.QtyInvoiced], [2, 0]);
    await books.byAccount('m_inout', ret!.id);
    assert.equal((await generateReturn(rma.id)).body.summary, 'Nothing left to return');

    const credited = await generateCreditMemo(rma.id);
    assert.equal(credited.status, 200, credited.text);
    assert.equal(credited.body.isError, false, credited.body.summary);
    const [memo] = await rows('c_invoice', `M_RMA_ID eq ${rma.id}`);
    assert.deepEqual([idOf(memo!.DocStatus), idOf(memo!.C_DocTypeTarget_ID)], ['CO', AR_CREDIT_MEMO]);
    assert.equal(Number(memo!.TotalLines), Number(rma.Amt));
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[3, 3]]);
    assert.deepEqual((await rows('m_rmaline', `M_RMA_ID eq ${rma.id}`)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[2, 2]]);
    await books.byAccount('c_invoice', memo!.id);
    assert.equal((await generateCreditMemo(rma.id)).body.summary, 'No completed returns to credit');
  });

  it('refuses to return more than was shipped minus what other RMAs return, and writes nothing', async () => {
    const { ship, shipLine } = await shippedAndInvoiced();
    await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 3 }], 'doc-action': 'CO' });
    const over = await call('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 3 }] });
    assert.equal(over.status, 400, over.text);
    assert.match(over.body.detail, /more than shipped line 10 can still return \(2\)/);
    assert.equal((await rows('m_rma', `InOut_ID eq ${ship.id}`)).length, 1, 'nothing written');
    const rest = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id }] });
    const [restLine] = await rows('m_rmaline', `M_RMA_ID eq ${rest.id}`);
    assert.equal(restLine!.Qty, 2, 'the quantity defaults to what can still be returned');
    const raised = await call('PUT', `/api/v1/models/m_rmaline/${restLine!.id}`, { Qty: 2.5 });
    assert.equal(raised.status, 400, raised.text);
  });

  it('refuses an RMA of a shipment not completed, a line of another shipment, and a document type of the other side', async () => {
    const { ship } = await shippedAndInvoiced();
    const other = await shippedAndInvoiced();
    const draft = await ok('POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, M_InOutLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    const notCompleted = await call('POST', '/api/v1/models/m_rma', { InOut_ID: draft.id });
    assert.equal(notCompleted.status, 400);
    assert.match(notCompleted.body.detail, /not completed/);
    const foreign = await call('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: other.shipLine.id, Qty: 1 }] });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.detail, /not a line of the RMA's shipment/);
    const side = await call('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, C_DocType_ID: VENDOR_RMA });
    assert.equal(side.status, 400);
    assert.match(side.body.detail, /customer Return Material type/);
  });

  it('a vendor RMA returns part of a receipt with an MM Vendor Return (V-) and an AP credit memo; the purchase order expects the goods again', async () => {
    const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: PURCHASE_ORDER, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 123, QtyEntered: 10 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(po.id);
    const receipt = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const [receiptLine] = await rows('m_inoutline', `M_InOut_ID eq ${receipt.id}`);
    await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: po.id, C_InvoiceLine: [{ M_InOutLine_ID: receiptLine!.id }], 'doc-action': 'CO' });
    const rma = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: receipt.id, M_RMALine: [{ M_InOutLine_ID: receiptLine!.id, Qty: 4 }], 'doc-action': 'CO' });
    assert.deepEqual([idOf(rma.C_DocType_ID), rma.IsSOTrx], [VENDOR_RMA, false]);
    const onHand = await stock.onHand(123);
    assert.equal((await generateReturn(rma.id)).body.isError, false);
    const [ret] = await rows('m_inout', `M_RMA_ID eq ${rma.id}`);
    assert.deepEqual([idOf(ret!.DocStatus), idOf(ret!.MovementType), idOf(ret!.C_DocType_ID)], ['CO', 'V-', MM_VENDOR_RETURN]);
    assert.equal(await stock.onHand(123), onHand - 4);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced, l.QtyReserved]), [[6, 10, 4]]);
    await books.byAccount('m_inout', ret!.id);
    assert.equal((await generateCreditMemo(rma.id)).body.isError, false);
    const [memo] = await rows('c_invoice', `M_RMA_ID eq ${rma.id}`);
    assert.deepEqual([idOf(memo!.DocStatus), idOf(memo!.C_DocTypeTarget_ID)], ['CO', AP_CREDIT_MEMO]);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[6, 6]]);
    await books.byAccount('c_invoice', memo!.id);
  });

  it('an RMA with return documents cannot be voided; reversing the return gives its quantity back to the RMA; an RMA without returns voids', async () => {
    const { so, ship, shipLine } = await shippedAndInvoiced();
    const rma = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 1 }], 'doc-action': 'CO' });
    await generateReturn(rma.id);
    const refused = await call('PUT', `/api/v1/models/m_rma/${rma.id}`, { 'doc-action': 'VO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /void or reverse them first/);
    const [ret] = await rows('m_inout', `M_RMA_ID eq ${rma.id}`);
    await ok('PUT', `/api/v1/models/m_inout/${ret!.id}`, { 'doc-action': 'RC' });
    assert.deepEqual((await rows('m_rmaline', `M_RMA_ID eq ${rma.id}`)).map((l) => l.QtyDelivered), [0]);
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => l.QtyDelivered), [5]);
    const other = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 1 }], 'doc-action': 'CO' });
    const voided = await ok('PUT', `/api/v1/models/m_rma/${other.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
  });

  it('the processes refuse an RMA not completed, and a role without access to them', async () => {
    const { ship, shipLine } = await shippedAndInvoiced();
    const rma = await ok('POST', '/api/v1/models/m_rma', { InOut_ID: ship.id, M_RMALine: [{ M_InOutLine_ID: shipLine.id, Qty: 1 }] });
    const drafted = await generateReturn(rma.id);
    assert.equal(drafted.status, 200, drafted.text);
    assert.equal(drafted.body.isError, true);
    assert.match(drafted.body.summary, /not completed \(status DR\)/);
    const user = await generateReturn(rma.id, fx.user);
    assert.ok(user.status === 403 || user.status === 404, `${user.status} ${user.text}`);
    assert.equal((await rows('m_inout', `M_RMA_ID eq ${rma.id}`)).length, 0);
  });

  it('the least-privileged role runs no action on an RMA of an organization it may not write, nor generates from it', async () => {
    const { ship, shipLine } = await shippedAndInvoiced();
    const foreign = await ok('POST', '/api/v1/models/m_rma', { AD_Org_ID: 50001, InOut_ID: ship.id, M_RMALine: [{ AD_Org_ID: 50001, M_InOutLine_ID: shipLine.id, Qty: 1 }] });
    const refused = await call('PUT', `/api/v1/models/m_rma/${foreign.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(idOf((await ok('GET', `/api/v1/models/m_rma/${foreign.id}`)).DocStatus), 'DR');
    await ok('PUT', `/api/v1/models/m_rma/${foreign.id}`, { 'doc-action': 'CO' });
    const generate = await generateReturn(foreign.id, fx.ws);
    assert.ok(generate.status === 403 || generate.status === 404 || generate.body.isError === true, `${generate.status} ${generate.text}`);
    assert.equal((await rows('m_inout', `M_RMA_ID eq ${foreign.id}`)).length, 0);
  });
});
