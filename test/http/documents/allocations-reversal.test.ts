import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, today } from './document-helpers.js';
import { ACCOUNT, booksHelpers } from './books-helpers.js';

/**
 * Reversing a paid invoice reverses its allocations with it, as the original's
 * MInvoice.reverseCorrectIt does: the payment is unallocated again, the invoice is settled with
 * its reversal by an allocation that posts nothing, and the partner's books agree.
 */
describe('reversing a paid invoice', () => {
  const fx = serverWithDemoRoles();
  const books = booksHelpers(() => ({ server: fx.server, token: fx.admin }));
  const { ok, ledger, openItems } = books;
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });

  const invoice = (sales: boolean, partner: number, more: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: sales ? 116 : 123,
      IsSOTrx: sales,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: 25, PriceActual: 25, C_Tax_ID: 104 }],
      ...more,
      'doc-action': 'CO',
    });
  const allocationsOf = async (invoiceId: number) => {
    const lines = (await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${invoiceId}`)}&$orderby=C_AllocationLine_ID`)).records as Record<string, any>[];
    const ids = [...new Set(lines.map((l) => Number(idOf(l.C_AllocationHdr_ID))))];
    return Promise.all(ids.map(async (id) => ({ header: await ok('GET', `/api/v1/models/c_allocationhdr/${id}?$expand=C_AllocationLine`), id })));
  };

  /** A customer invoice paid by a payment that names it (allocated at completion). */
  const paidInvoice = async (partner: number, org = 11) => {
    const inv = await invoice(true, partner, { AD_Org_ID: org });
    const payment = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, 'doc-action': 'CO' });
    assert.equal(payment.IsAllocated, true);
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    const [allocation] = await allocationsOf(inv.id);
    assert.equal(idOf(allocation!.header.DocStatus), 'CO');
    return { inv, payment, allocation: allocation! };
  };

  /** After the reversal: the payment's allocation reversed, the payment free, the invoice settled by its reversal, the books at zero. */
  const checkReversed = async (partner: number, inv: Record<string, any>, payment: Record<string, any>, allocationId: number, reversed: Record<string, any>, status = 'RE') => {
    assert.equal(idOf(reversed.DocStatus), status);
    const reversal = await books.invoice(Number(idOf(reversed.Reversal_ID)));
    assert.equal(reversal.GrandTotal, -100);
    const original = await ok('GET', `/api/v1/models/c_allocationhdr/${allocationId}`);
    assert.equal(idOf(original.DocStatus), 'RE', 'the allocation is reversed with the invoice');
    const allocationReversal = await ok('GET', `/api/v1/models/c_allocationhdr/${idOf(original.Reversal_ID)}?$expand=C_AllocationLine`);
    assert.deepEqual(allocationReversal.C_AllocationLine.map((l: any) => [idOf(l.C_Invoice_ID), idOf(l.C_Payment_ID) ?? null, l.Amount]), [[inv.id, payment.id, -100]]);
    const freed = await books.payment(payment.id);
    assert.equal(freed.IsAllocated, false, 'the payment is unallocated again');
    assert.equal(idOf(freed.DocStatus), 'CO');
    const now = await books.invoice(inv.id);
    assert.equal(now.IsPaid, true);
    assert.equal(idOf(now.C_Payment_ID) ?? null, null, 'the invoice no longer names the payment');

    // The original settles the invoice with its reversal by an allocation of both that posts nothing.
    const pair = (await allocationsOf(inv.id)).find((a) => a.header.C_AllocationLine.some((l: any) => idOf(l.C_Invoice_ID) === reversal.id))!;
    assert.ok(pair, 'an allocation of the invoice with its reversal');
    assert.equal(idOf(pair.header.DocStatus), 'CO');
    assert.deepEqual(pair.header.C_AllocationLine.map((l: any) => [idOf(l.C_Invoice_ID), idOf(l.C_Payment_ID) ?? null, l.Amount]), [
      [inv.id, null, 100],
      [reversal.id, null, -100],
    ]);
    assert.equal((await books.factsOf('c_allocationhdr', pair.id)).length, 0);

    assert.deepEqual(await openItems(partner, true), {});
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0, 'the invoice and its reversal, the allocation and its reversal cancel out');
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -100, 'the payment is back in unallocated receipts');
  };

  it('reverse-correct: the allocation is reversed and the payment is free to pay another invoice', async () => {
    const partner = 50004;
    const { inv, payment, allocation } = await paidInvoice(partner);
    const rc = await ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    await checkReversed(partner, inv, payment, allocation.id, rc);
    const allocationReversal = await ok('GET', `/api/v1/models/c_allocationhdr/${idOf(allocation.header.Reversal_ID ?? (await ok('GET', `/api/v1/models/c_allocationhdr/${allocation.id}`)).Reversal_ID)}`);
    assert.equal(String(allocationReversal.DateAcct).slice(0, 10), String(allocation.header.DateAcct).slice(0, 10), 'a correction keeps the date');

    const next = await invoice(true, partner);
    const again = await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: next.id, C_Payment_ID: payment.id, Amount: 100 }], 'doc-action': 'CO' });
    assert.equal(idOf(again.DocStatus), 'CO');
    assert.equal((await books.payment(payment.id)).IsAllocated, true);
    assert.equal((await books.invoice(next.id)).IsPaid, true);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
  });

  it('void of a paid invoice and reverse-accrual reverse the allocation alike', async () => {
    const a = await paidInvoice(50005);
    const vo = await ok('PUT', `/api/v1/models/c_invoice/${a.inv.id}`, { 'doc-action': 'VO' });
    await checkReversed(50005, a.inv, a.payment, a.allocation.id, vo, 'VO');

    const b = await paidInvoice(50006);
    const ra = await ok('PUT', `/api/v1/models/c_invoice/${b.inv.id}`, { 'doc-action': 'RA' });
    await checkReversed(50006, b.inv, b.payment, b.allocation.id, ra);
    const original = await ok('GET', `/api/v1/models/c_allocationhdr/${b.allocation.id}`);
    const accrual = await ok('GET', `/api/v1/models/c_allocationhdr/${idOf(original.Reversal_ID)}`);
    assert.equal(String(accrual.DateAcct).slice(0, 10), today(), 'an accrual is dated today');
  });

  it('a paid vendor invoice reversed frees its payment; a credit memo reversed opens the invoice again', async () => {
    const partner = 50001;
    const inv = await invoice(false, partner);
    // The vendor's term (2% in 10 days) would propose a discount: this payment takes none.
    const payment = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, DiscountAmt: 0, 'doc-action': 'CO' });
    assert.equal(payment.IsReceipt, false);
    const [allocation] = await allocationsOf(inv.id);
    assert.deepEqual(allocation!.header.C_AllocationLine.map((l: any) => l.Amount), [-100], 'a vendor invoice is settled by a negative amount');
    await ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    assert.equal((await books.payment(payment.id)).IsAllocated, false);
    assert.equal(await ledger(partner, ACCOUNT.liability), 0);
    assert.equal(await ledger(partner, ACCOUNT.paymentSelection), 100, 'the payment waits in payment selection again');

    const customer = 50007;
    const sale = await invoice(true, customer);
    const memo = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: customer,
      C_DocTypeTarget_ID: 118,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 30, PriceActual: 30, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
    await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: sale.id, Amount: 30 }, { C_Invoice_ID: memo.id, Amount: -30 }], 'doc-action': 'CO' });
    assert.deepEqual(await openItems(customer, true), { [sale.DocumentNo]: 70 });
    await ok('PUT', `/api/v1/models/c_invoice/${memo.id}`, { 'doc-action': 'RC' });
    assert.deepEqual(await openItems(customer, true), { [sale.DocumentNo]: 100 }, 'the invoice is open for its whole amount again');
    assert.equal(await ledger(customer, ACCOUNT.receivable), 100);
  });

  it('a voided payment is unallocated from its invoice, which no longer names it', async () => {
    const partner = 119;
    const { inv, payment, allocation } = await paidInvoice(partner);
    assert.equal(idOf((await books.invoice(inv.id)).C_Payment_ID), payment.id);
    const vo = await ok('PUT', `/api/v1/models/c_payment/${payment.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(vo.DocStatus), 'VO');
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_allocationhdr/${allocation.id}`)).DocStatus), 'RE');
    const open = await books.invoice(inv.id);
    assert.equal(open.IsPaid, false);
    assert.equal(idOf(open.C_Payment_ID) ?? null, null);
    assert.deepEqual(await openItems(partner, true), { [inv.DocumentNo]: 100 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 100);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0, 'the payment and its reversal cancel out');
  });

  it('the least privileged role reverses a paid invoice it may write; roles that may not write it change nothing', async () => {
    const foreign = await paidInvoice(50008, 50001);
    for (const token of [fx.user, fx.ws]) {
      const denied = await call('PUT', `/api/v1/models/c_invoice/${foreign.inv.id}`, { 'doc-action': 'RC' }, token);
      assert.equal(denied.status, 403, denied.text);
    }
    assert.equal(idOf((await books.invoice(foreign.inv.id)).DocStatus), 'CO');
    assert.equal((await books.payment(foreign.payment.id)).IsAllocated, true, 'the allocation stays');
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_allocationhdr/${foreign.allocation.id}`)).DocStatus), 'CO');

    const { inv, payment } = await paidInvoice(50009);
    const byWebService = await call('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' }, fx.ws);
    assert.equal(byWebService.status, 200, byWebService.text);
    assert.equal(idOf(byWebService.body.DocStatus), 'RE');
    assert.equal((await books.payment(payment.id)).IsAllocated, false);
    assert.equal(await ledger(50009, ACCOUNT.receivable), 0);
    assert.equal(await ledger(50009, ACCOUNT.unallocated), -100);
  });
});
