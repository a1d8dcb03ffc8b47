import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const MM_SHIPMENT = 120;
const MM_CUSTOMER_RETURN = 149;
const AR_INVOICE = 116;
const AR_CREDIT_MEMO = 118;

describe('returns of vendors and customers', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  /** What purchase orders still expect of a product at the HQ warehouse. */
  const expected = async (product: number) =>
    (await rows('m_storagereservation', `M_Product_ID eq ${product} and M_Warehouse_ID eq 103 and IsSOTrx eq false`)).reduce((n, r) => n + Number(r.Qty), 0);
  const generate = (inoutId: number, as = token) => call('POST', '/api/v1/processes/m_inout_generateinvoices', { 'model-name': 'm_inout', 'record-id': inoutId }, as);

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('a vendor return (V-) takes back what the purchase order line delivered; the order expects it again; its reversal delivers it again', async () => {
    const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 123, QtyEntered: 10 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(po.id);
    const before = await expected(123);
    await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 6 }], 'doc-action': 'CO' });
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyReserved]), [[6, 4]]);
    const onHand = await stock.onHand(123);

    const ret = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, C_DocType_ID: MM_SHIPMENT, M_InOutLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 2 }], 'doc-action': 'CO' });
    assert.equal(idOf(ret.MovementType), 'V-');
    assert.equal(await stock.onHand(123), onHand - 2);
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyReserved]), [[4, 6]], 'delivered 6 − 2; expected again');
    assert.equal(await expected(123), before - 4);
    const [retLine] = await rows('m_inoutline', `M_InOut_ID eq ${ret.id}`);
    assert.deepEqual((await rows('m_matchpo', `M_InOutLine_ID eq ${retLine!.id}`)).map((m) => m.Qty), [-2], 'the return takes its quantity off the matches');
    const facts = await stock.facts('m_inout', ret.id);
    assert.equal(facts.dr, facts.cr);
    assert.deepEqual(facts.accounts.sort(), [14100, 21190]);

    await ok('PUT', `/api/v1/models/m_inout/${ret.id}`, { 'doc-action': 'RC' });
    assert.deepEqual((await stock.orderLines(po.id)).map((l) => [l.QtyDelivered, l.QtyReserved]), [[6, 4]]);
    assert.equal(await stock.onHand(123), onHand);
  });

  it('a customer return (C+) takes back what the sales order line delivered, and Generate Invoices credits it with an AR Credit Memo of positive quantities', async () => {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 5 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    const ship = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const shipped = await generate(ship.id);
    assert.equal(shipped.status, 200, shipped.text);
    const invoiceId = shipped.body.logs[0].recordId;
    const invoice = await ok('GET', `/api/v1/models/c_invoice/${invoiceId}`);
    assert.equal(idOf(invoice.C_DocTypeTarget_ID), AR_INVOICE);
    await ok('PUT', `/api/v1/models/c_invoice/${invoiceId}`, { 'doc-action': 'CO' });
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyInvoiced]), [[5, 5]]);
    const onHand = await stock.onHand(128);

    const ret = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, C_DocType_ID: MM_CUSTOMER_RETURN, M_InOutLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 2 }], 'doc-action': 'CO' });
    assert.equal(idOf(ret.MovementType), 'C+');
    assert.equal(await stock.onHand(128), onHand + 2);
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => [l.QtyDelivered, l.QtyReserved]), [[3, 2]], 'delivered 5 − 2; the open order owes them again');

    const credited = await generate(ret.id);
    assert.equal(credited.status, 200, credited.text);
    assert.equal(credited.body.summary, 'Invoices generated: 1');
    const memoId = credited.body.logs[0].recordId;
    const memo = await ok('GET', `/api/v1/models/c_invoice/${memoId}?$expand=C_InvoiceLine`);
    assert.equal(idOf(memo.C_DocTypeTarget_ID), AR_CREDIT_MEMO);
    assert.deepEqual(memo.C_InvoiceLine.map((l: any) => [idOf(l.M_Product_ID), l.QtyEntered, l.QtyInvoiced, idOf(l.C_OrderLine_ID)]), [[128, 2, 2, line!.id]]);
    assert.ok(memo.GrandTotal > 0, 'a credit memo of a positive amount');
    const done = await ok('PUT', `/api/v1/models/c_invoice/${memoId}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.deepEqual((await stock.orderLines(so.id)).map((l) => l.QtyInvoiced), [3], 'the credit memo takes back what was invoiced');
    const facts = await stock.facts('c_invoice', memoId);
    assert.equal(facts.dr, facts.cr);
    const receivable = facts.rows.find((f) => Number(idOf(f.Account_ID)) === 12110)!;
    assert.deepEqual([Number(receivable.AmtAcctDr), Number(receivable.AmtAcctCr)], [0, memo.GrandTotal], 'receivables are credited');
    assert.equal((await generate(ret.id)).body.summary, 'No shipments to invoice', 'the return is credited once');
  });

  it('a role without the process cannot generate the credit memo; the administrator can', async () => {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(so.id);
    await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    const ret = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, C_DocType_ID: MM_CUSTOMER_RETURN, M_InOutLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 1 }], 'doc-action': 'CO' });
    const { ws } = await demoRoleTokens(server);
    const refused = await generate(ret.id, ws);
    assert.ok(refused.status === 403 || refused.status === 404, refused.text);
    const [retLine] = await rows('m_inoutline', `M_InOut_ID eq ${ret.id}`);
    assert.equal((await rows('c_invoiceline', `M_InOutLine_ID eq ${retLine!.id}`)).length, 0);
    const credited = await generate(ret.id);
    assert.equal(credited.status, 200, credited.text);
    const memo = await ok('GET', `/api/v1/models/c_invoice/${credited.body.logs[0].recordId}`);
    assert.equal(idOf(memo.C_DocTypeTarget_ID), AR_CREDIT_MEMO);
  });
});
