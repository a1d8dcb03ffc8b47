import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows, htmlTable, pdfText, xlsxRows } from '../../helpers/files.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;
const idOf = (v: unknown): unknown => (v && typeof v === 'object' ? (v as { id: unknown }).id : v);
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** The demo company's report definitions (migration 140). */
const BALANCE_SHEET = 100;
const INCOME_STATEMENT = 1103001;
const TRIAL_BALANCE = 1103002;
/** June 2025 of the demo calendar. */
const JUNE = 202506;

describe('financial statements, general ledger detail and aging', () => {
  const f = serverWithDemoRoles();
  const run = (slug: string, body: Record<string, unknown>, token = f.admin) => f.server.request('POST', `/api/v1/processes/${slug}`, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await f.server.request(method, path, { token: f.admin, body });
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const file = (r: { body: Record<string, any> }): Buffer => Buffer.from(r.body.reportFile ?? r.body.exportFile, 'base64');
  /** The rows of a report run as CSV, after checking the run succeeded; the header row first. */
  const csv = async (slug: string, body: Record<string, unknown>, token = f.admin): Promise<string[][]> => {
    const r = await run(slug, { ...body, 'report-type': 'CSV' }, token);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    return csvRows(file(r));
  };
  const db = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => f.server.services.db.query<T>(text, params).then((x) => x.rows);
  const report = (id: number, extra: Record<string, unknown> = {}) => ({ 'record-id': id, 'model-name': 'pa_report', C_Period_ID: JUNE, ...extra });
  /** A financial report's row values by name (the CSV's first column). */
  const byName = (rows: string[][]): Map<string, number[]> => new Map(rows.slice(1).map((r) => [r[0]!, r.slice(1).map(Number)]));

  const invoice = (body: Record<string, unknown>) =>
    ok('POST', '/api/v1/models/c_invoice', { C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: 25, PriceActual: 25, C_Tax_ID: 104 }], ...body });
  let overdue: Record<string, any>;
  let recent: Record<string, any>;
  let draft: Record<string, any>;

  before(async () => {
    // June 2025: a customer invoice due in 30 days, a vendor invoice; March 2025: a customer invoice due at once, partly paid.
    recent = await invoice({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, DateInvoiced: '2025-06-05', DateAcct: '2025-06-05', C_PaymentTerm_ID: 100, 'doc-action': 'CO' });
    await invoice({ C_BPartner_ID: 114, C_DocTypeTarget_ID: 123, IsSOTrx: false, DateInvoiced: '2025-06-10', DateAcct: '2025-06-10', C_PaymentTerm_ID: 105, 'doc-action': 'CO' });
    overdue = await invoice({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, DateInvoiced: '2025-03-01', DateAcct: '2025-03-01', C_PaymentTerm_ID: 105, 'doc-action': 'CO' });
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, PayAmt: 50, DateTrx: '2025-06-20', DateAcct: '2025-06-20', 'doc-action': 'CO' });
    await ok('POST', '/api/v1/models/c_allocationhdr', { DateTrx: '2025-06-20', DateAcct: '2025-06-20', C_AllocationLine: [{ C_Invoice_ID: overdue.id, C_Payment_ID: pay.id, Amount: 50 }], 'doc-action': 'CO' });
    draft = await invoice({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, DateInvoiced: '2025-06-07', C_PaymentTerm_ID: 105 });
    // For the chart, which ages at today: one not yet due, one 45 days past due.
    await invoice({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, DateInvoiced: daysAgo(0), DateAcct: daysAgo(0), C_PaymentTerm_ID: 100, 'doc-action': 'CO' });
    await invoice({ C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, DateInvoiced: daysAgo(45), DateAcct: daysAgo(45), C_PaymentTerm_ID: 105, 'doc-action': 'CO' });
  });

  /** Sums of the demo company's actual facts per account: before June, in June (debit, credit) and up to its end. */
  const juneSums = () =>
    db<{ account_id: string; value: string; accounttype: string; opening: number; dr: number; cr: number; closing: number; year: number }>(
      `SELECT f.account_id, ev.value, ev.accounttype,
              COALESCE(sum(f.amtacctdr - f.amtacctcr) FILTER (WHERE f.dateacct < '2025-06-01'), 0)::float8 AS opening,
              COALESCE(sum(f.amtacctdr) FILTER (WHERE f.dateacct >= '2025-06-01' AND f.dateacct < '2025-07-01'), 0)::float8 AS dr,
              COALESCE(sum(f.amtacctcr) FILTER (WHERE f.dateacct >= '2025-06-01' AND f.dateacct < '2025-07-01'), 0)::float8 AS cr,
              COALESCE(sum(f.amtacctdr - f.amtacctcr) FILTER (WHERE f.dateacct < '2025-07-01'), 0)::float8 AS closing,
              COALESCE(sum(f.amtacctdr - f.amtacctcr) FILTER (WHERE f.dateacct >= '2025-01-01' AND f.dateacct < '2025-07-01'), 0)::float8 AS year
         FROM fact_acct f JOIN c_elementvalue ev ON ev.c_elementvalue_id = f.account_id
        WHERE f.ad_client_id = 11 AND f.c_acctschema_id = 101 AND f.postingtype = 'A'
        GROUP BY f.account_id, ev.value, ev.accounttype ORDER BY ev.value`,
    );

  it('trial balance: every account with its opening balance, June debits and credits and closing balance; debits equal credits', async () => {
    const sums = (await juneSums()).filter((s) => [s.opening, s.dr, s.cr, s.closing].some((v) => round2(v) !== 0));
    assert.ok(sums.some((s) => s.dr > 0), 'June has facts');
    const rows = await csv('finreport', report(TRIAL_BALANCE));
    assert.deepEqual(rows[0], ['Name', 'Opening Balance', 'Debit', 'Credit', 'Closing Balance']);
    const accounts = rows.slice(1).filter((r) => /^\d+ /.test(r[0]!));
    assert.deepEqual(
      accounts.map((r) => [r[0]!.split(' ')[0], ...r.slice(1).map(Number)]),
      sums.map((s) => [s.value, round2(s.opening), round2(s.dr), round2(s.cr), round2(s.closing)]),
    );
    const total = byName(rows).get('Total')!;
    assert.equal(total[1], total[2], 'debits equal credits');
    assert.equal(total[1], round2(sums.reduce((n, s) => n + s.dr, 0)));
    assert.equal(total[0], 0, 'the opening balances net to zero');
    assert.equal(total[3], 0, 'the closing balances net to zero');
    // One partner's facts only (the original's parameter filters).
    const [vendor] = await db<{ dr: number; cr: number }>(
      `SELECT COALESCE(sum(amtacctdr), 0)::float8 AS dr, COALESCE(sum(amtacctcr), 0)::float8 AS cr FROM fact_acct
        WHERE ad_client_id = 11 AND c_acctschema_id = 101 AND postingtype = 'A' AND c_bpartner_id = 114 AND dateacct >= '2025-06-01' AND dateacct < '2025-07-01'`,
    );
    assert.ok(vendor!.dr > 0 && vendor!.dr < total[1]!, "the vendor has a part of June's facts");
    assert.deepEqual(byName(await csv('finreport', report(TRIAL_BALANCE, { C_BPartner_ID: 114 }))).get('Total')!.slice(1, 3), [round2(vendor!.dr), round2(vendor!.cr)]);
  });

  it('balance sheet: assets equal liabilities, equity and the profit not yet closed', async () => {
    const sums = await juneSums();
    const closing = (types: string[]) => round2(sums.filter((s) => types.includes(s.accounttype)).reduce((n, s) => n + s.closing, 0));
    const lines = byName(await csv('finreport', report(BALANCE_SHEET)));
    assert.equal(lines.get('Assets')![0], closing(['A']));
    assert.ok(closing(['A']) !== 0);
    assert.equal(lines.get('Liabilities')![0], -closing(['L']));
    assert.equal(lines.get('Profit not yet closed')![0], -closing(['R', 'E']));
    assert.equal(lines.get('Total Liabilities and Equity')![0], lines.get('Assets')![0], 'the balance sheet balances');
    assert.equal(lines.get('Total Liabilities and Equity')![1], lines.get('Assets')![1], 'at the end of May too');
    assert.ok(!lines.has('Liabilities and equity before profit'), 'a line not printed');
  });

  it('income statement: net income of the period and of the year to date', async () => {
    const sums = await juneSums();
    const profit = (k: 'dr' | 'year') => 0 + round2(-sums.filter((s) => ['R', 'E'].includes(s.accounttype)).reduce((n, s) => n + (k === 'dr' ? s.dr - s.cr : s.year), 0));
    const lines = byName(await csv('finreport', report(INCOME_STATEMENT)));
    assert.deepEqual(lines.get('Net Income'), [profit('dr'), profit('year')]);
    const sales = sums.filter((s) => s.value.startsWith('4'));
    assert.equal(lines.get('Sales')![0], round2(sales.reduce((n, s) => n + s.cr - s.dr, 0)));
    assert.ok(lines.get('Sales')![0]! > 0, 'June sales');
  });

  it('renders each format: PDF, HTML, XLSX', async () => {
    const pdf = await run('finreport', report(TRIAL_BALANCE));
    assert.equal(pdf.status, 200, pdf.text);
    assert.match(pdf.body.reportFileName, /\.pdf$/);
    assert.equal(file(pdf).subarray(0, 5).toString(), '%PDF-');
    const text = (await pdfText(file(pdf))).join('\n');
    assert.match(text, /Trial Balance/);
    assert.match(text, /Period: Jun-25/);
    assert.match(text, /12110 Accounts Receivable - Trade/);
    const html = await run('finreport', report(BALANCE_SHEET, { 'report-type': 'HTML' }));
    assert.match(html.body.exportFileName, /\.html$/);
    const t = htmlTable(file(html));
    assert.equal(t.title, 'Balance Sheet Current Month');
    assert.deepEqual(t.rows[0]!.cells, ['Name', 'Balance', 'Previous Period']);
    const xlsx = await run('finreport', report(INCOME_STATEMENT, { 'report-type': 'XLSX' }));
    assert.match(xlsx.body.exportFileName, /\.xlsx$/);
    const sheet = await xlsxRows(file(xlsx));
    assert.deepEqual(sheet[0], ['Name', 'Period', 'Year to Date']);
    assert.equal(typeof sheet.find((r) => r[0] === 'Net Income')![1], 'number');
  });

  it('general ledger detail: the facts of an account with a running balance from the opening balance', async () => {
    const facts = await db<{ dr: number; cr: number }>(
      `SELECT amtacctdr::float8 AS dr, amtacctcr::float8 AS cr FROM fact_acct WHERE ad_client_id = 11 AND account_id = 12110 AND postingtype = 'A'
          AND dateacct >= '2025-06-01' AND dateacct < '2025-07-01' ORDER BY dateacct, fact_acct_id`,
    );
    const [{ opening }] = await db<{ opening: number }>(`SELECT COALESCE(sum(amtacctdr - amtacctcr), 0)::float8 AS opening FROM fact_acct WHERE ad_client_id = 11 AND account_id = 12110 AND postingtype = 'A' AND dateacct < '2025-06-01'`);
    assert.ok(facts.length >= 2);
    const rows = await csv('gl_detail', { Account_ID: 12110, C_Period_ID: JUNE });
    const details = rows.slice(1).filter((r) => r[0]!.startsWith('12110 '));
    assert.equal(details.length, facts.length);
    let balance = opening;
    details.forEach((r, i) => {
      balance = round2(balance + facts[i]!.dr - facts[i]!.cr);
      assert.deepEqual([Number(r[6]), Number(r[7]), Number(r[8])], [round2(facts[i]!.dr), round2(facts[i]!.cr), balance]);
      assert.ok(r[1]! >= '2025-06-01' && r[1]! <= '2025-06-30');
    });
    // The same by date range.
    const byDates = await csv('gl_detail', { Account_ID: 12110, DateAcct: '2025-06-01', DateAcct_To: '2025-06-30' });
    assert.deepEqual(byDates.slice(1).filter((r) => r[0]!.startsWith('12110 ')), details);
  });

  it('aging: open amounts of completed invoices by days past the due date, drafts left out', async () => {
    const rows = await csv('aging', { StatementDate: '2025-08-01', IsSOTrx: true, C_BPartner_ID: 118, IsListInvoices: true });
    assert.deepEqual(rows[0], ['Business Partner', 'Document No', 'Date Invoiced', 'Due Date', 'Days Due', 'Open Amount', 'Current', '1-30', '31-60', '61-90', '91+']);
    const byDoc = new Map(rows.slice(1).map((r) => [r[1], r]));
    assert.ok(!byDoc.has(draft.DocumentNo), 'no draft');
    const a = byDoc.get(recent.DocumentNo)!;
    assert.deepEqual([a[3], Number(a[4]), Number(a[5]), Number(a[7])], ['2025-07-05', 27, Number(recent.GrandTotal), Number(recent.GrandTotal)]);
    const b = byDoc.get(overdue.DocumentNo)!;
    assert.deepEqual([a[3], b[3], Number(b[4]), Number(b[5]), Number(b[10])], ['2025-07-05', '2025-03-01', 153, round2(overdue.GrandTotal - 50), round2(overdue.GrandTotal - 50)]);
    assert.ok(!rows.slice(1).some((r) => r[2]! > '2025-08-01'), 'nothing invoiced after the statement date');
    // Payables: the vendor invoice of June, due at once.
    const payables = await csv('aging', { StatementDate: '2025-08-01', IsSOTrx: false, C_BPartner_ID: 114, IsListInvoices: true });
    const [{ total: owed }] = await db<{ total: number }>(
      `SELECT sum(grandtotal)::float8 AS total FROM c_invoice WHERE c_bpartner_id = 114 AND issotrx = 'N' AND docstatus IN ('CO', 'CL') AND ispaid = 'N' AND dateinvoiced <= '2025-08-01'`,
    );
    assert.equal(round2(payables.slice(1).reduce((n, r) => n + Number(r[5]), 0)), round2(owed));
    assert.ok(payables.slice(1).every((r) => r[0] === payables[1]![0]), 'one vendor');
    // Without the list, one total per partner.
    const totals = await csv('aging', { StatementDate: '2025-08-01', C_BPartner_ID: 118 });
    assert.ok(totals.slice(1).every((r) => r[1] === ''), 'no invoice rows');
    assert.deepEqual(
      totals.slice(1).map((r) => [r[0], Number(r[5]), Number(r[7]), Number(r[10])]),
      [[a[0], round2(Number(a[5]) + Number(b[5])), Number(a[5]), Number(b[5])]],
      'the partner: open amount, 1-30 and 91+',
    );
  });

  it('the "Open Invoices by Age" chart: open amounts of completed invoices by days past their due date', async () => {
    const chart = await f.server.request('GET', '/api/v1/charts/50003/data', { token: f.admin });
    assert.equal(chart.status, 200, chart.text);
    const open = await db<{ issotrx: string; bucket: string; open: number }>(
      `SELECT i.issotrx, CASE WHEN d.days <= 0 THEN '0 not due' WHEN d.days <= 30 THEN '1-30 days' WHEN d.days <= 60 THEN '31-60 days' WHEN d.days <= 90 THEN '61-90 days' ELSE '91+ days' END AS bucket,
              sum(i.grandtotal - COALESCE((SELECT sum(al.amount) FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id
                                             WHERE al.c_invoice_id = i.c_invoice_id AND ah.docstatus IN ('CO', 'CL')), 0) * CASE WHEN i.issotrx = 'Y' THEN 1 ELSE -1 END)::float8 AS open
         FROM c_invoice i JOIN c_paymentterm pt ON pt.c_paymentterm_id = i.c_paymentterm_id
         CROSS JOIN LATERAL (SELECT current_date - (i.dateinvoiced::date + pt.netdays::int) AS days) d
        WHERE i.ad_client_id = 11 AND i.docstatus IN ('CO', 'CL') AND i.ispaid = 'N' GROUP BY 1, 2`,
    );
    const expected = open.map((o) => [o.issotrx === 'Y' ? 'Receivables' : 'Payables', o.bucket, round2(o.open)]).sort();
    assert.deepEqual(chart.body.data.map((d: { row: string; column: string; value: number }) => [d.row, d.column, round2(Number(d.value))]).sort(), expected);
    for (const b of ['0 not due', '31-60 days', '91+ days']) assert.ok(expected.some((e) => e[0] === 'Receivables' && e[1] === b), b);
  });

  it('refuses malformed parameters with 400, and runs that cannot be made as failed runs that write nothing', async () => {
    const badDate = await run('aging', { StatementDate: 'soon' });
    assert.equal(badDate.status, 400, badDate.text);
    const badPeriod = await run('finreport', report(TRIAL_BALANCE, { C_Period_ID: 'June' }));
    assert.equal(badPeriod.status, 400, badPeriod.text);
    const missing = await run('finreport', { 'record-id': 999999, 'model-name': 'pa_report', C_Period_ID: JUNE });
    assert.equal(missing.status, 404, missing.text);
    const [{ n: archivesBefore }] = await db<{ n: number }>('SELECT count(*)::int AS n FROM ad_archive');
    const failed = async (slug: string, body: Record<string, unknown>, detail: RegExp) => {
      const r = await run(slug, body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, true, r.text);
      assert.match(r.body.summary, detail);
      assert.equal(r.body.reportFile ?? r.body.exportFile, undefined);
    };
    await failed('finreport', { C_Period_ID: JUNE }, /record-id with model-name pa_report/);
    await failed('finreport', report(TRIAL_BALANCE, { C_Period_ID: 999999 }), /No period 999999/);
    await failed('finreport', report(BALANCE_SHEET, { C_Period_ID: 200301 }), /no period -1 relative to Jan-03/);
    await failed('gl_detail', { DateAcct: '2025-06-30', DateAcct_To: '2025-06-01' }, /ends \(2025-06-01\) before it starts/);
    await failed('gl_detail', { C_AcctSchema_ID: 999999 }, /No accounting schema 999999/);
    const [{ n: archivesAfter }] = await db<{ n: number }>('SELECT count(*)::int AS n FROM ad_archive');
    assert.equal(archivesAfter, archivesBefore, 'no report archived');
  });

  it('access: the web service role may not run them; the user role sees its client only', async () => {
    for (const slug of ['finreport', 'aging', 'gl_detail']) {
      const denied = await run(slug, slug === 'finreport' ? report(TRIAL_BALANCE) : {}, f.ws);
      assert.equal(denied.status, 403, `${slug}: ${denied.text}`);
    }
    // Facts of another client stay out of the statements.
    const before = byName(await csv('finreport', report(TRIAL_BALANCE), f.user)).get('Total')!;
    await f.server.services.db.query(
      `INSERT INTO fact_acct (fact_acct_id, ad_client_id, ad_org_id, c_acctschema_id, account_id, dateacct, datetrx, c_period_id, postingtype, amtacctdr, amtacctcr, amtsourcedr, amtsourcecr,
                              c_currency_id, ad_table_id, record_id, isactive, created, createdby, updated, updatedby)
       VALUES (9999001, 99, 0, 101, 12110, '2025-06-15', '2025-06-15', ${JUNE}, 'A', 1000, 0, 1000, 0, 100, 318, 1, 'Y', now(), 100, now(), 100)`,
    );
    try {
      assert.deepEqual(byName(await csv('finreport', report(TRIAL_BALANCE), f.user)).get('Total'), before);
      const ledger = await csv('gl_detail', { Account_ID: 12110, C_Period_ID: JUNE }, f.user);
      assert.ok(!ledger.some((r) => r[6] === '1000.00'));
    } finally {
      await f.server.services.db.query('DELETE FROM fact_acct WHERE fact_acct_id = 9999001');
    }
    assert.equal(idOf((await ok('GET', `/api/v1/models/pa_report/${TRIAL_BALANCE}`)).PA_ReportLineSet_ID), 1103102);
  });

  it('a client extends a definition through /models: a line with an account source shows in the next run', async () => {
    const added = await ok('POST', '/api/v1/models/pa_reportline', { PA_ReportLineSet_ID: 1103100, SeqNo: 15, Name: 'Receivables', LineType: 'S', IsPrinted: true });
    const source = await ok('POST', '/api/v1/models/pa_reportsource', { PA_ReportLine_ID: added.id, ElementType: 'AC', C_ElementValue_ID: 12110 });
    assert.equal(idOf(source.C_ElementValue_ID), 12110);
    const sources = await ok('GET', `/api/v1/models/pa_reportsource?$filter=${encodeURIComponent('PA_ReportLine_ID eq 1103130')}`);
    assert.equal(sources.records.length, 8, 'the trial balance reads the eight summary accounts');
    const [{ balance }] = await db<{ balance: number }>(
      `SELECT COALESCE(sum(amtacctdr - amtacctcr), 0)::float8 AS balance FROM fact_acct WHERE ad_client_id = 11 AND account_id = 12110 AND postingtype = 'A' AND dateacct < '2025-07-01'`,
    );
    const lines = byName(await csv('finreport', report(BALANCE_SHEET)));
    assert.equal(lines.get('Receivables')![0], round2(balance));
    assert.equal(lines.get('Total Liabilities and Equity')![0], lines.get('Assets')![0]);
  });
});
