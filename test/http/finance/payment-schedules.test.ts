import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { systemLogin } from '../../helpers/login.js';
import { documentCalls, idOf, q } from '../documents/document-helpers.js';
import { csvRows } from '../../helpers/files.js';
import { processCalls } from './process-calls.js';

const VENDOR = 114;
const AP_INVOICE = 123;
const TERM_50_50 = 108;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('payment schedules and installments of invoices', () => {
  const f = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: f.server, token: f.admin }));
  const vendorInvoice = (extra: Record<string, unknown>) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: VENDOR,
      C_DocTypeTarget_ID: AP_INVOICE,
      IsSOTrx: false,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 3, PriceEntered: 33.37, PriceActual: 33.37, C_Tax_ID: 104 }],
      ...extra,
    });
  const { run, runOk } = processCalls(() => ({ server: f.server, token: f.admin }));
  /** Rows of the Open Items report (CSV) of a partner, by column label. */
  const openItems = async (body: Record<string, unknown>) => {
    const out = await runOk('rv_openitem', { ...body, 'report-type': 'CSV' });
    const rows = csvRows(Buffer.from(out.exportFile ?? out.reportFile, 'base64'));
    const header = rows[0]!;
    return rows.slice(1).filter((r) => r.length === header.length && /^\d/.test(r[header.indexOf('Document No')] ?? '')).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!])));
  };
  const installments = async (invoice: number) =>
    (await ok('GET', `/api/v1/models/c_invoicepayschedule?$filter=${q(`C_Invoice_ID eq ${invoice}`)}&$orderby=DueDate`)).records as Record<string, any>[];

  it('the demo 50/50 term has a valid schedule of two installments', async () => {
    const rows = (await ok('GET', `/api/v1/models/c_payschedule?$filter=${q(`C_PaymentTerm_ID eq ${TERM_50_50}`)}&$orderby=NetDays`)).records as Record<string, any>[];
    assert.deepEqual(rows.map((r) => [Number(r.Percentage), r.NetDays, r.IsValid]), [[50, 0, true], [50, 30, true]]);
    assert.equal((await ok('GET', `/api/v1/models/c_paymentterm/${TERM_50_50}`)).IsValid, true);
  });

  it('completing an invoice on the 50/50 term writes its two installments, due at once and in 30 days, adding up to the total', async () => {
    const inv = await vendorInvoice({ C_PaymentTerm_ID: TERM_50_50, PaymentRule: 'P' });
    assert.deepEqual(await installments(inv.id), [], 'a draft has no installments');
    const done = await ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    const total = Number(done.GrandTotal);
    const date = String(done.DateInvoiced).slice(0, 10);
    const rows = await installments(inv.id);
    assert.equal(rows.length, 2);
    assert.equal(Math.round((Number(rows[0]!.DueAmt) + Number(rows[1]!.DueAmt)) * 100) / 100, total);
    assert.equal(Number(rows[0]!.DueAmt), Math.round((total / 2) * 100) / 100, 'the first is half, rounded half up');
    assert.deepEqual(rows.map((r) => String(r.DueDate).slice(0, 10)), [date, addDays(date, 30)]);
    assert.ok(rows.every((r) => r.IsValid === true && r.Processed === true));
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPayScheduleValid, true);
  });

  it('an invoice whose term has no schedule, or whose payment rule is not on credit, gets no installments', async () => {
    const net30 = await vendorInvoice({ C_PaymentTerm_ID: 100, PaymentRule: 'P', 'doc-action': 'CO' });
    assert.deepEqual(await installments(net30.id), []);
    const check = await vendorInvoice({ C_PaymentTerm_ID: TERM_50_50, PaymentRule: 'S', 'doc-action': 'CO' });
    assert.equal(idOf(check.DocStatus), 'CO');
    assert.deepEqual(await installments(check.id), []);
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${check.id}`)).IsPayScheduleValid, false);
  });

  it("a term is valid only while its schedule's percentages add up to 100; an invalid one leaves invoices without installments", async () => {
    const term = await ok('POST', '/api/v1/models/c_paymentterm', { Value: `T${Date.now()}`, Name: 'Thirds', NetDays: 60, PaymentTermUsage: 'B' });
    const first = await ok('POST', '/api/v1/models/c_payschedule', { C_PaymentTerm_ID: term.id, Percentage: 60, NetDays: 10, Discount: 3, DiscountDays: 5, GraceDays: 0 });
    assert.equal((await ok('GET', `/api/v1/models/c_paymentterm/${term.id}`)).IsValid, false);
    const inv = await vendorInvoice({ C_PaymentTerm_ID: term.id, PaymentRule: 'P', 'doc-action': 'CO' });
    assert.deepEqual(await installments(inv.id), [], 'an invalid schedule is not applied');
    await ok('POST', '/api/v1/models/c_payschedule', { C_PaymentTerm_ID: term.id, Percentage: 40, NetDays: 40, Discount: 0, DiscountDays: 0, GraceDays: 0 });
    assert.equal((await ok('GET', `/api/v1/models/c_paymentterm/${term.id}`)).IsValid, true);
    assert.equal((await ok('GET', `/api/v1/models/c_payschedule/${first.id}`)).IsValid, true);
    const valid = await vendorInvoice({ C_PaymentTerm_ID: term.id, PaymentRule: 'P', 'doc-action': 'CO' });
    const rows = await installments(valid.id);
    const total = Number(valid.GrandTotal);
    assert.equal(rows.length, 2);
    assert.equal(Number(rows[0]!.DueAmt), Math.round(total * 0.6 * 100) / 100);
    assert.equal(Number(rows[0]!.DiscountAmt), Math.round(Number(rows[0]!.DueAmt) * 0.03 * 100) / 100, 'the discount of the installment');
    const date = String(valid.DateInvoiced).slice(0, 10);
    assert.equal(String(rows[0]!.DiscountDate).slice(0, 10), addDays(date, 5));
  });

  it('installments stay with their client: the System client reads none of them', async () => {
    const inv = await vendorInvoice({ C_PaymentTerm_ID: TERM_50_50, PaymentRule: 'P', 'doc-action': 'CO' });
    const [one] = await installments(inv.id);
    const system = await systemLogin(f.server);
    const list = await call('GET', `/api/v1/models/c_invoicepayschedule?$filter=${q(`C_Invoice_ID eq ${inv.id}`)}`, undefined, system);
    assert.ok(list.status === 403 || (list.status === 200 && list.body.records.length === 0), `${list.status} ${list.text}`);
    const byId = await call('GET', `/api/v1/models/c_invoicepayschedule/${one!.id}`, undefined, system);
    assert.ok(byId.status === 403 || byId.status === 404, `${byId.status} ${byId.text}`);
  });

  it('the Open Items report lists each open installment with its due date and days due; a fixed due date falls on the term day of a later month', async () => {
    // Days of the current month (its period is open), and the months after it.
    const month = new Date().toISOString().slice(0, 7);
    const later = (months: number) => {
      const d = new Date(Date.parse(`${month}-15T00:00:00Z`));
      d.setUTCMonth(d.getUTCMonth() + months);
      return d.toISOString().slice(0, 10);
    };
    const date = `${month}-05`;
    const statement = `${month}-28`;
    const halves = await vendorInvoice({ C_PaymentTerm_ID: TERM_50_50, PaymentRule: 'P', DateInvoiced: date, DateAcct: date, 'doc-action': 'CO' });
    const fixed = await ok('POST', '/api/v1/models/c_paymentterm', {
      Value: `F${Date.now()}`, Name: '15th of next month', NetDays: 0, IsDueFixed: true, FixMonthDay: 15, FixMonthCutoff: 10, FixMonthOffset: 1, PaymentTermUsage: 'B',
    });
    const early = await vendorInvoice({ C_PaymentTerm_ID: fixed.id, PaymentRule: 'S', DateInvoiced: date, DateAcct: date, 'doc-action': 'CO' });
    const late = await vendorInvoice({ C_PaymentTerm_ID: fixed.id, PaymentRule: 'S', DateInvoiced: `${month}-20`, DateAcct: `${month}-20`, 'doc-action': 'CO' });
    const rows = await openItems({ C_BPartner_ID: VENDOR, IsSOTrx: false, DateAcct: statement });
    const of = (no: string) => rows.filter((r) => r['Document No'] === no);
    assert.deepEqual(of(halves.DocumentNo).map((r) => [r['Due Date'], Number(r['Days Due'])]), [[date, 23], [addDays(date, 30), 23 - 30]]);
    const half = Number(of(halves.DocumentNo)[0]!['Open Amount'].replace(/,/g, ''));
    assert.equal(half, Math.round((Number(halves.GrandTotal) / 2) * 100) / 100);
    assert.deepEqual(of(early.DocumentNo).map((r) => r['Due Date']), [later(1)], 'before the cut-off day: the 15th of the next month');
    assert.deepEqual(of(late.DocumentNo).map((r) => r['Due Date']), [later(2)], 'after the cut-off day: one month later');
    const due = await openItems({ C_BPartner_ID: VENDOR, IsSOTrx: false, DateAcct: statement, OnlyDue: true });
    assert.ok(due.some((r) => r['Document No'] === halves.DocumentNo) && !due.some((r) => r['Document No'] === early.DocumentNo));
    const denied = await run('rv_openitem', { 'report-type': 'CSV' }, f.ws);
    assert.equal(denied.status, 403, denied.text);
  });
});
