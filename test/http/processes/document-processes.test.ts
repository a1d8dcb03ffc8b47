import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { systemLogin } from '../../helpers/login.js';

/**
 * The document processes (the button process of each document, "C_Order Process" and the like)
 * run the document action through the document engine: POST /processes/c_order-process
 * {"record-id": N, "table-id": 259} completes the order, as it does in the original.
 */
describe('document processes', () => {
  const f = serverWithDemoRoles();
  const run = (slug: string, body: unknown, token = f.admin) => f.server.request('POST', `/api/v1/processes/${slug}`, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await f.server.request(method, path, { token: f.admin, body });
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const state = async (table: string, id: number) => {
    const { rows } = await f.server.services.db.query<{ docstatus: string; docaction: string; processed: string }>(`SELECT docstatus, docaction, processed FROM ${table} WHERE ${table}_id = $1`, [id]);
    return rows[0]!;
  };
  const draftOrder = (lines = [{ M_Product_ID: 128, QtyEntered: 2 }]) => ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines });

  it('Process Order completes a drafted order (record-id and table-id, as clients of the original send them)', async () => {
    const order = await draftOrder();
    assert.deepEqual(await state('c_order', order.id), { docstatus: 'DR', docaction: 'CO', processed: 'N' });
    const r = await run('c_order-process', { 'record-id': order.id, 'table-id': 259 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    assert.equal(r.body.summary, `C_Order ${order.DocumentNo}: Completed`);
    assert.deepEqual(await state('c_order', order.id), { docstatus: 'CO', docaction: 'CL', processed: 'Y' });
    const read = await ok('GET', `/api/v1/models/c_order/${order.id}`);
    assert.equal(read.DocStatus.id, 'CO');
    const lines = await f.server.services.db.query<{ processed: string }>(`SELECT DISTINCT processed FROM c_orderline WHERE c_order_id = $1`, [order.id]);
    assert.deepEqual(lines.rows, [{ processed: 'Y' }], 'the lines are processed with the order');
    const reserved = await f.server.services.db.query<{ qty: string }>(`SELECT qty FROM m_storagereservation WHERE m_product_id = 128 AND m_warehouse_id = 103 AND issotrx = 'Y'`);
    assert.ok(Number(reserved.rows[0]?.qty) >= 2, 'the completion reserved the ordered quantity');
    const [instance] = (await f.server.services.db.query<{ record_id: number; ad_table_id: number; result: number }>(`SELECT record_id, ad_table_id, result FROM ad_pinstance WHERE ad_pinstance_id = $1`, [r.body.AD_PInstance_ID])).rows;
    assert.deepEqual([Number(instance!.record_id), Number(instance!.ad_table_id), instance!.result], [order.id, 259, 1]);
  });

  it('takes the action named by DocAction, else the one the record proposes; record-id alone names a record of the workflow table', async () => {
    const order = await draftOrder();
    const completed = await run('c_order-process', { 'record-id': order.id, DocAction: 'CO' });
    assert.equal(completed.body.isError, false, completed.text);
    assert.equal((await state('c_order', order.id)).docstatus, 'CO');
    const voided = await run('c_order-process', { 'record-id': order.id, 'table-id': 259, DocAction: { id: 'VO' } });
    assert.equal(voided.body.isError, false, voided.text);
    assert.equal(voided.body.summary, `C_Order ${order.DocumentNo}: Voided`);
    assert.deepEqual(await state('c_order', order.id), { docstatus: 'VO', docaction: '--', processed: 'Y' });
    const second = await draftOrder();
    // The record proposes Prepare: the process runs it.
    await f.server.services.db.query(`UPDATE c_order SET docaction = 'PR' WHERE c_order_id = $1`, [second.id]);
    const prepared = await run('c_order-process', { 'model-name': 'c_order', 'record-id': second.id });
    assert.equal(prepared.body.summary, `C_Order ${second.DocumentNo}: In Progress`, prepared.text);
    assert.equal((await state('c_order', second.id)).docstatus, 'IP');
    const definition = await f.server.request('GET', '/api/v1/processes/c_order-process', { token: f.admin });
    assert.deepEqual(
      definition.body.parameters.map((p: { parameterName: string; DefaultValue: string }) => [p.parameterName, p.DefaultValue]),
      [['DocAction', '@DocAction@']],
    );
  });

  it('answers isError with the reason when the document refuses the action, and changes nothing', async () => {
    const order = await draftOrder();
    const refused = await run('c_order-process', { 'record-id': order.id, 'table-id': 259, DocAction: 'RE' });
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.body.isError, true);
    assert.equal(refused.body.summary, `C_Order ${order.DocumentNo} in status DR: action RE refused: not allowed in status DR`);
    assert.deepEqual(await state('c_order', order.id), { docstatus: 'DR', docaction: 'CO', processed: 'N' });
    const [instance] = (await f.server.services.db.query<{ result: number; errormsg: string }>(`SELECT result, errormsg FROM ad_pinstance WHERE ad_pinstance_id = $1`, [refused.body.AD_PInstance_ID])).rows;
    assert.deepEqual(instance, { result: 0, errormsg: refused.body.summary });

    const empty = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132 });
    const noLines = await run('c_order-process', { 'record-id': empty.id, 'table-id': 259 });
    assert.equal(noLines.body.isError, true);
    assert.match(noLines.body.summary, /action CO refused: the document has no lines/);
    assert.equal((await state('c_order', empty.id)).docstatus, 'DR', 'nothing of the failed completion is kept');

    const unknown = await run('c_order-process', { 'record-id': order.id, 'table-id': 259, DocAction: 'XX' });
    assert.equal(unknown.body.isError, true);
    assert.match(unknown.body.summary, /unknown document action/);
    const invoice = (await f.server.services.db.query<{ c_invoice_id: number }>(`SELECT c_invoice_id FROM c_invoice WHERE ad_client_id = 11 ORDER BY c_invoice_id LIMIT 1`)).rows[0]!;
    const otherTable = await run('c_order-process', { 'record-id': Number(invoice.c_invoice_id), 'table-id': 318 });
    assert.equal(otherTable.body.isError, true);
    assert.match(otherTable.body.summary, /runs on C_Order records, not on C_Invoice/);
    const noRecord = await run('c_order-process', {});
    assert.equal(noRecord.body.isError, true);
    assert.match(noRecord.body.summary, /record-id/);
    const missing = await run('c_order-process', { 'record-id': 999_999_999, 'table-id': 259 });
    assert.equal(missing.status, 404);
  });

  it('processes shipments, invoices, payments and allocations through their own document processes', async () => {
    const order = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 3 }], 'doc-action': 'CO' });
    const orderLines = await ok('GET', `/api/v1/models/c_orderline?$filter=${encodeURIComponent(`C_Order_ID eq ${order.id}`)}`);
    const shipment = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: orderLines.records.map((l: { id: number }) => ({ C_OrderLine_ID: l.id })) });
    assert.equal((await state('m_inout', shipment.id)).docstatus, 'DR');
    const shipped = await run('m_inout-process', { 'record-id': shipment.id, 'table-id': 319 });
    assert.equal(shipped.body.isError, false, shipped.text);
    assert.equal(shipped.body.summary, `M_InOut ${shipment.DocumentNo}: Completed`);
    assert.equal((await state('m_inout', shipment.id)).docstatus, 'CO');
    const moved = await f.server.services.db.query(`SELECT 1 FROM m_transaction t JOIN m_inoutline l ON l.m_inoutline_id = t.m_inoutline_id WHERE l.m_inout_id = $1`, [shipment.id]);
    assert.equal(moved.rows.length, 1, 'the stock moved');

    const invoice = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: order.id, C_InvoiceLine: shipment.M_InOutLine.map((l: { id: number }) => ({ M_InOutLine_ID: l.id })) });
    const invoiced = await run('c_invoice-process', { 'record-id': invoice.id, 'model-name': 'c_invoice' });
    assert.equal(invoiced.body.isError, false, invoiced.text);
    assert.equal((await state('c_invoice', invoice.id)).docstatus, 'CO');

    const payment = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, PayAmt: invoice.GrandTotal });
    const paid = await run('c_payment-process', { 'record-id': payment.id, 'table-id': 335 });
    assert.equal(paid.body.isError, false, paid.text);
    assert.equal((await state('c_payment', payment.id)).docstatus, 'CO');

    const allocation = await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: invoice.id, C_Payment_ID: payment.id, Amount: invoice.GrandTotal }] });
    const allocated = await run('c_allocation_process', { 'record-id': allocation.id, 'table-id': 735 });
    assert.equal(allocated.body.isError, false, allocated.text);
    assert.equal((await state('c_allocationhdr', allocation.id)).docstatus, 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${invoice.id}`)).IsPaid, true);

    const again = await run('c_invoice-process', { 'record-id': invoice.id, 'table-id': 318, DocAction: 'CO' });
    assert.equal(again.body.isError, true, 'a completed invoice is not completed twice');
    assert.match(again.body.summary, /in status CO: action CO refused/);
  });

  it('runs for a role on the records it may read and write only; a role whose level the process does not reach gets 403', async () => {
    const mine = await draftOrder();
    const byUser = await run('c_order-process', { 'record-id': mine.id, 'table-id': 259 }, f.user);
    assert.equal(byUser.body.isError, false, byUser.text);
    assert.equal((await state('c_order', mine.id)).docstatus, 'CO');
    const elsewhere = await draftOrder();
    // An order of the Furniture organisation, which GardenWorld User does not reach.
    await f.server.services.db.query(`UPDATE c_order SET ad_org_id = 50000 WHERE c_order_id = $1`, [elsewhere.id]);
    const hidden = await run('c_order-process', { 'record-id': elsewhere.id, 'table-id': 259 }, f.user);
    assert.equal(hidden.status, 404, hidden.text);
    assert.equal((await state('c_order', elsewhere.id)).docstatus, 'DR');
    const system = await systemLogin(f.server);
    const denied = await run('c_order-process', { 'record-id': mine.id, 'table-id': 259 }, system);
    assert.equal(denied.status, 403, 'Process Order is of organisation level, which the System role does not reach');
    assert.equal(denied.body.title, 'Access denied');
  });
});
