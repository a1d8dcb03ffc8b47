import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const DISCOUNT_EXPENSE = 59300;
const DISCOUNT_REVENUE = 79300;
const WRITE_OFF = 67800;
const RECEIVABLE = 12110;
const UNALLOCATED = 11130;
const LIABILITY = 21100;
const PAYMENT_SELECTION = 21300;

describe('allocations with discount and write-off', () => {
  let server: TestServer;
  let token: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  /** Debit minus credit per account of a document's facts. */
  const byAccount = async (table: string, id: number) => {
    const f = await stock.facts(table, id);
    assert.equal(f.dr, f.cr, `${table} ${id} balances`);
    const out: Record<number, number> = {};
    for (const r of f.rows) out[Number(idOf(r.Account_ID))] = Math.round(((out[Number(idOf(r.Account_ID))] ?? 0) + Number(r.AmtAcctDr) - Number(r.AmtAcctCr)) * 100) / 100;
    return out;
  };
  const invoice = (side: 'AR' | 'AP') =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: side === 'AR' ? 118 : 114,
      C_DocTypeTarget_ID: side === 'AR' ? 116 : 123,
      IsSOTrx: side === 'AR',
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: 25, PriceActual: 25, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  const payment = (side: 'AR' | 'AP', amount: number) =>
    ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: side === 'AR' ? 118 : 114, IsReceipt: side === 'AR', PayAmt: amount, 'doc-action': 'CO' });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('a customer invoice settled by a payment, a discount and a write-off is paid; discount expense and write-off are posted', async () => {
    const inv = await invoice('AR');
    const total = Number(inv.GrandTotal);
    const pay = await payment('AR', total - 8);
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', {
      C_AllocationLine: [{ C_Invoice_ID: inv.id, C_Payment_ID: pay.id, Amount: total - 8, DiscountAmt: 5, WriteOffAmt: 3 }],
      'doc-action': 'CO',
    });
    assert.equal(idOf(alloc.DocStatus), 'CO');
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id), { [UNALLOCATED]: total - 8, [DISCOUNT_EXPENSE]: 5, [WRITE_OFF]: 3, [RECEIVABLE]: -total });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
    assert.equal((await ok('GET', `/api/v1/models/c_payment/${pay.id}`)).IsAllocated, true);

    const reversed = await ok('PUT', `/api/v1/models/c_allocationhdr/${alloc.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, false, 'open again');
    assert.deepEqual(await byAccount('c_allocationhdr', Number(idOf(reversed.Reversal_ID))), { [UNALLOCATED]: -(total - 8), [DISCOUNT_EXPENSE]: -5, [WRITE_OFF]: -3, [RECEIVABLE]: total });
  });

  it('a discount that leaves part of the invoice open keeps it unpaid; an over/under amount is not posted', async () => {
    const inv = await invoice('AR');
    const total = Number(inv.GrandTotal);
    const pay = await payment('AR', 50);
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', {
      C_AllocationLine: [{ C_Invoice_ID: inv.id, C_Payment_ID: pay.id, Amount: 50, DiscountAmt: 2, OverUnderAmt: total - 52 }],
      'doc-action': 'CO',
    });
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id), { [UNALLOCATED]: 50, [DISCOUNT_EXPENSE]: 2, [RECEIVABLE]: -52 });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, false);
    const rest = await payment('AR', total - 52);
    await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: inv.id, C_Payment_ID: rest.id, Amount: total - 52 }], 'doc-action': 'CO' });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
  });

  it('a vendor invoice (negative amounts, as the original): the liability against payment selection, discount revenue and write-off', async () => {
    const inv = await invoice('AP');
    const total = Number(inv.GrandTotal);
    const pay = await payment('AP', total - 4);
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', {
      C_AllocationLine: [{ C_Invoice_ID: inv.id, C_Payment_ID: pay.id, Amount: -(total - 4), DiscountAmt: -3, WriteOffAmt: -1 }],
      'doc-action': 'CO',
    });
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id), { [LIABILITY]: total, [PAYMENT_SELECTION]: -(total - 4), [DISCOUNT_REVENUE]: -3, [WRITE_OFF]: -1 });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
    assert.equal((await ok('GET', `/api/v1/models/c_payment/${pay.id}`)).IsAllocated, true);
  });

  it('an invoice written off alone is paid and posts write-off against the receivable', async () => {
    const inv = await invoice('AR');
    const total = Number(inv.GrandTotal);
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: inv.id, Amount: 0, WriteOffAmt: total }], 'doc-action': 'CO' });
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id), { [WRITE_OFF]: total, [RECEIVABLE]: -total });
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
  });

  it('a payment naming an invoice with a discount allocates the discount with it', async () => {
    const inv = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 116,
      C_PaymentTerm_ID: 106,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: 25, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
    const total = Number(inv.GrandTotal);
    // The term (2% in 10 days) allows 2 today.
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, PayAmt: total - 2, DiscountAmt: 2, 'doc-action': 'CO' });
    assert.equal(idOf(pay.DocStatus), 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);
  });
});
