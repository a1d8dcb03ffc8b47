import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q } from './document-helpers.js';
import { ACCOUNT, booksHelpers, round2 } from './books-helpers.js';

/**
 * Allocations as the original books them: lines that net out, the original's signs (customer
 * invoices and receipts positive, vendor invoices, customer credit memos and payments negative),
 * every fact naming its partner, and a partner's open items equal to its ledger balances.
 */
describe('allocations: netting, signs and partners', () => {
  const fx = serverWithDemoRoles();
  const books = booksHelpers(() => ({ server: fx.server, token: fx.admin }));
  const { ok, byAccount, ledger, openItems } = books;
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });

  /** A completed invoice of 4 × product 128 at `price` (no tax): ARI, ARC, API or APC. */
  const invoice = (kind: 'ARI' | 'ARC' | 'API' | 'APC', partner: number, price = 25) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: { ARI: 116, ARC: 118, API: 123, APC: 124 }[kind],
      IsSOTrx: kind.startsWith('AR'),
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: price, PriceActual: price, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  const pay = (partner: number, receipt: boolean, amount: number, more: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: partner, IsReceipt: receipt, PayAmt: amount, ...more, 'doc-action': 'CO' });
  const allocate = (lines: Record<string, unknown>[], token = fx.admin) => call('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: lines, 'doc-action': 'CO' }, token);
  const allocated = async (lines: Record<string, unknown>[]) => {
    const r = await allocate(lines);
    assert.equal(r.status, 201, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    return r.body;
  };
  const linesOf = async (invoiceId: number) => (await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${invoiceId}`)}`)).records as Record<string, any>[];

  it('refuses an allocation whose lines do not net out, and changes nothing', async () => {
    const partner = 50004;
    const inv = await invoice('ARI', partner);
    const before = await ledger(partner, ACCOUNT.receivable);
    assert.equal(before, 100);

    const alone = await allocate([{ C_Invoice_ID: inv.id, Amount: 10 }]);
    assert.equal(alone.status, 400, alone.text);
    assert.equal(alone.body.title, 'Failed Processing Document');
    assert.match(alone.body.detail, /action CO refused: the lines do not net out: the lines naming a payment pay 0 and the lines naming an invoice settle 10/);
    assert.deepEqual(await linesOf(inv.id), [], 'the request rolled back: no allocation');
    assert.equal((await books.invoice(inv.id)).IsPaid, false);
    assert.deepEqual(await openItems(partner, true), { [inv.DocumentNo]: 100 }, 'the invoice is open for its whole amount');
    assert.equal(await ledger(partner, ACCOUNT.receivable), 100, 'subledger and ledger agree');

    // Saved first, then completed: refused, still drafted, no facts.
    const draft = await ok('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: inv.id, Amount: 10 }] });
    const refused = await call('PUT', `/api/v1/models/c_allocationhdr/${draft.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /status DR: action CO refused: the lines do not net out/);
    const still = await ok('GET', `/api/v1/models/c_allocationhdr/${draft.id}`);
    assert.equal(idOf(still.DocStatus), 'DR');
    assert.equal((await books.factsOf('c_allocationhdr', draft.id)).length, 0);

    // A receipt against nothing does not net out either; the least privileged role is refused alike.
    const receipt = await pay(partner, true, 10);
    const lonely = await allocate([{ C_Payment_ID: receipt.id, Amount: 10 }], fx.user);
    assert.equal(lonely.status, 400, lonely.text);
    assert.match(lonely.body.detail, /the lines naming a payment pay 10 and the lines naming an invoice settle 0/);
    assert.equal((await books.payment(receipt.id)).IsAllocated, false);

    // The same invoice and receipt in lines that net out complete.
    await allocated([{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 10 }]);
    assert.deepEqual(await openItems(partner, true), { [inv.DocumentNo]: 90 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 90);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
  });

  it('sets a credit memo off against an invoice with the original signs (invoice +, credit memo −)', async () => {
    const partner = 50005;
    const inv = await invoice('ARI', partner);
    const memo = await invoice('ARC', partner, 10);
    assert.equal(memo.GrandTotal, 40);
    const alloc = await allocated([
      { C_Invoice_ID: inv.id, Amount: 40 },
      { C_Invoice_ID: memo.id, Amount: -40 },
    ]);
    assert.equal((await books.invoice(memo.id)).IsPaid, true, 'the credit memo is used up');
    assert.equal((await books.invoice(inv.id)).IsPaid, false);
    assert.deepEqual(await openItems(partner, true), { [inv.DocumentNo]: 60 }, 'the credit memo is no longer open');
    const facts = await books.factsOf('c_allocationhdr', alloc.id);
    assert.deepEqual(
      facts.map((f) => [Number(idOf(f.Account_ID)), Number(f.AmtAcctCr), Number(idOf(f.C_BPartner_ID))]).sort((a, b) => a[1]! - b[1]!),
      [
        [ACCOUNT.receivable, -40, partner],
        [ACCOUNT.receivable, 40, partner],
      ],
    );
    assert.equal(await ledger(partner, ACCOUNT.receivable), 60, 'receivable = invoice 100 − credit memo 40');

    // The rest is paid by a receipt: the invoice is paid, the receipt allocated.
    const receipt = await pay(partner, true, 60);
    const rest = await allocated([{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 60 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', rest.id, [partner]), { [ACCOUNT.unallocated]: 60, [ACCOUNT.receivable]: -60 });
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    assert.equal((await books.payment(receipt.id)).IsAllocated, true);
    assert.deepEqual(await openItems(partner, true), {});
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
  });

  it('pays a vendor invoice in parts with negative amounts, and sets a vendor credit memo off against it', async () => {
    const partner = 50000;
    const inv = await invoice('API', partner);
    const memo = await invoice('APC', partner, 5);
    const first = await pay(partner, false, 30);
    const a1 = await allocated([{ C_Invoice_ID: inv.id, C_Payment_ID: first.id, Amount: -30 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', a1.id, [partner]), { [ACCOUNT.liability]: 30, [ACCOUNT.paymentSelection]: -30 });
    assert.equal((await books.payment(first.id)).IsAllocated, true);
    assert.deepEqual(await openItems(partner, false), { [inv.DocumentNo]: 70, [memo.DocumentNo]: 20 });
    assert.equal(await ledger(partner, ACCOUNT.liability), -50, 'payable = 100 − 30 paid − 20 credit memo');

    const a2 = await allocated([
      { C_Invoice_ID: inv.id, Amount: -20 },
      { C_Invoice_ID: memo.id, Amount: 20 },
    ]);
    assert.deepEqual(await byAccount('c_allocationhdr', a2.id, [partner]), {}, 'the liability nets out');
    assert.equal((await books.invoice(memo.id)).IsPaid, true);
    const second = await pay(partner, false, 50);
    await allocated([{ C_Invoice_ID: inv.id, C_Payment_ID: second.id, Amount: -50 }]);
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    assert.equal((await books.payment(second.id)).IsAllocated, true);
    assert.deepEqual(await openItems(partner, false), {});
    assert.equal(await ledger(partner, ACCOUNT.liability), 0);
    assert.equal(await ledger(partner, ACCOUNT.paymentSelection), 0);
  });

  it('allocates a receipt against a refund payment (payment +, payment −)', async () => {
    const partner = 50006;
    const receipt = await pay(partner, true, 50);
    const refund = await pay(partner, false, 50);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -50);
    const alloc = await allocated([
      { C_Payment_ID: receipt.id, Amount: 50 },
      { C_Payment_ID: refund.id, Amount: -50 },
    ]);
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id, [partner]), { [ACCOUNT.unallocated]: 50, [ACCOUNT.paymentSelection]: -50 });
    assert.equal((await books.payment(receipt.id)).IsAllocated, true);
    assert.equal((await books.payment(refund.id)).IsAllocated, true);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
    assert.equal(await ledger(partner, ACCOUNT.paymentSelection), 0);
  });

  it('a payment naming an invoice: an overpayment stays unallocated; a credit memo is refunded by a payment', async () => {
    const partner = 50007;
    const inv = await invoice('ARI', partner);
    const over = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, PayAmt: 113, OverUnderAmt: -13, 'doc-action': 'CO' });
    assert.equal(idOf(over.DocStatus), 'CO');
    assert.equal(over.IsAllocated, false, '13 of it are not allocated');
    assert.deepEqual(
      (await linesOf(inv.id)).map((l) => [l.Amount, l.OverUnderAmt]),
      [[100, -13]],
    );
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -13, 'the unallocated 13 stay in unallocated receipts');

    const memo = await invoice('ARC', partner, 5);
    const refund = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: memo.id, 'doc-action': 'CO' });
    assert.equal(refund.IsReceipt, false, 'a credit memo is refunded by a payment');
    assert.equal(refund.PayAmt, 20);
    assert.equal(refund.IsAllocated, true);
    const [line] = await linesOf(memo.id);
    assert.equal(line!.Amount, -20, 'the payment and the credit memo are negative');
    assert.deepEqual(await byAccount('c_allocationhdr', Number(idOf(line!.C_AllocationHdr_ID)), [partner]), { [ACCOUNT.paymentSelection]: -20, [ACCOUNT.receivable]: 20 });
    assert.equal((await books.invoice(memo.id)).IsPaid, true);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.paymentSelection), 0);
  });

  it("refuses lines the original refuses: a paid invoice paid again, a document accounted after the allocation, a draft invoice", async () => {
    const partner = 50009;
    const inv = await invoice('ARI', partner);
    const receipt = await pay(partner, true, 100);
    await allocated([{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 100 }]);
    const other = await pay(partner, true, 100);
    const again = await allocate([{ C_Invoice_ID: inv.id, C_Payment_ID: other.id, Amount: 100 }]);
    assert.equal(again.status, 400, again.text);
    assert.match(again.body.detail, new RegExp(`action CO refused: invoice ${inv.DocumentNo} is already paid`));

    const next = await invoice('ARI', partner);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const early = await call('POST', '/api/v1/models/c_allocationhdr', { DateTrx: yesterday, DateAcct: yesterday, C_AllocationLine: [{ C_Invoice_ID: next.id, C_Payment_ID: other.id, Amount: 100 }], 'doc-action': 'CO' });
    assert.equal(early.status, 400, early.text);
    assert.match(early.body.detail, new RegExp(`wrong allocation date: invoice ${next.DocumentNo} is accounted on \\d{4}-\\d{2}-\\d{2}, after the allocation`));

    const draft = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: partner, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 104 }] });
    const notDone = await allocate([{ C_Invoice_ID: draft.id, C_Payment_ID: other.id, Amount: 10 }]);
    assert.equal(notDone.status, 400, notDone.text);
    assert.match(notDone.body.detail, new RegExp(`invoice ${draft.DocumentNo} is not completed`));
    assert.equal((await books.payment(other.id)).IsAllocated, false, 'nothing was allocated');
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -100);
  });

  it("every fact of invoices, payments, shipments and allocations names the partner; a partner's open items equal its ledger", async () => {
    const partner = 50008;
    const a = await invoice('ARI', partner);
    const b = await invoice('ARI', partner, 30);
    const memo = await invoice('ARC', partner, 2);
    const receipt = await pay(partner, true, 150);
    await allocated([
      { C_Invoice_ID: a.id, C_Payment_ID: receipt.id, Amount: 90, DiscountAmt: 4, WriteOffAmt: 1 },
      { C_Invoice_ID: b.id, C_Payment_ID: receipt.id, Amount: 50 },
      { C_Invoice_ID: b.id, Amount: 8 },
      { C_Invoice_ID: memo.id, Amount: -8 },
    ]);
    for (const [table, id] of [['c_invoice', a.id], ['c_invoice', memo.id], ['c_payment', receipt.id]] as const) await byAccount(table, id, [partner]);
    const shipment = await ok('POST', '/api/v1/models/m_inout', { C_BPartner_ID: partner, C_DocType_ID: 120, MovementType: 'C-', M_InOutLine: [{ M_Product_ID: 128, QtyEntered: 1, MovementQty: 1 }], 'doc-action': 'CO' });
    await byAccount('m_inout', shipment.id, [partner]);

    const open = await openItems(partner, true);
    assert.deepEqual(open, { [a.DocumentNo]: 5, [b.DocumentNo]: 62 }, 'a: 100 − 95 settled; b: 120 − 58');
    assert.equal(await ledger(partner, ACCOUNT.receivable), round2(open[a.DocumentNo]! + open[b.DocumentNo]!), 'receivables = open invoices − open credit memos');
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -10, 'the receipt keeps 10 unallocated');
    assert.equal((await books.payment(receipt.id)).IsAllocated, false);
    assert.equal(await ledger(partner, ACCOUNT.discountExpense), 4);
    assert.equal(await ledger(partner, ACCOUNT.writeOff), 1);
  });
});
