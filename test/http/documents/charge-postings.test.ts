import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from './document-helpers.js';

/** Accounts (C_ElementValue_ID) of the demo chart. */
const ACCT = {
  receivable: 12110,
  liability: 21100,
  revenue: 41000,
  expense: 51200,
  inTransit: 11110,
  unallocated: 11130,
  paymentSelect: 21300,
  bankCharges: 70200,
  chargeExpense: 79600,
} as const;

/** The demo charges and their accounts (C_Charge_Acct.Ch_Expense_Acct). */
const BANK = 100;
const COMMISSIONS = 101;

interface Fact {
  account: number;
  dr: number;
  cr: number;
  line: number | null;
}

describe('charges post to their own account', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  /** The facts of a document (AD_Table_ID 318 invoices, 335 payments). */
  const factsOf = async (tableId: number, id: number): Promise<Fact[]> => {
    const r = await as(admin, 'GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${tableId} and Record_ID eq ${id}`)}&$orderby=Fact_Acct_ID`);
    assert.equal(r.status, 200, r.text);
    return r.body.records.map((f: Record<string, unknown>) => ({ account: Number(idOf(f.Account_ID)), dr: Number(f.AmtAcctDr), cr: Number(f.AmtAcctCr), line: f.Line_ID ? Number(idOf(f.Line_ID)) : null }));
  };
  const balanced = (facts: Fact[]) => {
    const dr = facts.reduce((s, f) => s + f.dr, 0);
    const cr = facts.reduce((s, f) => s + f.cr, 0);
    assert.ok(Math.abs(dr - cr) < 0.005, `debits ${dr} = credits ${cr}`);
  };
  const onAccount = (facts: Fact[], account: number) => facts.filter((f) => f.account === account).map((f) => [f.dr, f.cr]);

  /** A completed invoice of one charge line at `price` (and a product line when asked). */
  const chargeInvoice = async (token: string, docType: number, partner: number, charge: number, price: number, withProduct = false) => {
    const r = await as(token, 'POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: docType,
      C_InvoiceLine: [{ C_Charge_ID: charge, QtyEntered: 1, PriceEntered: price, PriceActual: price }, ...(withProduct ? [{ M_Product_ID: 128, QtyEntered: 1 }] : [])],
      'doc-action': 'CO',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    return r.body;
  };

  before(async () => {
    server = await startTestServer();
    ({ admin, user } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('the demo charges have their accounts (C_Charge_Acct)', async () => {
    const r = await as(user, 'GET', '/api/v1/models/c_charge_acct');
    assert.equal(r.status, 200, r.text);
    const byCharge = new Map(r.body.records.map((x: Record<string, unknown>) => [idOf(x.C_Charge_ID), idOf(x.Ch_Expense_Acct)]));
    assert.deepEqual([...byCharge.keys()].sort(), [100, 101, 200000]);
    assert.equal(byCharge.get(BANK), ACCT.bankCharges);
    assert.equal(byCharge.get(COMMISSIONS), ACCT.chargeExpense);
  });

  it('a customer invoice credits the charge account, not Trade Revenue (least privileged writer)', async () => {
    const inv = await chargeInvoice(user, 116, 118, BANK, 40, true);
    const facts = await factsOf(318, inv.id);
    balanced(facts);
    const chargeLine = inv.C_InvoiceLine[0].id;
    assert.deepEqual(facts.filter((f) => f.line === chargeLine && f.dr + f.cr !== 0).map((f) => [f.account, f.dr, f.cr]), [[ACCT.bankCharges, 0, 40]]);
    assert.deepEqual(onAccount(facts, ACCT.revenue), [[0, inv.C_InvoiceLine[1].LineNetAmt]], 'the product line keeps its revenue account');
    assert.equal(onAccount(facts, ACCT.receivable).length, 1);
  });

  it('a vendor invoice debits the charge account; a credit memo takes the other side; a reversal too', async () => {
    const inv = await chargeInvoice(admin, 123, 114, COMMISSIONS, 25);
    const facts = await factsOf(318, inv.id);
    balanced(facts);
    assert.deepEqual(onAccount(facts, ACCT.chargeExpense), [[25, 0]]);
    assert.deepEqual(onAccount(facts, ACCT.expense), [], 'no product expense');
    assert.equal(onAccount(facts, ACCT.liability)[0]![1], inv.GrandTotal);

    const memo = await chargeInvoice(admin, 118, 118, COMMISSIONS, 12);
    const memoFacts = await factsOf(318, memo.id);
    balanced(memoFacts);
    assert.deepEqual(onAccount(memoFacts, ACCT.chargeExpense), [[12, 0]], 'a customer credit memo debits the charge account');
    assert.deepEqual(onAccount(memoFacts, ACCT.revenue), []);

    const reversed = await as(admin, 'PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    assert.equal(reversed.status, 200, reversed.text);
    const back = await factsOf(318, Number(idOf(reversed.body.Reversal_ID)));
    balanced(back);
    assert.deepEqual(onAccount(back, ACCT.chargeExpense), [[-25, 0]]);
  });

  it('a charge without accounts posts to the default revenue or expense account, as the original', async () => {
    const charge = await as(admin, 'POST', '/api/v1/models/c_charge', { Name: 'Handling without accounts', C_TaxCategory_ID: 107 });
    assert.equal(charge.status, 201, charge.text);
    const inv = await chargeInvoice(admin, 116, 118, charge.body.id, 9);
    const facts = await factsOf(318, inv.id);
    balanced(facts);
    assert.deepEqual(onAccount(facts, ACCT.revenue), [[0, 9]]);
  });

  it('a charge receipt credits and a charge payment debits the charge account, allocated at once', async () => {
    const receipt = await as(user, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Charge_ID: BANK, PayAmt: 15, 'doc-action': 'CO' });
    assert.equal(receipt.status, 201, receipt.text);
    assert.equal(receipt.body.IsAllocated, true);
    const rf = await factsOf(335, receipt.body.id);
    balanced(rf);
    assert.deepEqual(rf.map((f) => [f.account, f.dr, f.cr]), [
      [ACCT.inTransit, 15, 0],
      [ACCT.bankCharges, 0, 15],
    ]);
    const payment = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 114, IsReceipt: false, C_Charge_ID: COMMISSIONS, PayAmt: 30, 'doc-action': 'CO' });
    assert.equal(payment.status, 201, payment.text);
    assert.equal(payment.body.IsAllocated, true);
    assert.deepEqual((await factsOf(335, payment.body.id)).map((f) => [f.account, f.dr, f.cr]), [
      [ACCT.chargeExpense, 30, 0],
      [ACCT.inTransit, 0, 30],
    ]);
    const reversed = await as(admin, 'PUT', `/api/v1/models/c_payment/${payment.body.id}`, { 'doc-action': 'RC' });
    assert.equal(reversed.status, 200, reversed.text);
    assert.deepEqual(onAccount(await factsOf(335, Number(idOf(reversed.body.Reversal_ID))), ACCT.chargeExpense), [[-30, 0]]);
  });

  it('a payment with a charge pays no invoice: the charge clears it, and the invoice stays open', async () => {
    const inv = await chargeInvoice(admin, 116, 118, BANK, 20);
    const pay = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Invoice_ID: inv.id, C_Charge_ID: BANK, PayAmt: 20, 'doc-action': 'CO' });
    assert.equal(pay.status, 201, pay.text);
    assert.equal(pay.body.C_Invoice_ID, undefined, pay.text);
    const after = await as(admin, 'GET', `/api/v1/models/c_invoice/${inv.id}`);
    assert.equal(after.body.IsPaid, false);
    assert.deepEqual(onAccount(await factsOf(335, pay.body.id), ACCT.unallocated), [], 'no unallocated cash');
    const changed = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Invoice_ID: inv.id, PayAmt: 5 });
    assert.equal(changed.status, 201, changed.text);
    const withCharge = await as(admin, 'PUT', `/api/v1/models/c_payment/${changed.body.id}`, { C_Charge_ID: BANK });
    assert.equal(withCharge.status, 200, withCharge.text);
    assert.equal(withCharge.body.C_Invoice_ID, undefined, 'naming a charge later clears the invoice too');
  });

  it('refuses to complete a charge payment whose charge has no account', async () => {
    const charge = await as(admin, 'POST', '/api/v1/models/c_charge', { Name: 'Fee without accounts', C_TaxCategory_ID: 107 });
    assert.equal(charge.status, 201, charge.text);
    const pay = await as(admin, 'POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Charge_ID: charge.body.id, PayAmt: 7 });
    assert.equal(pay.status, 201, pay.text);
    const done = await as(admin, 'PUT', `/api/v1/models/c_payment/${pay.body.id}`, { 'doc-action': 'CO' });
    assert.equal(done.status, 400, done.text);
    assert.equal(done.body.title, 'Failed Processing Document');
    assert.match(done.body.detail, /charge \d+ has no account \(C_Charge_Acct\)/);
    assert.equal(idOf((await as(admin, 'GET', `/api/v1/models/c_payment/${pay.body.id}`)).body.DocStatus), 'DR');
    assert.deepEqual(await factsOf(335, pay.body.id), []);
  });
});
