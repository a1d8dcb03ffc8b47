import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q } from '../documents/document-helpers.js';
import { thisMonth } from './this-month.js';

const ACCT = { checking: 11100, receivable: 12110, payable: 21100, retained: 32900, revenue: 41000, expense: 51200, unrealizedGain: 80530, unrealizedLoss: 82530 } as const;
const EUR = 102;
const round2 = (n: number): number => Math.round(n * 100) / 100;

describe('period end: revaluation of open items and year-end close', () => {
  const f = serverWithDemoRoles();
  const as = (token: string, method: string, path: string, body?: unknown) => f.server.request(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown, token = f.admin) => {
    const r = await as(token, method, path, body);
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const factsOf = async (journalId: number) => {
    const r = await ok('GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq 224 and Record_ID eq ${journalId}`)}&$orderby=Fact_Acct_ID`);
    return r.records.map((x: Record<string, unknown>) => ({ account: Number(idOf(x.Account_ID)), dr: Number(x.AmtAcctDr), cr: Number(x.AmtAcctCr), partner: idOf(x.C_BPartner_ID) ?? null, date: x.DateAcct }));
  };
  const journalsNamed = async (description: string) =>
    (await ok('GET', `/api/v1/models/gl_journal?$filter=${q(`Description eq '${description}'`)}&$orderby=GL_Journal_ID`)).records as Record<string, any>[];
  /** Debit minus credit per account over the actual facts of a date range. */
  const balances = async (from: string, to: string): Promise<Map<number, number>> => {
    const r = await ok('GET', `/api/v1/models/fact_acct?$filter=${q(`DateAcct ge '${from}' and DateAcct le '${to}' and PostingType eq 'A'`)}&$select=${q('Account_ID,AmtAcctDr,AmtAcctCr')}&$top=100000`);
    const out = new Map<number, number>();
    for (const x of r.records) out.set(Number(idOf(x.Account_ID)), round2((out.get(Number(idOf(x.Account_ID))) ?? 0) + Number(x.AmtAcctDr) - Number(x.AmtAcctCr)));
    return out;
  };

  /** The euro at 1.2 dollars on one day (the demo's spot rate is 1.1). */
  const euroAt12 = async (date: string) => {
    const have = await ok('GET', `/api/v1/models/c_conversion_rate?$filter=${q(`C_Currency_ID eq ${EUR} and ValidFrom eq '${date}'`)}`);
    if (have.records.length) return;
    await ok('POST', '/api/v1/models/c_conversion_rate', { C_Currency_ID: EUR, C_Currency_ID_To: 100, C_ConversionType_ID: 114, MultiplyRate: 1.2, DivideRate: 0.833333333333, ValidFrom: date, ValidTo: date });
  };

  it('the schema has its unrealized gain and loss accounts and its retained earnings account', async () => {
    const defaults = await ok('GET', '/api/v1/models/c_acctschema_default?$filter=C_AcctSchema_ID eq 101');
    assert.equal(idOf(defaults.records[0].UnrealizedGain_Acct), ACCT.unrealizedGain);
    assert.equal(idOf(defaults.records[0].UnrealizedLoss_Acct), ACCT.unrealizedLoss);
    const gl = await ok('GET', '/api/v1/models/c_acctschema_gl?$filter=C_AcctSchema_ID eq 101');
    assert.equal(idOf(gl.records[0].RetainedEarning_Acct), ACCT.retained);
  });

  it('revaluation: open euro invoices are revalued (a half-paid one by half) at the rate of the revaluation date by a completed journal against unrealized gain, reversed on the first day of the next period', async () => {
    const month = thisMonth();
    const invoice = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, M_PriceList_ID: 103, DateInvoiced: month.first, DateAcct: month.first,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 3, C_Tax_ID: 104 }, { M_Product_ID: 133, QtyEntered: 1, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
    assert.equal(idOf(invoice.C_Currency_ID), EUR);
    assert.equal(invoice.GrandTotal, 81.88);
    // A second one, half paid: only its open half is revalued.
    const halfPaid = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 119, C_DocTypeTarget_ID: 116, M_PriceList_ID: 103, DateInvoiced: month.first, DateAcct: month.first,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 3, C_Tax_ID: 104 }, { M_Product_ID: 133, QtyEntered: 1, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
    await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: halfPaid.id, PayAmt: 40.94, DateTrx: month.first, DateAcct: month.first, 'doc-action': 'CO' });
    // Booked at 1.1 (90.07); the euro is worth 1.2 on the last day of the month.
    await euroAt12(month.last);

    const run = await ok('POST', '/api/v1/processes/t_invoicengl', { DateReval: month.last, APAR: 'R' });
    assert.equal(run.isError, false, JSON.stringify(run));
    assert.match(run.summary, new RegExp(`reversed by .* on ${month.next}`));
    const [journal] = await journalsNamed(`Invoice Not Realized Gain/Loss ${month.last}`);
    assert.ok(journal, 'the revaluation journal');
    assert.equal(idOf(journal.DocStatus), 'CO');
    assert.equal(journal.DateAcct, month.last);
    const facts = await factsOf(journal.id);
    const ours = facts.filter((x: { partner: unknown; account: number }) => x.account === ACCT.receivable);
    const full = facts.find((x: { partner: unknown; account: number }) => x.account === ACCT.receivable && x.partner === 118);
    assert.equal(full?.dr, round2(round2(81.88 * 1.2) - 90.07), `a debit of 8.19 to the receivable of the open invoice: ${JSON.stringify(ours)}`);
    const half = facts.find((x: { partner: unknown; account: number }) => x.account === ACCT.receivable && x.partner === 119);
    assert.equal(half?.dr, 4.1, `half of it for the half-paid invoice: ${JSON.stringify(ours)}`);
    const dr = round2(facts.reduce((s: number, x: { dr: number }) => s + x.dr, 0));
    const cr = round2(facts.reduce((s: number, x: { cr: number }) => s + x.cr, 0));
    assert.equal(dr, cr);
    const gain = facts.filter((x: { account: number }) => x.account === ACCT.unrealizedGain);
    assert.equal(gain.length, 1);
    assert.ok(gain[0].cr >= 12.29, 'the gain is credited');

    const [reversal] = (await ok('GET', `/api/v1/models/gl_journal?$filter=${q(`Reversal_ID eq ${journal.id}`)}`)).records;
    assert.ok(reversal, 'the reversal journal names the revaluation');
    assert.equal(reversal.DateAcct, month.next);
    assert.equal(idOf(reversal.DocStatus), 'CO');
    const back = await factsOf(reversal.id);
    assert.deepEqual(back.map((x: { account: number; dr: number; cr: number }) => [x.account, x.cr, x.dr]), facts.map((x: { account: number; dr: number; cr: number }) => [x.account, x.dr, x.cr]));
  });

  it('revaluation of payables: a vendor invoice in euros owed at a higher rate is a loss, debited to unrealized loss', async () => {
    const month = thisMonth();
    await euroAt12(month.last);
    const priceList = await ok('POST', '/api/v1/models/m_pricelist', { Name: 'Purchases in euros', C_Currency_ID: EUR, IsSOPriceList: false, PricePrecision: 2 });
    const bill = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118, C_DocTypeTarget_ID: 123, IsSOTrx: false, M_PriceList_ID: priceList.id, DateInvoiced: month.first, DateAcct: month.first,
      C_InvoiceLine: [{ C_Charge_ID: 100, QtyEntered: 1, PriceEntered: 50, PriceActual: 50 }],
      'doc-action': 'CO',
    });
    assert.equal(idOf(bill.C_Currency_ID), EUR);
    const total = Number(bill.GrandTotal);
    const run = await ok('POST', '/api/v1/processes/t_invoicengl', { DateReval: month.last, APAR: 'P' });
    assert.equal(run.isError, false, JSON.stringify(run));
    const journals = await journalsNamed(`Invoice Not Realized Gain/Loss ${month.last}`);
    const journal = journals[journals.length - 1]!;
    const facts = await factsOf(journal.id);
    const payable = facts.filter((x: { account: number }) => x.account === ACCT.payable);
    const loss = round2(round2(total * 1.2) - round2(total * 1.1));
    assert.deepEqual(payable.map((x: { dr: number; cr: number }) => [x.dr, x.cr]), [[0, loss]], 'the payable grows by the difference');
    assert.deepEqual(facts.filter((x: { account: number }) => x.account === ACCT.unrealizedLoss).map((x: { dr: number; cr: number }) => [x.dr, x.cr]), [[loss, 0]]);
    assert.equal(facts.filter((x: { account: number }) => x.account === ACCT.receivable).length, 0, 'receivables are left out (APAR P)');
  });

  it('revaluation refuses an unknown AP/AR choice and a date without a rate, and writes nothing; the least privileged role cannot run it', async () => {
    const before = (await ok('GET', '/api/v1/models/gl_journal?$select=GL_Journal_ID')).records.length;
    const bad = await as(f.admin, 'POST', '/api/v1/processes/t_invoicengl', { DateReval: thisMonth().last, APAR: 'X' });
    assert.ok(bad.status === 400 || bad.body?.isError === true, bad.text);
    assert.match(bad.text, /APAR must be A \(all\), R \(receivables\) or P \(payables\)/);
    const noRate = await as(f.admin, 'POST', '/api/v1/processes/t_invoicengl', { DateReval: thisMonth().last, C_ConversionTypeReval_ID: 115 });
    assert.ok(noRate.status === 400 || noRate.body?.isError === true, noRate.text);
    assert.match(noRate.text, /No conversion rate on/);
    assert.equal((await ok('GET', '/api/v1/models/gl_journal?$select=GL_Journal_ID')).records.length, before);
    const denied = await as(f.ws, 'POST', '/api/v1/processes/t_invoicengl', { DateReval: thisMonth().last });
    assert.ok(denied.status === 403 || denied.status === 404, denied.text);
  });

  it('year-end close moves the revenue and expense balances of the year to retained earnings; a second run finds nothing to close', async () => {
    const year = new Date().getUTCFullYear();
    const years = await ok('GET', `/api/v1/models/c_year?$filter=${q(`FiscalYear eq '${year}'`)}`);
    const yearId = years.records[0].id;
    await ok('POST', '/api/v1/models/gl_journal', {
      Description: 'Sales of the year', DateAcct: `${year}-06-15`, 'doc-action': 'CO',
      GL_JournalLine: [{ Account_ID: ACCT.checking, AmtSourceDr: 500 }, { Account_ID: ACCT.revenue, AmtSourceCr: 500 }],
    });
    await ok('POST', '/api/v1/models/gl_journal', {
      Description: 'Costs of the year', DateAcct: `${year}-07-15`, 'doc-action': 'CO',
      GL_JournalLine: [{ Account_ID: ACCT.expense, AmtSourceDr: 200 }, { Account_ID: ACCT.checking, AmtSourceCr: 200 }],
    });
    const profitAndLoss = (await ok('GET', `/api/v1/models/c_elementvalue?$filter=${q(`AccountType eq 'R' or AccountType eq 'E'`)}&$select=${q('C_ElementValue_ID')}`)).records.map((r: { id: number }) => r.id);
    const sumOf = (b: Map<number, number>, ids: number[]) => round2(ids.reduce((s, id) => s + (b.get(id) ?? 0), 0));
    const before = await balances(`${year}-01-01`, `${year}-12-31`);
    const result = sumOf(before, profitAndLoss);
    assert.ok(result !== 0, 'the year has revenues and expenses');
    const retainedBefore = before.get(ACCT.retained) ?? 0;

    const run = await ok('POST', '/api/v1/processes/gl_yearendclose', { C_Year_ID: yearId, DateAcct: `${year}-12-31` });
    assert.equal(run.isError, false, JSON.stringify(run));
    assert.match(run.summary, new RegExp(`Year ${year} closed by journal`));
    const after = await balances(`${year}-01-01`, `${year}-12-31`);
    for (const id of profitAndLoss) assert.equal(after.get(id) ?? 0, 0, `account ${id} is closed`);
    assert.equal(round2((after.get(ACCT.retained) ?? 0) - retainedBefore), result, 'retained earnings take the net result');
    const total = (b: Map<number, number>) => [...b.values()].reduce((s, v) => s + v, 0);
    assert.ok(Math.abs(total(after) - total(before)) < 0.005, 'the trial balance of the year is unchanged');

    const again = await ok('POST', '/api/v1/processes/gl_yearendclose', { C_Year_ID: yearId, DateAcct: `${year}-12-31` });
    assert.equal(again.isError, false);
    assert.match(again.summary, /Nothing to close/);
  });

  it('year-end close refuses a date outside the year and a year without periods of the client', async () => {
    const years = await ok('GET', `/api/v1/models/c_year?$filter=${q(`FiscalYear eq '2025'`)}`);
    const outside = await as(f.admin, 'POST', '/api/v1/processes/gl_yearendclose', { C_Year_ID: years.records[0].id, DateAcct: '2026-01-05' });
    assert.ok(outside.status === 400 || outside.body?.isError === true, outside.text);
    assert.match(outside.text, /is not in the year 2025/);
    const none = await as(f.admin, 'POST', '/api/v1/processes/gl_yearendclose', { C_Year_ID: 999999 });
    assert.ok(none.status === 400 || none.body?.isError === true, none.text);
  });
});
