import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';
import { csvRows } from '../../helpers/files.js';
import { idOf, q } from './document-helpers.js';

export const ACCOUNT = {
  unallocated: 11130,
  receivable: 12110,
  liability: 21100,
  paymentSelection: 21300,
  discountExpense: 59300,
  discountRevenue: 79300,
  writeOff: 67800,
  realizedGain: 80540,
  realizedLoss: 82540,
} as const;

export const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Reads of the books as a client makes them: a document's facts by account, a partner's balance
 * on an account, the open items of the Business Partner Open Items report.
 */
export function booksHelpers(at: () => { server: TestServer; token: string }) {
  const get = async (path: string, token = at().token) => {
    const r = await at().server.request('GET', path, { token });
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.body;
  };
  const ok = async (method: string, path: string, body?: unknown, token = at().token) => {
    const r = await at().server.request(method, path, { token, body });
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  /** The facts of a document ($expand=fact_acct.record_id). */
  const factsOf = async (table: string, id: number): Promise<Record<string, any>[]> => {
    const body = await get(`/api/v1/models/${table}/${id}?$expand=fact_acct.record_id`);
    return (body['fact_acct.record_id'] ?? body.fact_acct ?? []) as Record<string, any>[];
  };
  /**
   * Debit minus credit (accounted) per account of a document's facts, after checking that they
   * balance and that every fact names a business partner (the ones given, when given).
   */
  const byAccount = async (table: string, id: number, partners?: number[]): Promise<Record<number, number>> => {
    const facts = await factsOf(table, id);
    const dr = round2(facts.reduce((n, f) => n + Number(f.AmtAcctDr), 0));
    const cr = round2(facts.reduce((n, f) => n + Number(f.AmtAcctCr), 0));
    assert.equal(dr, cr, `${table} ${id}: debits = credits`);
    const out: Record<number, number> = {};
    for (const f of facts) {
      const partner = idOf(f.C_BPartner_ID);
      assert.ok(partner, `${table} ${id}: the fact on ${String(idOf(f.Account_ID))} names a business partner`);
      if (partners) assert.ok(partners.includes(Number(partner)), `${table} ${id}: the fact on ${String(idOf(f.Account_ID))} names partner ${String(partner)}`);
      const account = Number(idOf(f.Account_ID));
      out[account] = round2((out[account] ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr));
    }
    for (const [k, v] of Object.entries(out)) if (v === 0) delete out[Number(k)];
    return out;
  };
  /** A partner's balance (debit minus credit, accounted) on an account over all its facts. */
  const ledger = async (partner: number, account: number): Promise<number> => {
    const body = await get(`/api/v1/models/fact_acct?$filter=${q(`C_BPartner_ID eq ${partner} and Account_ID eq ${account}`)}&$select=AmtAcctDr,AmtAcctCr&$top=1000`);
    return round2((body.records as Record<string, any>[]).reduce((n, f) => n + Number(f.AmtAcctDr) - Number(f.AmtAcctCr), 0));
  };
  /** Open amounts of a partner's completed invoices and credit memos by document number (Business Partner Open Items). */
  const openItems = async (partner: number, sales: boolean): Promise<Record<string, number>> => {
    const r = await at().server.request('POST', '/api/v1/processes/rv_bpartneropen', { token: at().token, body: { C_BPartner_ID: String(partner), IsSOTrx: sales, 'report-type': 'CSV' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    // A report in another format than PDF comes back as the export file, as the original's report engine hands it over.
    const rows = csvRows(Buffer.from(r.body.exportFile, 'base64'));
    const header = rows[0]!;
    const no = header.indexOf('Document No');
    const open = header.indexOf('Open Amount');
    assert.ok(no >= 0 && open >= 0, header.join(','));
    const out: Record<string, number> = {};
    for (const row of rows.slice(1)) if (row[no] && /^\d/.test(row[no]!)) out[row[no]!] = Number(String(row[open]).replace(/,/g, ''));
    return out;
  };
  const invoice = (id: number) => get(`/api/v1/models/c_invoice/${id}`);
  const payment = (id: number) => get(`/api/v1/models/c_payment/${id}`);
  return { get, ok, factsOf, byAccount, ledger, openItems, invoice, payment };
}
