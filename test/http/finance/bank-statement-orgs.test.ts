import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q } from '../documents/document-helpers.js';
import { ACCT, bankCalls } from './bank-helpers.js';

/** C_BankStatement's AD_Table_ID; the demo's HQ checking account (of HQ, 11) and its Store organization (12). */
const STATEMENT_TABLE = 392;
const HQ_CHECKING = 100;
const HQ = 11;
const STORE = 12;
const BANK_CHARGE = 100;

describe('bank statement facts in the bank account organization', () => {
  let server: TestServer;
  let admin: string;
  const { ok, payment } = bankCalls(() => ({ server, token: admin }));
  /** Accounted debit minus credit per account and organization of a statement's facts, as "account@org". */
  const byAccountAndOrg = async (id: number): Promise<Record<string, number>> => {
    const r = await ok('GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${STATEMENT_TABLE} and Record_ID eq ${id}`)}&$orderby=Fact_Acct_ID`);
    const out: Record<string, number> = {};
    for (const f of r.records as Record<string, any>[]) {
      const key = `${String(idOf(f.Account_ID))}@${String(idOf(f.AD_Org_ID))}`;
      out[key] = Math.round(((out[key] ?? 0) + Number(f.AmtAcctDr) - Number(f.AmtAcctCr)) * 100) / 100;
    }
    return out;
  };
  const complete = (id: number) => ok('PUT', `/api/v1/models/c_bankstatement/${id}`, { 'doc-action': 'CO' });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('a Store statement of the HQ account posts bank asset and in-transit in HQ, charges and interest in the Store; void reverses them in the same organizations', async () => {
    const receipt = await payment({ receipt: true, amount: 120, bankAccount: HQ_CHECKING });
    const s = await ok('POST', '/api/v1/models/c_bankstatement', {
      C_BankAccount_ID: HQ_CHECKING, AD_Org_ID: STORE,
      C_BankStatementLine: [{ C_Payment_ID: receipt.id, StmtAmt: 118, C_Charge_ID: BANK_CHARGE }, { StmtAmt: 4, InterestAmt: 4 }],
    });
    await complete(s.id);
    assert.deepEqual(await byAccountAndOrg(s.id), {
      [`${ACCT.bankAsset}@${HQ}`]: 122,
      [`${ACCT.inTransit}@${HQ}`]: -120,
      [`${ACCT.bankCharges}@${STORE}`]: 2,
      [`${ACCT.interestRevenue}@${STORE}`]: -4,
    });
    // The organizations balance together (the original books no inter-organization due-to/due-from for banks).
    const voided = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    const after = await byAccountAndOrg(s.id);
    for (const [key, amount] of Object.entries(after)) assert.equal(amount, 0, `${key} nets to zero after void`);
  });

  it('a bank account of no organization leaves the asset in the statement organization and posts each in-transit in its payment organization', async () => {
    const bank = await ok('POST', '/api/v1/models/c_bankaccount', {
      AD_Org_ID: 0, C_Bank_ID: Number(idOf((await ok('GET', `/api/v1/models/c_bankaccount/${HQ_CHECKING}`)).C_Bank_ID)),
      Name: `Shared ${Date.now()}`, AccountNo: `S${Date.now()}`, C_Currency_ID: 100, BankAccountType: 'C', IsDefault: false,
    });
    const store = await ok('POST', '/api/v1/models/c_payment', {
      AD_Org_ID: STORE, C_BPartner_ID: 117, C_DocType_ID: 119, IsReceipt: true, C_BankAccount_ID: bank.id, PayAmt: 30, C_Currency_ID: 100, TenderType: 'K', 'doc-action': 'CO',
    });
    const hq = await ok('POST', '/api/v1/models/c_payment', {
      AD_Org_ID: HQ, C_BPartner_ID: 117, C_DocType_ID: 119, IsReceipt: true, C_BankAccount_ID: bank.id, PayAmt: 20, C_Currency_ID: 100, TenderType: 'K', 'doc-action': 'CO',
    });
    const s = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: bank.id, AD_Org_ID: HQ, C_BankStatementLine: [{ C_Payment_ID: store.id }, { C_Payment_ID: hq.id }] });
    await complete(s.id);
    assert.deepEqual(await byAccountAndOrg(s.id), {
      [`${ACCT.bankAsset}@${HQ}`]: 50,
      [`${ACCT.inTransit}@${STORE}`]: -30,
      [`${ACCT.inTransit}@${HQ}`]: -20,
    });
  });
});
