import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { booksHelpers } from './books-helpers.js';

const PREPAY_ORDER = 130;
const STANDARD_ORDER = 132;
const ON_CREDIT_ORDER = 133;
const WAREHOUSE_ORDER = 134;
const POS_ORDER = 135;
const CUSTOMER = 118;
const PRODUCT = 128;
const HQ_BANK_ACCOUNT = 100;

describe('order sub types that ship, invoice and get paid on completion', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  const books = booksHelpers(at);
  const rows = async (table: string, filter: string, token = fx.admin) => {
    const r = await call('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`, undefined, token);
    assert.equal(r.status, 200, r.text);
    return r.body.records as Record<string, any>[];
  };
  const order = (docType: number, extra: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: docType, C_OrderLine: [{ M_Product_ID: PRODUCT, QtyEntered: 3 }], 'doc-action': 'CO', ...extra });
  const generated = async (orderId: number) => ({
    shipments: await rows('m_inout', `C_Order_ID eq ${orderId}`),
    invoices: await rows('c_invoice', `C_Order_ID eq ${orderId}`),
    lines: await rows('c_orderline', `C_Order_ID eq ${orderId}`),
  });

  it('a POS order paid in cash completes with its shipment, its invoice and a cash payment allocated to it; the books balance', async () => {
    const o = await order(POS_ORDER, { PaymentRule: 'B' });
    assert.equal(idOf(o.DocStatus), 'CO');
    const { shipments, invoices, lines } = await generated(o.id);
    assert.deepEqual(shipments.map((s) => [idOf(s.DocStatus), idOf(s.MovementType)]), [['CO', 'C-']]);
    assert.deepEqual(invoices.map((i) => [idOf(i.DocStatus), idOf(i.C_DocTypeTarget_ID)]), [['CO', 116]]);
    assert.deepEqual(lines.map((l) => [l.QtyDelivered, l.QtyInvoiced, l.QtyReserved]), [[3, 3, 0]]);
    const invoice = invoices[0]!;
    assert.equal(Number(invoice.GrandTotal), Number(o.GrandTotal));
    const payments = await rows('c_payment', `C_Invoice_ID eq ${invoice.id}`);
    assert.deepEqual(payments.map((p) => [idOf(p.DocStatus), idOf(p.TenderType), Number(p.PayAmt), p.IsAllocated]), [['CO', 'X', Number(o.GrandTotal), true]]);
    assert.equal((await books.invoice(invoice.id)).IsPaid, true);
    const invoiceLines = await rows('c_invoiceline', `C_Invoice_ID eq ${invoice.id}`);
    const shipmentLines = await rows('m_inoutline', `M_InOut_ID eq ${shipments[0]!.id}`);
    assert.equal(idOf(invoiceLines[0]!.M_InOutLine_ID), shipmentLines[0]!.id, 'the invoice is of the shipment');
    assert.equal(shipmentLines[0]!.IsInvoiced, true);
    await books.byAccount('m_inout', shipments[0]!.id);
    await books.byAccount('c_invoice', invoice.id);
    await books.byAccount('c_payment', payments[0]!.id);
    const allocations = await rows('c_allocationline', `C_Invoice_ID eq ${invoice.id}`);
    assert.equal(allocations.length, 1);
    await books.byAccount('c_allocationhdr', Number(idOf(allocations[0]!.C_AllocationHdr_ID)));
  });

  it('an On Credit order ships and invoices, and the invoice stays open (no payment)', async () => {
    const o = await order(ON_CREDIT_ORDER, { PaymentRule: 'P' });
    const { shipments, invoices, lines } = await generated(o.id);
    assert.equal(shipments.length, 1);
    assert.deepEqual(invoices.map((i) => [idOf(i.DocStatus), i.IsPaid]), [['CO', false]]);
    assert.deepEqual(lines.map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[3, 3]]);
    assert.deepEqual(await rows('c_payment', `C_Invoice_ID eq ${invoices[0]!.id}`), []);
    await books.byAccount('c_invoice', invoices[0]!.id);
  });

  it('a Warehouse order ships only; a Standard order neither ships nor invoices', async () => {
    const w = await generated((await order(WAREHOUSE_ORDER)).id);
    assert.deepEqual(w.shipments.map((s) => idOf(s.DocStatus)), ['CO']);
    assert.deepEqual(w.invoices, []);
    assert.deepEqual(w.lines.map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[3, 0]]);
    await books.byAccount('m_inout', w.shipments[0]!.id);
    const s = await generated((await order(STANDARD_ORDER)).id);
    assert.deepEqual([s.shipments, s.invoices], [[], []]);
    assert.deepEqual(s.lines.map((l) => [l.QtyDelivered, l.QtyReserved]), [[0, 3]]);
  });

  it('a prepay order waits for its payment, and the completion of a payment that names it releases it', async () => {
    const o = await order(PREPAY_ORDER, { PaymentRule: 'P' });
    assert.equal(idOf(o.DocStatus), 'WP');
    const drafted = await ok('POST', '/api/v1/models/c_payment', {
      C_BPartner_ID: CUSTOMER, C_Order_ID: o.id, C_BankAccount_ID: HQ_BANK_ACCOUNT, C_DocType_ID: 119, IsReceipt: true, PayAmt: Number(o.GrandTotal), C_Currency_ID: idOf(o.C_Currency_ID),
    });
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_order/${o.id}`)).DocStatus), 'WP', 'a drafted payment releases nothing');
    const paid = await ok('PUT', `/api/v1/models/c_payment/${drafted.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(paid.DocStatus), 'CO');
    const released = await ok('GET', `/api/v1/models/c_order/${o.id}`);
    assert.equal(idOf(released.DocStatus), 'CO');
    assert.equal(idOf(released.C_Payment_ID), drafted.id);
    await books.byAccount('c_payment', drafted.id);
  });

  it('a prepay order whose type generates shipment and invoice gets them on its release; the payment pays the invoice', async () => {
    await ok('PUT', `/api/v1/models/c_doctype/${PREPAY_ORDER}`, { IsAutoGenerateInout: true, IsAutoGenerateInvoice: true });
    try {
      const o = await order(PREPAY_ORDER, { PaymentRule: 'P' });
      assert.equal(idOf(o.DocStatus), 'WP');
      assert.deepEqual(Object.values(await generated(o.id)).slice(0, 2), [[], []], 'nothing generated while it waits');
      const payment = await ok('POST', '/api/v1/models/c_payment', {
        C_BPartner_ID: CUSTOMER, C_Order_ID: o.id, C_BankAccount_ID: HQ_BANK_ACCOUNT, C_DocType_ID: 119, IsReceipt: true, PayAmt: Number(o.GrandTotal), C_Currency_ID: idOf(o.C_Currency_ID), 'doc-action': 'CO',
      });
      const { shipments, invoices, lines } = await generated(o.id);
      assert.equal(shipments.length, 1);
      assert.deepEqual(invoices.map((i) => [idOf(i.DocStatus), i.IsPaid]), [['CO', true]]);
      assert.deepEqual(lines.map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[3, 3]]);
      assert.equal(idOf((await books.payment(payment.id)).C_Invoice_ID), invoices[0]!.id);
      await books.byAccount('c_invoice', invoices[0]!.id);
    } finally {
      await ok('PUT', `/api/v1/models/c_doctype/${PREPAY_ORDER}`, { IsAutoGenerateInout: false, IsAutoGenerateInvoice: false });
    }
  });

  it('the generated documents raise their own document events (DACO) within the order completion', async () => {
    const seen: string[] = [];
    for (const table of ['m_inout', 'c_invoice', 'c_payment', 'c_order']) fx.server.services.events.on('after-complete', table, () => void seen.push(table));
    await order(POS_ORDER, { PaymentRule: 'B' });
    assert.deepEqual(seen, ['m_inout', 'c_invoice', 'c_payment', 'c_order']);
  });

  it('refuses a prepay order paid in cash, created or changed so', async () => {
    const created = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: PREPAY_ORDER, PaymentRule: 'B', C_OrderLine: [{ M_Product_ID: PRODUCT, QtyEntered: 1 }] });
    assert.equal(created.status, 400, created.text);
    assert.match(created.body.detail, /prepay order cannot be paid in cash/);
    const draft = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: PREPAY_ORDER, PaymentRule: 'P' });
    assert.equal((await call('PUT', `/api/v1/models/c_order/${draft.id}`, { PaymentRule: 'B' })).status, 400);
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_order/${draft.id}`)).PaymentRule), 'P');
  });

  it('a failing generated document rolls the order back: nothing is written', async () => {
    // A POS order paid in cash in a currency no bank account of the organization holds.
    const before = (await rows('m_inout', `C_BPartner_ID eq ${CUSTOMER}`)).length;
    const r = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: POS_ORDER, PaymentRule: 'B', M_PriceList_ID: 103, C_OrderLine: [{ M_Product_ID: PRODUCT, QtyEntered: 1, PriceEntered: 5 }], 'doc-action': 'CO',
    });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /no bank account of the organization in the invoice currency/);
    assert.equal((await rows('m_inout', `C_BPartner_ID eq ${CUSTOMER}`)).length, before);
  });

  it('a user role completes a Warehouse order and gets its shipment', async () => {
    const user = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: WAREHOUSE_ORDER, C_OrderLine: [{ M_Product_ID: PRODUCT, QtyEntered: 1 }], 'doc-action': 'CO' }, fx.user);
    assert.equal(user.status, 201, user.text);
    assert.equal((await rows('m_inout', `C_Order_ID eq ${user.body.id}`, fx.user)).length, 1);
  });
});
