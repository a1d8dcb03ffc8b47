/**
 * A month of the demo company closed through the HTTP API alone: an accrual journal, sales and
 * purchase invoices, a receipt, a payment run over the due vendor invoices, the bank statement of
 * the month's payments matched by the matcher and completed, a dunning run, the revaluation of the
 * open items in euros, then the Trial Balance and the Balance Sheet of the month (read as CSV), and
 * the books' invariants as they were before the month.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows } from '../../helpers/files.js';
import { processCalls } from './process-calls.js';
import { thisMonth } from './this-month.js';
import { bankCalls } from './bank-helpers.js';
import { idOf, q, today } from '../documents/document-helpers.js';
import { round2 } from '../documents/books-helpers.js';
import { booksViolations, type Violation } from '../../../src/documents/invariants/books-invariants.js';

const CLIENT = 11;
const BANK = 100;
const CW = 117;
const JOE = 118;
const PATIO = 121;
const EUR = 102;
const DOCTYPE = { arInvoice: 116, apInvoice: 123 } as const;
const TERM = { immediate: 105, net30: 100 } as const;
const DUNNING = 100;
const EUR_SALES_LIST = 103;
/** The demo company's report definitions (migration 140). */
const REPORT = { balanceSheet: 100, trialBalance: 1103002 } as const;
/** Accrued expense: Product Expense against Tax liability (the demo chart has no accruals account of its own). */
const EXPENSE = 51200;
const ACCRUED = 21620;

/** Violations as comparable lines: what they are about and by how much the sides differ. */
const differences = (v: Violation[]) => v.map((x) => `${x.check} ${JSON.stringify(x.subject)}: ${x.expected} / ${x.actual}`).sort();

