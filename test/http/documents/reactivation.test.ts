import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

describe('re-activation per document type', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  /** RE answers 400 naming status, action and reason, and the document stays as it was. */
  const refused = async (table: string, id: number, reason: RegExp) => {
    const before = await ok('GET', `/api/v1/models/${table}/${id}`);
    const r = await call('PUT', `/api/v1/models/${table}/${id}`, { 'doc-action': 'RE' });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.title, 'Failed Processing Document');
    assert.match(r.body.detail, new RegExp(`in status ${idOf(before.DocStatus)}: action RE refused: ${reason.source}`));
    const after = await ok('GET', `/api/v1/models/${table}/${id}`);
    assert.deepEqual([idOf(after.DocStatus), after.Processed, after.Updated], [idOf(before.DocStatus), before.Processed, before.Updated]);
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('orders re-activate only when their document type allows it', async () => {
    const standard = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    const re = await ok('PUT', `/api/v1/models/c_order/${standard.id}`, { 'doc-action': 'RE' });
    assert.deepEqual([idOf(re.DocStatus), idOf(re.DocAction), re.Processed], ['IP', 'CO', false]);
    const credit = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 133, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    await refused('c_order', credit.id, /the document type On Credit Order does not allow reactivation/);
  });

  it('shipments, invoices and allocations refuse re-activation', async () => {
    const order = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(order.id);
    const ship = await ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    await refused('m_inout', ship.id, /M_InOut documents cannot be re-activated; void or reverse the document instead/);
    const inv = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: order.id, C_InvoiceLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    await refused('c_invoice', inv.id, /C_Invoice documents cannot be re-activated/);
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, PayAmt: inv.GrandTotal, 'doc-action': 'CO' });
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: inv.id, C_Payment_ID: pay.id, Amount: inv.GrandTotal }], 'doc-action': 'CO' });
    await refused('c_allocationhdr', alloc.id, /C_AllocationHdr documents cannot be re-activated/);
    const drafted = await ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: order.id, C_InvoiceLine: [{ C_OrderLine_ID: line!.id, QtyEntered: 1 }] });
    await refused('c_invoice', drafted.id, /not allowed in status DR/);
  });

  it('a payment re-activates by a reverse-correct: a reversal payment, the invoice open again, the payment In Progress and completable again', async () => {
    const inv = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 104 }], 'doc-action': 'CO' });
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, 'doc-action': 'CO' });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
    const re = await ok('PUT', `/api/v1/models/c_payment/${pay.id}`, { 'doc-action': 'RE' });
    assert.deepEqual([idOf(re.DocStatus), idOf(re.DocAction), re.Processed], ['IP', 'CO', false]);
    const reversal = await ok('GET', `/api/v1/models/c_payment/${idOf(re.Reversal_ID)}`);
    assert.equal(idOf(reversal.DocStatus), 'RE');
    assert.equal(reversal.PayAmt, -Number(pay.PayAmt));
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, false, 'the allocation was reversed');
    const again = await ok('PUT', `/api/v1/models/c_payment/${pay.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(again.DocStatus), 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true, 'allocated again');
    const facts = await stock.facts('c_payment', pay.id);
    assert.equal(facts.dr, facts.cr);
  });
});
