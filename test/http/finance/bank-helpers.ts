import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';
import { idOf, q } from '../documents/document-helpers.js';

/** Accounts (C_ElementValue_ID) of the demo chart that bank and cash documents post to. */
export const ACCT = {
  bankAsset: 11100,
  inTransit: 11110,
  unallocated: 11130,
  paymentSelect: 21300,
  bankCharges: 70200,
  interestRevenue: 1101001,
  interestExpense: 1101002,
  cashAsset: 1101003,
  cashTransfer: 1101004,
  cashExpense: 1101005,
  cashReceipt: 1101006,
  cashDifferences: 1101007,
} as const;

export interface FactRow {
  account: number;
  dr: number;
  cr: number;
  line: number | null;
}

/** Calls as a token, the facts of a record and the payments and bank accounts tests read. */
export function bankCalls(at: () => { server: TestServer; token: string }) {
  const call = (method: string, path: string, body?: unknown, token = at().token) => at().server.request(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown, token = at().token) => {
    const r = await call(method, path, body, token);
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  /** The facts of a record of a table (AD_Table_ID), in the order written. */
  const facts = async (tableId: number, id: number): Promise<FactRow[]> => {
    const r = await ok('GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${tableId} and Record_ID eq ${id}`)}&$orderby=Fact_Acct_ID`);
    return r.records.map((f: Record<string, unknown>) => ({ account: Number(idOf(f.Account_ID)), dr: Number(f.AmtAcctDr), cr: Number(f.AmtAcctCr), line: f.Line_ID ? Number(idOf(f.Line_ID)) : null }));
  };
  /** Debit and credit sums per account. */
  const byAccount = (rows: FactRow[]) => {
    const out: Record<number, [number, number]> = {};
    for (const f of rows) {
      const s = (out[f.account] ??= [0, 0]);
      s[0] = Math.round((s[0] + f.dr) * 100) / 100;
      s[1] = Math.round((s[1] + f.cr) * 100) / 100;
    }
    return out;
  };
  const balance = async (bankAccount: number): Promise<number> => Number((await ok('GET', `/api/v1/models/c_bankaccount/${bankAccount}?$select=CurrentBalance`)).CurrentBalance);
  /** A completed payment (receipt or vendor payment) of the bank account. */
  const payment = async (o: { receipt: boolean; amount: number; partner?: number; bankAccount?: number; checkNo?: string }) => {
    const p = await ok('POST', '/api/v1/models/c_payment', {
      C_BPartner_ID: o.partner ?? 117,
      C_DocType_ID: o.receipt ? 119 : 125,
      IsReceipt: o.receipt,
      C_BankAccount_ID: o.bankAccount ?? 100,
      PayAmt: o.amount,
      C_Currency_ID: 100,
      TenderType: 'K',
      ...(o.checkNo ? { CheckNo: o.checkNo } : {}),
      'doc-action': 'CO',
    });
    assert.equal(idOf(p.DocStatus), 'CO');
    return p as { id: number; DocumentNo: string };
  };
  return { call, ok, facts, byAccount, balance, payment };
}

/** Opens or closes (O / C) the period control of today's period for a document base type. */
export async function setTodaysControl(ok: ReturnType<typeof bankCalls>['ok'], base: string, action: 'O' | 'C'): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const periods = await ok('GET', `/api/v1/models/c_period?$filter=${q(`StartDate le '${day}' and EndDate ge '${day}'`)}`);
  const controls = await ok('GET', `/api/v1/models/c_periodcontrol?$filter=${q(`C_Period_ID eq ${periods.records[0].id} and DocBaseType eq '${base}'`)}`);
  const c = controls.records[0];
  await ok('PUT', `/api/v1/models/c_periodcontrol/${c.id}`, { PeriodAction: action });
  await ok('POST', '/api/v1/processes/c_periodcontrol_process', { 'model-name': 'c_periodcontrol', 'record-id': c.id });
}
