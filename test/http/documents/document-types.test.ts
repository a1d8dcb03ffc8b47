import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from './document-helpers.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';

/** GardenWorld document types (C_DocType_ID). */
const DT = {
  glJournal: 115,
  arInvoice: 116,
  arCreditMemo: 118,
  arReceipt: 119,
  mmShipment: 120,
  mmReceipt: 122,
  apInvoice: 123,
  apPayment: 125,
  purchaseOrder: 126,
  standardOrder: 132,
  paymentAllocation: 137,
  materialMovement: 143,
  physicalInventory: 144,
  bankStatement: 146,
  customerReturn: 149,
} as const;

/** A refused save: 400 with the spec's error body, naming the column and the document type. */
function refusedSave(r: { status: number; body: any; text: string }, column: string, typeName: RegExp | string) {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.title, 'Validation Errors');
  assert.equal(r.body.status, 400);
  assert.ok(r.body.detail.includes(`(column ${column})`), r.body.detail);
  assert.match(r.body.detail, typeof typeName === 'string' ? new RegExp(typeName, 'i') : typeName);
  assert.doesNotMatch(r.body.detail, /SELECT|c_doctype_id =/);
}

describe('document types are checked against their table and side', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let ws: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const count = async (table: string) => (await as(admin, 'GET', `/api/v1/models/${table}?$top=1`)).body['row-count'] as number;

  /** A completed order of the demo customer (sales) or vendor (purchase). */
  const completedOrder = async (sales: boolean) => {
    const r = await as(admin, 'POST', '/api/v1/models/c_order', {
      C_BPartner_ID: sales ? 118 : 114,
      C_DocTypeTarget_ID: sales ? DT.standardOrder : DT.purchaseOrder,
      C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }],
      'doc-action': 'CO',
    });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };

  before(async () => {
    server = await startTestServer();
    ({ admin, user, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('refuses an order typed with a document type of another table, for every role that may write orders', async () => {
    const before = await count('c_order');
    for (const [type, name] of [
      [DT.apInvoice, 'AP Invoice'],
      [DT.glJournal, 'GL Journal'],
      [DT.mmShipment, 'MM Shipment'],
      [DT.arReceipt, 'AR Receipt'],
    ] as const) {
      for (const token of [admin, user]) {
        const r = await as(token, 'POST', '/api/v1/models/c_order', {
          C_BPartner_ID: 118,
          C_DocTypeTarget_ID: type,
          C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }],
          'doc-action': 'CO',
        });
        refusedSave(r, 'C_DocTypeTarget_ID', `document type ${name} \\(\\w{3}\\) is not a document type of C_Order, which takes SOO, POO`);
      }
    }
    const wsTry = await as(ws, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: DT.apInvoice });
    assert.ok(wsTry.status === 400 || wsTry.status === 403, wsTry.text);
    assert.equal(await count('c_order'), before, 'no order was written');
  });

  it('refuses a change of an order to a document type of another table, and keeps the order', async () => {
    const draft = await as(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: DT.standardOrder, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(draft.status, 201, draft.text);
    const r = await as(user, 'PUT', `/api/v1/models/c_order/${draft.body.id}`, { C_DocTypeTarget_ID: DT.apInvoice });
    refusedSave(r, 'C_DocTypeTarget_ID', 'AP Invoice');
    const kept = await as(admin, 'GET', `/api/v1/models/c_order/${draft.body.id}`);
    assert.equal(idOf(kept.body.C_DocTypeTarget_ID), DT.standardOrder);
    assert.equal(kept.body.IsSOTrx, true);
    const purchase = await as(admin, 'PUT', `/api/v1/models/c_order/${draft.body.id}`, { C_DocTypeTarget_ID: DT.purchaseOrder });
    assert.equal(purchase.status, 200, purchase.text);
    assert.equal(purchase.body.IsSOTrx, false, 'an order type of the other side moves the draft to that side');
  });

  it('refuses an invoice typed GL Journal or Purchase Order, and an invoice type of the other side than its order', async () => {
    const before = await count('c_invoice');
    for (const [type, name] of [
      [DT.glJournal, 'GL Journal'],
      [DT.purchaseOrder, 'Purchase Order'],
      [DT.materialMovement, 'Material Movement'],
    ] as const) {
      const r = await as(admin, 'POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: type, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
      refusedSave(r, 'C_DocTypeTarget_ID', `document type ${name} \\(\\w{3}\\) is not a document type of C_Invoice, which takes ARI, ARC, API, APC`);
    }
    const order = await completedOrder(true);
    const other = await as(admin, 'POST', '/api/v1/models/c_invoice', {
      C_Order_ID: order.id,
      C_DocTypeTarget_ID: DT.apInvoice,
      C_InvoiceLine: [{ C_OrderLine_ID: order.C_OrderLine[0].id }],
    });
    refusedSave(other, 'C_DocTypeTarget_ID', 'document type AP Invoice is a purchase document type and the C_Invoice is a sales document');
    assert.equal(await count('c_invoice'), before, 'no invoice was written');
    const right = await as(admin, 'POST', '/api/v1/models/c_invoice', {
      C_Order_ID: order.id,
      C_DocTypeTarget_ID: DT.arInvoice,
      C_InvoiceLine: [{ C_OrderLine_ID: order.C_OrderLine[0].id }],
      'doc-action': 'CO',
    });
    assert.equal(right.status, 201, right.text);
    assert.equal(idOf(right.body.DocStatus), 'CO');
    const memo = await as(user, 'POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: DT.arCreditMemo, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    assert.equal(memo.status, 201, memo.text);
    assert.equal(memo.body.IsSOTrx, true);
  });

  it('refuses a shipment given the Material Movement, Physical Inventory or Bank Statement type instead of making it an MM Shipment', async () => {
    const order = await completedOrder(true);
    const before = await count('m_inout');
    for (const [type, name] of [
      [DT.materialMovement, 'Material Movement'],
      [DT.physicalInventory, 'Physical Inventory'],
      [DT.bankStatement, 'Bank Statement'],
      [DT.arInvoice, 'AR Invoice'],
    ] as const) {
      const r = await as(admin, 'POST', '/api/v1/models/m_inout', {
        C_Order_ID: order.id,
        C_DocType_ID: type,
        M_InOutLine: [{ C_OrderLine_ID: order.C_OrderLine[0].id }],
        'doc-action': 'CO',
      });
      refusedSave(r, 'C_DocType_ID', `document type ${name} \\(\\w{3}\\) is not a document type of M_InOut, which takes MMS, MMR`);
    }
    assert.equal(await count('m_inout'), before, 'no shipment was written');
    // The base type gives the direction, the order the side: an MM Shipment type on a purchase
    // order's document is a vendor return, as the original's MInOut.
    const po = await completedOrder(false);
    const received = await as(user, 'POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: po.C_OrderLine[0].id }], 'doc-action': 'CO' });
    assert.equal(received.status, 201, received.text);
    assert.equal(idOf(received.body.MovementType), 'V+');
    const vendorReturn = await as(user, 'POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, C_DocType_ID: DT.mmShipment, M_InOutLine: [{ C_OrderLine_ID: po.C_OrderLine[0].id, QtyEntered: 1 }] });
    assert.equal(vendorReturn.status, 201, vendorReturn.text);
    assert.equal(vendorReturn.body.IsSOTrx, false);
    assert.equal(idOf(vendorReturn.body.MovementType), 'V-');
    const shipped = await as(admin, 'POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: [{ C_OrderLine_ID: order.C_OrderLine[0].id }], 'doc-action': 'CO' });
    assert.equal(shipped.status, 201, shipped.text);
    assert.equal(idOf(shipped.body.C_DocType_ID), DT.mmShipment);
    assert.equal(idOf(shipped.body.MovementType), 'C-');
    const change = await as(admin, 'POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, C_DocType_ID: DT.mmShipment, IsSOTrx: true });
    assert.equal(change.status, 201, change.text);
    const moved = await as(user, 'PUT', `/api/v1/models/m_inout/${change.body.id}`, { C_DocType_ID: DT.physicalInventory });
    assert.ok(moved.status === 400, moved.text);
    const kept = await as(admin, 'GET', `/api/v1/models/m_inout/${change.body.id}`);
    assert.equal(idOf(kept.body.C_DocType_ID), DT.mmShipment);
  });

  it('refuses payments and allocations of another table or side', async () => {
    const beforePayments = await count('c_payment');
    const invoiceType = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, C_DocType_ID: DT.arInvoice, PayAmt: 10 });
    refusedSave(invoiceType, 'C_DocType_ID', 'document type AR Invoice \\(ARI\\) is not a document type of C_Payment, which takes ARR, APP');
    const invoice = await as(admin, 'POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: DT.arInvoice, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    assert.equal(invoice.status, 201, invoice.text);
    const wrongSide = await as(user, 'POST', '/api/v1/models/c_payment', { C_Invoice_ID: invoice.body.id, C_DocType_ID: DT.apPayment, 'doc-action': 'CO' });
    refusedSave(wrongSide, 'C_DocType_ID', 'document type AP Payment is a payment document type and the C_Payment is a receipt document');
    assert.equal(await count('c_payment'), beforePayments, 'no payment was written');
    const paid = await as(admin, 'POST', '/api/v1/models/c_payment', { C_Invoice_ID: invoice.body.id, C_DocType_ID: DT.arReceipt, 'doc-action': 'CO' });
    assert.equal(paid.status, 201, paid.text);
    assert.equal(paid.body.IsReceipt, true);
    const outgoing = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 114, C_DocType_ID: DT.apPayment, PayAmt: 5 });
    assert.equal(outgoing.status, 201, outgoing.text);
    assert.equal(outgoing.body.IsReceipt, false, 'without an invoice the type decides the side');
    const allocation = await as(admin, 'POST', '/api/v1/models/c_allocationhdr', { C_DocType_ID: DT.arReceipt });
    refusedSave(allocation, 'C_DocType_ID', 'document type AR Receipt \\(ARR\\) is not a document type of C_AllocationHdr, which takes CMA');
    const good = await as(admin, 'POST', '/api/v1/models/c_allocationhdr', {});
    assert.equal(good.status, 201, good.text);
    assert.equal(idOf(good.body.C_DocType_ID), DT.paymentAllocation);
  });

  it("names nothing of another client's document type", async () => {
    const dict = server.services.dictionary.current;
    const now = new Date().toISOString();
    const put = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(server.services.db, dict.byName.get(table)!, rows, now);
    await put('ad_client', [{ AD_Client_ID: 9100, AD_Org_ID: 0, Value: 'OtherCo', Name: 'Other Company', AD_Language: 'en_US' }]);
    await put('c_doctype', [{ C_DocType_ID: 9100, AD_Client_ID: 9100, AD_Org_ID: 0, Name: 'Secret Vendor Bills', PrintName: 'Secret', DocBaseType: 'API', IsSOTrx: 'N', GL_Category_ID: 108 }]);
    const r = await as(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 9100, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(r.status, 400, r.text);
    assert.doesNotMatch(r.text, /Secret/);
    assert.match(r.body.detail, /C_DocTypeTarget_ID/);
  });

  it('refuses to prepare a document whose stored type is not one of its table or side, and leaves it drafted', async () => {
    const draft = await as(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: DT.standardOrder, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(draft.status, 201, draft.text);
    // A row written before the check (or by SQL outside the service).
    await server.services.db.query('UPDATE c_order SET c_doctypetarget_id = $2 WHERE c_order_id = $1', [draft.body.id, DT.apInvoice]);
    for (const token of [admin, user]) {
      const r = await as(token, 'PUT', `/api/v1/models/c_order/${draft.body.id}`, { 'doc-action': 'CO' });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.title, 'Failed Processing Document');
      assert.match(r.body.detail, /action CO refused: document type AP Invoice \(API\) is not a document type of C_Order, which takes SOO, POO/);
    }
    const prepare = await as(admin, 'PUT', `/api/v1/models/c_order/${draft.body.id}`, { 'doc-action': 'PR' });
    assert.equal(prepare.status, 400, prepare.text);
    const kept = await as(admin, 'GET', `/api/v1/models/c_order/${draft.body.id}`);
    assert.equal(idOf(kept.body.DocStatus), 'DR');
    const facts = await as(admin, 'GET', `/api/v1/models/m_storagereservation?$filter=${q('M_Product_ID eq 128')}`);
    assert.equal(facts.status, 200);

    const ship = await as(admin, 'POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, C_DocType_ID: DT.mmShipment, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: 128, MovementQty: 1 }] });
    assert.equal(ship.status, 201, ship.text);
    await server.services.db.query('UPDATE m_inout SET c_doctype_id = $2 WHERE m_inout_id = $1', [ship.body.id, DT.bankStatement]);
    const moved = await as(admin, 'PUT', `/api/v1/models/m_inout/${ship.body.id}`, { 'doc-action': 'CO' });
    assert.equal(moved.status, 400, moved.text);
    assert.match(moved.body.detail, /document type Bank Statement \(CMB\) is not a document type of M_InOut, which takes MMS, MMR/);
    assert.equal(idOf((await as(admin, 'GET', `/api/v1/models/m_inout/${ship.body.id}`)).body.DocStatus), 'DR');

    const receipt = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, C_DocType_ID: DT.arReceipt, PayAmt: 3 });
    assert.equal(receipt.status, 201, receipt.text);
    await server.services.db.query('UPDATE c_payment SET isreceipt = $2 WHERE c_payment_id = $1', [receipt.body.id, 'N']);
    const side = await as(admin, 'PUT', `/api/v1/models/c_payment/${receipt.body.id}`, { 'doc-action': 'CO' });
    assert.equal(side.status, 400, side.text);
    assert.match(side.body.detail, /document type AR Receipt is a receipt document type and the C_Payment is a payment document/);
  });
});
