import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { processCalls } from './process-calls.js';
import { documentCalls, idOf, q, today } from '../documents/document-helpers.js';
import { ACCOUNT, booksHelpers, round2 } from '../documents/books-helpers.js';
import type { ModelEvent } from '../../../src/events/model-events.js';

const PATIO = 121;
const SEED_FARM = 120;
const AP_INVOICE = 123;
const TERM = { immediate: 105, net30: 100, twoTenNet30: 106, fiftyFifty: 108 } as const;
const HQ_CHECKING = 100;

describe('payment selections: due vendor invoices paid in a run', () => {
  const f = serverWithDemoRoles();
  const at = () => ({ server: f.server, token: f.admin });
  const { call, ok } = documentCalls(at);
  const books = booksHelpers(at);
  const vendorInvoice = (partner: number, term: number, price: number, date = today()) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: AP_INVOICE,
      IsSOTrx: false,
      C_PaymentTerm_ID: term,
      PaymentRule: 'P',
      DateInvoiced: date,
      DateAcct: date,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, PriceEntered: price, PriceActual: price, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  const { run, runOk } = processCalls(() => ({ server: f.server, token: f.admin }));
  const selection = () => ok('POST', '/api/v1/models/c_payselection', { Name: `Run ${Date.now()}`, C_BankAccount_ID: HQ_CHECKING, PayDate: today(), TotalAmt: 0 });
  const linesOf = async (id: number) =>
    (await ok('GET', `/api/v1/models/c_payselectionline?$filter=${q(`C_PaySelection_ID eq ${id}`)}&$orderby=Line`)).records as Record<string, any>[];
  const record = (id: number) => ({ 'record-id': id, 'model-name': 'c_payselection' });

  it('selects the due invoices and those with a discount in time, prepares one payment per partner and pays them: open amounts go to zero, the ledger balances with the open items', async () => {
    const due = await vendorInvoice(PATIO, TERM.immediate, 40);
    const discount = await vendorInvoice(PATIO, TERM.twoTenNet30, 50);
    const notDue = await vendorInvoice(PATIO, TERM.net30, 60);
    const halves = await vendorInvoice(PATIO, TERM.fiftyFifty, 35.55);
    const other = await vendorInvoice(SEED_FARM, TERM.immediate, 20);
    const sel = await selection();

    const created = await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: PATIO, OnlyDue: true, OnlyDiscount: true });
    assert.match(created.summary, /#3/);
    let lines = await linesOf(sel.id);
    const byInvoice = new Map(lines.map((l) => [Number(idOf(l.C_Invoice_ID)), l]));
    assert.ok(!byInvoice.has(notDue.id), 'an invoice neither due nor with a discount in time is not selected');
    const dueLine = byInvoice.get(due.id)!;
    assert.deepEqual([Number(dueLine.OpenAmt), Number(dueLine.DiscountAmt), Number(dueLine.PayAmt)], [Number(due.GrandTotal), 0, Number(due.GrandTotal)]);
    const discountLine = byInvoice.get(discount.id)!;
    const expectedDiscount = round2(Number(discount.GrandTotal) * 0.02);
    assert.deepEqual([Number(discountLine.OpenAmt), Number(discountLine.DiscountAmt), Number(discountLine.PayAmt)], [Number(discount.GrandTotal), expectedDiscount, round2(Number(discount.GrandTotal) - expectedDiscount)]);
    const halfLine = byInvoice.get(halves.id)!;
    const firstHalf = round2(Number(halves.GrandTotal) / 2 + 0.0001);
    assert.equal(Number(halfLine.OpenAmt), firstHalf, 'only the installment due today');

    // A second run adds another partner's due invoice and nothing twice.
    await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: SEED_FARM });
    await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: PATIO, OnlyDue: true, OnlyDiscount: true });
    lines = await linesOf(sel.id);
    assert.equal(lines.length, 4);
    const total = round2(lines.reduce((n, l) => n + Number(l.PayAmt), 0));
    assert.equal(Number((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).TotalAmt), total);

    const prepared = await runOk('c_payselection_createpayment', { ...record(sel.id), PaymentRule: 'S' });
    assert.match(prepared.summary, /#2/);
    const checks = (await ok('GET', `/api/v1/models/c_payselectioncheck?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}&$orderby=C_PaySelectionCheck_ID`)).records as Record<string, any>[];
    assert.deepEqual(checks.map((k) => [Number(idOf(k.C_BPartner_ID)), k.Qty, idOf(k.PaymentRule)]), [[PATIO, 3, 'S'], [SEED_FARM, 1, 'S']]);
    assert.equal((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).Processed, true);

    const paid = await runOk('c_payselection_payment', record(sel.id));
    assert.match(paid.summary, /#2/);
    const after = (await ok('GET', `/api/v1/models/c_payselectioncheck?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}&$orderby=C_PaySelectionCheck_ID`)).records as Record<string, any>[];
    for (const k of after) {
      assert.equal(k.IsPrinted, true);
      const payment = await books.payment(Number(idOf(k.C_Payment_ID)));
      assert.equal(idOf(payment.DocStatus), 'CO');
      assert.equal(Number(payment.PayAmt), Number(k.PayAmt));
      assert.equal(payment.IsAllocated, true, 'the payment is allocated to its invoices');
      assert.equal(idOf(payment.TenderType), 'K');
      assert.equal(Number(idOf(payment.C_BankAccount_ID)), HQ_CHECKING);
      await books.byAccount('c_payment', payment.id);
    }
    for (const inv of [due, discount, other]) assert.equal((await books.invoice(inv.id)).IsPaid, true, `invoice ${inv.DocumentNo} is paid`);
    assert.equal((await books.invoice(halves.id)).IsPaid, false, 'the second installment is still open');
    const open = await books.openItems(PATIO, false);
    assert.equal(open[due.DocumentNo], undefined, 'nothing open of the paid invoice');
    assert.equal(open[discount.DocumentNo], undefined, 'the discount settles the rest');
    assert.equal(open[halves.DocumentNo], round2(Number(halves.GrandTotal) - firstHalf));
    assert.equal(open[notDue.DocumentNo], Number(notDue.GrandTotal));
    // Payables = subledger: the partner's liability is what its invoices still owe; payment selection is cleared.
    const owed = round2(Object.values(open).reduce((n, v) => n + v, 0));
    assert.equal(await books.ledger(PATIO, ACCOUNT.liability), -owed);
    assert.equal(await books.ledger(PATIO, ACCOUNT.paymentSelection), 0);
    assert.equal(await books.ledger(SEED_FARM, ACCOUNT.paymentSelection), 0);
    // The allocation of the several invoices of one payment carries the discount.
    const patioPayment = Number(idOf(after[0]!.C_Payment_ID));
    const allocs = (await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Payment_ID eq ${patioPayment}`)}`)).records as Record<string, any>[];
    assert.equal(allocs.length, 3);
    assert.equal(round2(allocs.reduce((n, l) => n + Number(l.DiscountAmt), 0)), -expectedDiscount);
    const allocation = await books.byAccount('c_allocationhdr', Number(idOf(allocs[0]!.C_AllocationHdr_ID)), [PATIO]);
    assert.equal(allocation[ACCOUNT.discountRevenue], -expectedDiscount, 'the discount is payment discount revenue');
    assert.equal(allocation[ACCOUNT.paymentSelection], -Number(after[0]!.PayAmt), 'payment selection is cleared by what was paid');

    // Invoices paid by a selection whose payment stands are not selected again (as the original: the 50/50 one neither).
    const next = await selection();
    await runOk('c_payselection_createfrom', { ...record(next.id), C_BPartner_ID: PATIO, OnlyDue: false });
    const again = (await linesOf(next.id)).map((l) => Number(idOf(l.C_Invoice_ID)));
    assert.deepEqual(again, [notDue.id], 'only the invoice no run has paid yet');
    // Once its payment is reversed, an invoice can be selected again.
    await ok('PUT', `/api/v1/models/c_payment/${Number(idOf(after[1]!.C_Payment_ID))}`, { 'doc-action': 'RC' });
    assert.equal((await books.invoice(other.id)).IsPaid, false);
    await runOk('c_payselection_createfrom', { ...record(next.id), C_BPartner_ID: SEED_FARM });
    assert.ok((await linesOf(next.id)).some((l) => Number(idOf(l.C_Invoice_ID)) === other.id));
  });

  it('refuses to prepare an empty selection, to pay before preparing and to change a processed one; nothing is written', async () => {
    const sel = await selection();
    const empty = await run('c_payselection_createpayment', record(sel.id));
    assert.ok(empty.status === 400 || empty.body.isError === true, empty.text);
    assert.match(empty.text, /no lines/);
    const early = await run('c_payselection_payment', record(sel.id));
    assert.ok(early.status === 400 || early.body.isError === true, early.text);
    assert.match(early.text, /not prepared/);
    await vendorInvoice(PATIO, TERM.immediate, 11);
    await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: PATIO });
    await runOk('c_payselection_createpayment', { ...record(sel.id), PaymentRule: 'S' });
    // Reverse Prepare Payment opens the selection again until its payments are made.
    const reversed = await runOk('c_payselection_reversepreparepayment', record(sel.id));
    assert.match(reversed.summary, /#1/);
    assert.equal((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).Processed, false);
    assert.ok((await linesOf(sel.id)).every((l) => l.Processed === false && !l.C_PaySelectionCheck_ID));
    await runOk('c_payselection_createpayment', { ...record(sel.id), PaymentRule: 'S' });
    const lines = await linesOf(sel.id);
    const again = await run('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: PATIO });
    assert.ok(again.status === 400 || again.body.isError === true, again.text);
    assert.match(again.text, /processed/);
    const change = await call('PUT', `/api/v1/models/c_payselectionline/${lines[0]!.id}`, { PayAmt: 1 });
    assert.equal(change.status, 400, change.text);
    assert.equal(Number((await ok('GET', `/api/v1/models/c_payselectionline/${lines[0]!.id}`)).PayAmt), Number(lines[0]!.PayAmt));
    await runOk('c_payselection_payment', record(sel.id));
    const late = await run('c_payselection_reversepreparepayment', record(sel.id));
    assert.equal(late.body.isError, true, late.text);
    assert.match(late.text, /made already/);
    assert.equal((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).Processed, true);
    const wrong = await run('c_payselection_createfrom', { 'record-id': 100, 'model-name': 'c_bankaccount' });
    assert.ok(wrong.status === 400 || wrong.body.isError === true, wrong.text);
    assert.match(wrong.text, /payment selection/);
  });

  it('a role without access to the processes cannot run them, and the System client cannot reach the selection', async () => {
    const sel = await selection();
    for (const token of [f.ws, f.user]) {
      for (const slug of ['c_payselection_createfrom', 'c_payselection_createpayment', 'c_payselection_payment', 'c_payselection_reversepreparepayment']) {
        const denied = await run(slug, record(sel.id), token);
        assert.equal(denied.status, 403, `${slug}: ${denied.text}`);
      }
    }
    assert.equal((await linesOf(sel.id)).length, 0);
  });

  it('the second discount of a term applies after the first one has passed, while its own days last', async () => {
    const term = await ok('POST', '/api/v1/models/c_paymentterm', {
      Value: `D${Date.now()}`, Name: '3% 5 days, 1% 20 days, net 60', NetDays: 60, Discount: 3, DiscountDays: 5, Discount2: 1, DiscountDays2: 20, GraceDays: 0, PaymentTermUsage: 'B',
    });
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const fresh = await vendorInvoice(SEED_FARM, term.id, 70);
    const older = await vendorInvoice(SEED_FARM, term.id, 80, tenDaysAgo);
    const tooOld = await vendorInvoice(SEED_FARM, term.id, 90, new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10));
    const sel = await selection();
    await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: SEED_FARM, OnlyDue: false, OnlyDiscount: true });
    const lines = new Map((await linesOf(sel.id)).map((l) => [Number(idOf(l.C_Invoice_ID)), l]));
    assert.equal(Number(lines.get(fresh.id)!.DiscountAmt), round2(Number(fresh.GrandTotal) * 0.03));
    assert.equal(Number(lines.get(older.id)!.DiscountAmt), round2(Number(older.GrandTotal) * 0.01));
    assert.ok(!lines.has(tooOld.id), 'no discount left: not selected with OnlyDiscount');
  });

  it('a selection made with only its bank account gets a name and today as pay date; direct debit collects due customer invoices as receipts', async () => {
    const minimal = await call('POST', '/api/v1/models/c_payselection', { C_BankAccount_ID: HQ_CHECKING });
    assert.equal(minimal.status, 201, minimal.text);
    assert.ok(minimal.body.Name && String(minimal.body.PayDate).slice(0, 10) === today() && Number(minimal.body.TotalAmt) === 0, minimal.text);
    const customer = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 117, C_DocTypeTarget_ID: 116, IsSOTrx: true, C_PaymentTerm_ID: TERM.immediate, PaymentRule: 'D',
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 45, PriceActual: 45, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
    const sel = await selection();
    await runOk('c_payselection_createfrom', { ...record(sel.id), PaymentRule: 'D', C_BPartner_ID: 117 });
    const lines = await linesOf(sel.id);
    assert.deepEqual(lines.map((l) => [Number(idOf(l.C_Invoice_ID)), l.IsSOTrx, Number(l.PayAmt)]), [[customer.id, true, Number(customer.GrandTotal)]]);
    await runOk('c_payselection_createpayment', record(sel.id));
    await runOk('c_payselection_payment', record(sel.id));
    const [check] = (await ok('GET', `/api/v1/models/c_payselectioncheck?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}`)).records as Record<string, any>[];
    const receipt = await books.payment(Number(idOf(check!.C_Payment_ID)));
    assert.equal(receipt.IsReceipt, true);
    assert.equal(idOf(receipt.TenderType), 'D');
    assert.equal((await books.invoice(customer.id)).IsPaid, true);
    await books.byAccount('c_payment', receipt.id, [117]);
  });

  it('the payments of a run complete through the document engine: subscribers see their complete (DACO) as for any payment', async () => {
    const seen: [string, number, unknown][] = [];
    for (const table of ['c_payment', 'c_allocationhdr']) {
      f.server.services.events.on('after-complete', table, (e: ModelEvent) => {
        seen.push([table, Number(e.row[`${table}_id`]), e.row.docstatus]);
      });
    }
    const wood = 50000;
    const a = await vendorInvoice(wood, TERM.immediate, 12);
    const b = await vendorInvoice(wood, TERM.immediate, 13);
    const sel = await selection();
    await runOk('c_payselection_createfrom', { ...record(sel.id), C_BPartner_ID: wood });
    await runOk('c_payselection_createpayment', { ...record(sel.id), PaymentRule: 'T' });
    await runOk('c_payselection_payment', record(sel.id));
    const [check] = (await ok('GET', `/api/v1/models/c_payselectioncheck?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}`)).records as Record<string, any>[];
    const paymentId = Number(idOf(check!.C_Payment_ID));
    assert.deepEqual(seen.filter(([t]) => t === 'c_payment'), [['c_payment', paymentId, 'CO']]);
    assert.equal(seen.filter(([t]) => t === 'c_allocationhdr').length, 1, 'one allocation of the two invoices');
    assert.equal(idOf((await books.payment(paymentId)).TenderType), 'A', 'direct deposit');
    for (const inv of [a, b]) assert.equal((await books.invoice(inv.id)).IsPaid, true);
  });

  it('a line added by hand keeps its difference and the total of its selection', async () => {
    const inv = await vendorInvoice(PATIO, TERM.net30, 21);
    const sel = await selection();
    const line = await ok('POST', '/api/v1/models/c_payselectionline', {
      C_PaySelection_ID: sel.id, Line: 10, C_Invoice_ID: inv.id, IsManual: true, IsSOTrx: false, PaymentRule: 'S',
      OpenAmt: Number(inv.GrandTotal), PayAmt: 10, DiscountAmt: 0, WriteOffAmt: 0, DifferenceAmt: 0,
    });
    assert.equal(Number(line.DifferenceAmt), round2(Number(inv.GrandTotal) - 10));
    assert.equal(Number((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).TotalAmt), 10);
    await ok('PUT', `/api/v1/models/c_payselectionline/${line.id}`, { PayAmt: 15 });
    assert.equal(Number((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).TotalAmt), 15);
    await ok('DELETE', `/api/v1/models/c_payselectionline/${line.id}`);
    assert.equal(Number((await ok('GET', `/api/v1/models/c_payselection/${sel.id}`)).TotalAmt), 0);
  });
});
