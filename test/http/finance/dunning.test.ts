import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { processCalls } from './process-calls.js';
import { documentCalls, idOf, q, today } from '../documents/document-helpers.js';

const CW = 117;
const JOE = 118;
const TREE_FARM = 114;
const AR_INVOICE = 116;
const AP_INVOICE = 123;
const TERM = { immediate: 105, net30: 100 } as const;
const DUNNING = 100;
const LEVEL = { reminder: 101, secondNotice: 1102020 } as const;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe('dunning runs: overdue invoices per level, letters and processing', () => {
  const f = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: f.server, token: f.admin }));
  const invoice = (partner: number, term: number, date: string, price: number, sales = true) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: sales ? AR_INVOICE : AP_INVOICE,
      IsSOTrx: sales,
      C_PaymentTerm_ID: term,
      DateInvoiced: date,
      DateAcct: date,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: price, PriceActual: price, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  const { run, runOk } = processCalls(() => ({ server: f.server, token: f.admin }));
  const dunningRun = () => ok('POST', '/api/v1/models/c_dunningrun', { C_Dunning_ID: DUNNING, DunningDate: today(), Description: 'Month end' });
  const record = (id: number) => ({ 'record-id': id, 'model-name': 'c_dunningrun' });
  const entriesOf = async (id: number) =>
    (await ok('GET', `/api/v1/models/c_dunningrunentry?$filter=${q(`C_DunningRun_ID eq ${id}`)}&$orderby=C_DunningLevel_ID`)).records as Record<string, any>[];
  const linesOf = async (entry: number) =>
    (await ok('GET', `/api/v1/models/c_dunningrunline?$filter=${q(`C_DunningRunEntry_ID eq ${entry}`)}&$orderby=C_DunningRunLine_ID`)).records as Record<string, any>[];

  it('the demo dunning has its levels, and the standard customers are dunned by it', async () => {
    const levels = (await ok('GET', `/api/v1/models/c_dunninglevel?$filter=${q(`C_Dunning_ID eq ${DUNNING}`)}&$orderby=DaysAfterDue`)).records as Record<string, any>[];
    assert.deepEqual(levels.map((l) => [l.id, Number(l.DaysAfterDue), l.ChargeFee]), [[LEVEL.reminder, 0, false], [LEVEL.secondNotice, 30, true]]);
    assert.equal(Number(idOf((await ok('GET', '/api/v1/models/c_bp_group/103')).C_Dunning_ID)), DUNNING);
  });

  it('a run selects overdue customer invoices at the level they reached, with the fee of the level; letters print; processing marks the invoices', async () => {
    const old = await invoice(CW, TERM.immediate, daysAgo(40), 30);
    const recent = await invoice(CW, TERM.immediate, daysAgo(5), 20);
    const dueToday = await invoice(CW, TERM.immediate, today(), 10);
    const notDue = await invoice(JOE, TERM.net30, daysAgo(10), 15);
    await invoice(TREE_FARM, TERM.immediate, daysAgo(40), 25, false);
    const dr = await dunningRun();

    const created = await runOk('c_dunningrun_create', { ...record(dr.id), C_BPartner_ID: CW });
    assert.match(created.summary, /#2/);
    const entries = await entriesOf(dr.id);
    assert.deepEqual(entries.map((e) => [Number(idOf(e.C_BPartner_ID)), Number(idOf(e.C_DunningLevel_ID))]), [[CW, LEVEL.reminder], [CW, LEVEL.secondNotice]]);
    const [reminder, second] = entries as [Record<string, any>, Record<string, any>];
    const reminderLines = await linesOf(reminder.id);
    assert.deepEqual(reminderLines.map((l) => [Number(idOf(l.C_Invoice_ID)), l.DaysDue, Number(l.OpenAmt)]), [[recent.id, 5, Number(recent.GrandTotal)]]);
    assert.equal(reminder.Qty, 1);
    assert.equal(Number(reminder.Amt), Number(recent.GrandTotal));
    const secondLines = await linesOf(second.id);
    const fee = secondLines.find((l) => !l.C_Invoice_ID)!;
    assert.equal(Number(fee.FeeAmt), 10, 'the second notice charges its fee');
    const oldLine = secondLines.find((l) => Number(idOf(l.C_Invoice_ID)) === old.id)!;
    assert.equal(oldLine.DaysDue, 40);
    assert.equal(second.Qty, 1, 'the fee is not an item');
    assert.equal(Number(second.Amt), Math.round((Number(old.GrandTotal) + 10) * 100) / 100);
    const dunned = [...reminderLines, ...secondLines].map((l) => Number(idOf(l.C_Invoice_ID)));
    assert.ok(!dunned.includes(dueToday.id) && !dunned.includes(notDue.id), 'nothing that is not overdue');

    // Create again replaces the entries; the vendor invoice never appears (sales only).
    await runOk('c_dunningrun_create', { ...record(dr.id) });
    const all = await entriesOf(dr.id);
    assert.ok(all.every((e) => Number(idOf(e.C_BPartner_ID)) !== TREE_FARM));
    assert.equal(all.filter((e) => Number(idOf(e.C_BPartner_ID)) === CW).length, 2);

    const pdf = await runOk('c_dunningrun_print', record(dr.id));
    assert.equal(Buffer.from(pdf.reportFile, 'base64').subarray(0, 4).toString(), '%PDF');
    const html = await runOk('c_dunningrun_print', { ...record(dr.id), 'report-type': 'HTML' });
    const page = Buffer.from(html.reportFile ?? html.exportFile, 'base64').toString();
    assert.match(page, /C&amp;W Construction|C&W Construction/);
    assert.ok(page.includes(String(old.DocumentNo)) && page.includes('Second Notice'));

    await runOk('c_dunningrun_process', record(dr.id));
    assert.equal((await ok('GET', `/api/v1/models/c_dunningrun/${dr.id}`)).Processed, true);
    const marked = await ok('GET', `/api/v1/models/c_invoice/${old.id}`);
    assert.equal(Number(idOf(marked.C_DunningLevel_ID)), LEVEL.secondNotice);
    assert.equal(idOf(marked.InvoiceCollectionType), 'D');
    assert.equal(Number(idOf((await ok('GET', `/api/v1/models/c_invoice/${recent.id}`)).C_DunningLevel_ID)), LEVEL.reminder);
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${dueToday.id}`)).C_DunningLevel_ID ?? null, null);

    // Days between dunning: a run the same day does not dun them again.
    const next = await dunningRun();
    await runOk('c_dunningrun_create', { ...record(next.id), C_BPartner_ID: CW });
    assert.deepEqual(await entriesOf(next.id), []);
  });

  it('refuses to create or process a processed run, to process an empty one, and runs only on dunning runs; nothing is written', async () => {
    const dr = await dunningRun();
    const empty = await run('c_dunningrun_process', record(dr.id));
    assert.ok(empty.status === 400 || empty.body.isError === true, empty.text);
    assert.match(empty.text, /no entries/);
    assert.equal((await ok('GET', `/api/v1/models/c_dunningrun/${dr.id}`)).Processed, false);
    await invoice(CW, TERM.immediate, daysAgo(12), 9);
    await runOk('c_dunningrun_create', { ...record(dr.id), C_BPartner_ID: CW });
    await runOk('c_dunningrun_process', record(dr.id));
    const again = await run('c_dunningrun_create', record(dr.id));
    assert.ok(again.status === 400 || again.body.isError === true, again.text);
    assert.match(again.text, /processed/);
    const kept = await entriesOf(dr.id);
    assert.equal(kept.length, 1, `the entries stay: ${JSON.stringify(await Promise.all(kept.map((e) => linesOf(e.id))))}`);
    const wrong = await run('c_dunningrun_create', { 'record-id': 100, 'model-name': 'c_bankaccount' });
    assert.ok(wrong.status === 400 || wrong.body.isError === true, wrong.text);
    assert.match(wrong.text, /dunning run/);
  });

  it('a role without access to the processes cannot run them', async () => {
    const dr = await dunningRun();
    for (const token of [f.ws, f.user]) {
      for (const slug of ['c_dunningrun_create', 'c_dunningrun_print', 'c_dunningrun_process']) {
        const denied = await run(slug, record(dr.id), token);
        assert.equal(denied.status, 403, `${slug}: ${denied.text}`);
      }
    }
    assert.deepEqual(await entriesOf(dr.id), []);
  });

  it("a partner's own dunning wins over its group's; a level that charges interest adds it per overdue item", async () => {
    const dunning = await ok('POST', '/api/v1/models/c_dunning', { Name: `Interest ${Date.now()}`, SendDunningLetter: true, CreateLevelsSequentially: false, IsDefault: false });
    const level = await ok('POST', '/api/v1/models/c_dunninglevel', {
      C_Dunning_ID: dunning.id, Name: 'With interest', PrintName: 'Interest notice', DaysAfterDue: 0, DaysBetweenDunning: 0, ChargeFee: false,
      ChargeInterest: true, InterestPercent: 36.5, IsShowAllDue: false, IsShowNotDue: false, IsStatement: false, IsSetCreditStop: false, IsSetPaymentTerm: false,
    });
    await ok('PUT', `/api/v1/models/c_bpartner/${JOE}`, { C_Dunning_ID: dunning.id });
    const late = await invoice(JOE, TERM.immediate, daysAgo(20), 100);
    const dr = await ok('POST', '/api/v1/models/c_dunningrun', { C_Dunning_ID: dunning.id, DunningDate: today() });
    await runOk('c_dunningrun_create', { ...record(dr.id), C_BPartner_ID: JOE });
    const [entry] = await entriesOf(dr.id);
    assert.equal(Number(idOf(entry!.C_DunningLevel_ID)), level.id);
    const [line] = await linesOf(entry!.id);
    const interest = Math.round(Number(late.GrandTotal) * 0.02 * 100) / 100;
    assert.deepEqual([Number(idOf(line!.C_Invoice_ID)), line!.DaysDue, Number(line!.InterestAmt)], [late.id, 20, interest]);
    assert.equal(Number(entry!.Amt), Math.round((Number(late.GrandTotal) + interest) * 100) / 100);
    // Under the group's dunning the partner is no longer dunned.
    const group = await dunningRun();
    await runOk('c_dunningrun_create', { ...record(group.id), C_BPartner_ID: JOE });
    assert.deepEqual(await entriesOf(group.id), []);
  });
});