describe('month-end close through the API', () => {
  const f = serverWithDemoRoles();
  const at = () => ({ server: f.server, token: f.admin });
  const { ok, balance } = bankCalls(at);
  const { runOk } = processCalls(at);
  const month = thisMonth();
  const record = (model: string, id: number) => ({ 'model-name': model, 'record-id': id });
  const invoice = (partner: number, sales: boolean, price: number, extra: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: sales ? DOCTYPE.arInvoice : DOCTYPE.apInvoice,
      IsSOTrx: sales,
      C_PaymentTerm_ID: TERM.immediate,
      PaymentRule: 'P',
      DateInvoiced: today(),
      DateAcct: today(),
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, PriceEntered: price, PriceActual: price, C_Tax_ID: 104 }],
      'doc-action': 'CO',
      ...extra,
    });
  /** A report's rows by their name (the CSV's first column). */
  const report = async (id: number, period: number): Promise<Map<string, number[]>> => {
    const r = await runOk('finreport', { ...record('pa_report', id), C_Period_ID: period, 'report-type': 'CSV' });
    const rows = csvRows(Buffer.from(r.reportFile ?? r.exportFile, 'base64'));
    return new Map(rows.slice(1).map((x) => [x[0]!, x.slice(1).map(Number)]));
  };

  it('closes the month: journals, invoices, payments, a payment run, the bank statement, dunning, revaluation; the trial balance and balance sheet balance and the books agree', async () => {
    const db = f.server.services.db;
    const baseline = differences(await booksViolations(db, CLIENT));
    const [period] = (await ok('GET', `/api/v1/models/c_period?$filter=${q(`StartDate le '${today()}' and EndDate ge '${today()}'`)}`)).records;
    assert.ok(period, 'the demo calendar has this month');

    // 1. The accrual: a journal of the month, completed.
    const accrual = await ok('POST', '/api/v1/models/gl_journal', {
      Description: 'Accrued expenses of the month', DateAcct: today(), 'doc-action': 'CO',
      GL_JournalLine: [{ Account_ID: EXPENSE, AmtSourceDr: 400 }, { Account_ID: ACCRUED, AmtSourceCr: 400 }],
    });
    assert.equal(idOf(accrual.DocStatus), 'CO');

    // 2. Sales and purchase invoices; a receipt pays the first sales invoice.
    const sold = await invoice(CW, true, 150);
    const overdue = await invoice(CW, true, 35, { DateInvoiced: month.first, DateAcct: month.first });
    const bills = [await invoice(PATIO, false, 60), await invoice(PATIO, false, 45.5)];
    const notDue = await invoice(PATIO, false, 70, { C_PaymentTerm_ID: TERM.net30 });
    const receipt = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: sold.id, 'doc-action': 'CO' });
    assert.equal(idOf(receipt.DocStatus), 'CO');
    assert.equal(Number(receipt.PayAmt), Number(sold.GrandTotal));

    // 3. The payment run: the due vendor invoices are selected and paid by one payment.
    const sel = await ok('POST', '/api/v1/models/c_payselection', { Name: `Month end ${month.last}`, C_BankAccount_ID: BANK, PayDate: today(), TotalAmt: 0 });
    await runOk('c_payselection_createfrom', { ...record('c_payselection', sel.id), C_BPartner_ID: PATIO, OnlyDue: true });
    const selected = (await ok('GET', `/api/v1/models/c_payselectionline?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}`)).records.map((l: Record<string, unknown>) => Number(idOf(l.C_Invoice_ID)));
    assert.deepEqual(selected.sort(), bills.map((b) => b.id).sort(), 'the due invoices, not the one due in 30 days');
    await runOk('c_payselection_createpayment', { ...record('c_payselection', sel.id), PaymentRule: 'S' });
    await runOk('c_payselection_payment', record('c_payselection', sel.id));
    const [check] = (await ok('GET', `/api/v1/models/c_payselectioncheck?$filter=${q(`C_PaySelection_ID eq ${sel.id}`)}`)).records;
    const runPayment = await ok('GET', `/api/v1/models/c_payment/${idOf(check.C_Payment_ID)}`);
    assert.equal(idOf(runPayment.DocStatus), 'CO');
    const billed = round2(bills.reduce((n, b) => n + Number(b.GrandTotal), 0));
    assert.equal(Number(runPayment.PayAmt), billed);
    for (const b of bills) assert.equal((await ok('GET', `/api/v1/models/c_invoice/${b.id}`)).IsPaid, true);
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${notDue.id}`)).IsPaid, false);

    // 4. The bank statement of the month's payments, matched by the matcher and completed.
    const start = await balance(BANK);
    const statement = await ok('POST', '/api/v1/models/c_bankstatement', {
      C_BankAccount_ID: BANK, Name: `Statement ${month.last}`,
      C_BankStatementLine: [
        { StmtAmt: Number(receipt.PayAmt), TrxAmt: Number(receipt.PayAmt), EftReference: receipt.DocumentNo },
        { StmtAmt: -billed, TrxAmt: -billed, EftReference: runPayment.DocumentNo },
      ],
    });
    const matched = await runOk('c_bankstatement_matcher', record('c_bankstatement', statement.id));
    assert.equal(matched.summary, 'Matched 2 of 2 lines');
    const lines = (await ok('GET', `/api/v1/models/c_bankstatementline?$filter=${q(`C_BankStatement_ID eq ${statement.id}`)}&$orderby=Line`)).records;
    assert.deepEqual(lines.map((l: Record<string, unknown>) => Number(idOf(l.C_Payment_ID))), [receipt.id, runPayment.id]);
    const done = await ok('PUT', `/api/v1/models/c_bankstatement/${statement.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal(await balance(BANK), round2(start + Number(receipt.PayAmt) - billed), 'the bank account follows its statement');
    for (const p of [receipt.id, runPayment.id]) assert.equal((await ok('GET', `/api/v1/models/c_payment/${p}`)).IsReconciled, true);

    // 5. The dunning run: the customer's overdue invoice is dunned, its letter printed, the run processed.
    const dunning = await ok('POST', '/api/v1/models/c_dunningrun', { C_Dunning_ID: DUNNING, DunningDate: today(), Description: 'Month end' });
    await runOk('c_dunningrun_create', { ...record('c_dunningrun', dunning.id), C_BPartner_ID: CW });
    const dunned = (await ok('GET', `/api/v1/models/c_dunningrunline?$filter=${q(`C_Invoice_ID eq ${overdue.id}`)}`)).records;
    const paidDunned = (await ok('GET', `/api/v1/models/c_dunningrunline?$filter=${q(`C_Invoice_ID eq ${sold.id}`)}`)).records;
    if (month.first !== today()) assert.equal(dunned.length, 1, 'the overdue invoice is dunned');
    assert.equal(paidDunned.length, 0, 'a paid invoice is not dunned');
    if (dunned.length) {
      const letters = await runOk('c_dunningrun_print', record('c_dunningrun', dunning.id));
      assert.equal(Buffer.from(letters.reportFile, 'base64').subarray(0, 4).toString(), '%PDF');
      await runOk('c_dunningrun_process', record('c_dunningrun', dunning.id));
    }

    // 6. The revaluation of the open receivables in euros at the last day of the month.
    const euroInvoice = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: JOE, C_DocTypeTarget_ID: DOCTYPE.arInvoice, M_PriceList_ID: EUR_SALES_LIST, DateInvoiced: month.first, DateAcct: month.first,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 3, C_Tax_ID: 104 }], 'doc-action': 'CO',
    });
    assert.equal(idOf(euroInvoice.C_Currency_ID), EUR);
    await ok('POST', '/api/v1/models/c_conversion_rate', { C_Currency_ID: EUR, C_Currency_ID_To: 100, C_ConversionType_ID: 114, MultiplyRate: 1.2, DivideRate: 0.833333333333, ValidFrom: month.last, ValidTo: month.last });
    const reval = await runOk('t_invoicengl', { DateReval: month.last, APAR: 'R' });
    assert.match(reval.summary, new RegExp(`reversed by .* on ${month.next}`));
    const [revalJournal] = (await ok('GET', `/api/v1/models/gl_journal?$filter=${q(`Description eq 'Invoice Not Realized Gain/Loss ${month.last}'`)}`)).records;
    assert.equal(idOf(revalJournal.DocStatus), 'CO');

    // 7. The statements of the month: the trial balance's debits equal its credits and equal the month's
    // facts; the balance sheet balances and its assets are those of the ledger.
    const [sums] = (
      await db.query<{ dr: number; cr: number; assets: number }>(
        `SELECT COALESCE(sum(f.amtacctdr) FILTER (WHERE f.dateacct BETWEEN $2 AND $3), 0)::float8 AS dr,
                COALESCE(sum(f.amtacctcr) FILTER (WHERE f.dateacct BETWEEN $2 AND $3), 0)::float8 AS cr,
                COALESCE(sum(f.amtacctdr - f.amtacctcr) FILTER (WHERE ev.accounttype = 'A' AND f.dateacct <= $3), 0)::float8 AS assets
           FROM fact_acct f JOIN c_elementvalue ev ON ev.c_elementvalue_id = f.account_id
          WHERE f.ad_client_id = $1 AND f.c_acctschema_id = 101 AND f.postingtype = 'A'`,
        [CLIENT, period.StartDate, period.EndDate],
      )
    ).rows;
    const trial = (await report(REPORT.trialBalance, period.id)).get('Total')!;
    const [opening, debit, credit, closing] = trial as [number, number, number, number];
    assert.ok(debit > 0, 'the month has facts');
    assert.equal(debit, credit, 'debits equal credits');
    assert.deepEqual([debit, credit], [round2(sums!.dr), round2(sums!.cr)], "the month's facts");
    assert.deepEqual([opening, closing], [0, 0], 'opening and closing balances net to zero');
    const sheet = await report(REPORT.balanceSheet, period.id);
    assert.equal(sheet.get('Assets')![0], round2(sums!.assets));
    assert.equal(sheet.get('Total Liabilities and Equity')![0], sheet.get('Assets')![0], 'the balance sheet balances');

    // 8. The books agree as they did before the month.
    assert.deepEqual(differences(await booksViolations(db, CLIENT)), baseline);
  });
});
