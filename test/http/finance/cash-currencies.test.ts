import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from '../documents/document-helpers.js';
import { ACCT, bankCalls } from './bank-helpers.js';

/** C_Cash's and C_AllocationHdr's AD_Table_ID; the demo's USD cash book; EUR and its spot rate to USD in the demo (1.1). */
const CASH_TABLE = 407;
const ALLOCATION_TABLE = 735;
const BOOK = 101;
const USD = 100;
const EUR = 102;
const EUR_TO_USD = 1.1;
const round2 = (n: number) => Math.round(n * 100) / 100;

interface SourceFact {
  account: number;
  currency: number;
  sourceDr: number;
  sourceCr: number;
  dr: number;
  cr: number;
}

describe('cash journal lines in another currency than the cash book', () => {
  let server: TestServer;
  let admin: string;
  let ws: string;
  const { call, ok } = bankCalls(() => ({ server, token: admin }));
  const factsOf = async (table: number, id: number): Promise<SourceFact[]> => {
    const r = await ok('GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${table} and Record_ID eq ${id}`)}&$orderby=Fact_Acct_ID`);
    return (r.records as Record<string, any>[]).map((f) => ({
      account: Number(idOf(f.Account_ID)), currency: Number(idOf(f.C_Currency_ID)),
      sourceDr: Number(f.AmtSourceDr), sourceCr: Number(f.AmtSourceCr), dr: Number(f.AmtAcctDr), cr: Number(f.AmtAcctCr),
    }));
  };
  /** A completed customer invoice in EUR (the demo's EUR sales price list). */
  const euroInvoice = async () =>
    (await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, IsSOTrx: true, M_PriceList_ID: 103,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, PriceEntered: 40, PriceActual: 40, C_Tax_ID: 104 }], 'doc-action': 'CO',
    })) as { id: number; GrandTotal: number; C_Currency_ID: unknown };

  before(async () => {
    server = await startTestServer();
    ({ admin, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('an invoice line in EUR keeps its currency, counts converted in the balance, posts asset and cash transfer in EUR at the rate, and its allocation clears the cash transfer; void undoes it', async () => {
    const inv = await euroInvoice();
    assert.equal(Number(idOf(inv.C_Currency_ID)), EUR);
    const euros = Number(inv.GrandTotal);
    const j = await ok('POST', '/api/v1/models/c_cash', { C_CashBook_ID: BOOK, C_CashLine: [{ CashType: 'I', C_Invoice_ID: inv.id }, { CashType: 'R', Amount: 10 }] });
    const read = await ok('GET', `/api/v1/models/c_cash/${j.id}?$expand=${q('C_CashLine($orderby=Line)')}`);
    const lines = read.C_CashLine as Record<string, any>[];
    assert.deepEqual(lines.map((l) => [idOf(l.CashType), Number(idOf(l.C_Currency_ID)), Number(l.Amount)]), [['I', EUR, euros], ['R', USD, 10]]);
    const dollars = round2(euros * EUR_TO_USD);
    assert.equal(Number(read.StatementDifference), round2(dollars + 10), 'the difference counts the EUR line in USD');

    const done = await ok('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}?$select=IsPaid`)).IsPaid, true);
    const facts = await factsOf(CASH_TABLE, j.id);
    const inEuro = facts.filter((f) => f.currency === EUR).map((f) => [f.account, f.sourceDr, f.sourceCr, f.dr, f.cr]);
    assert.deepEqual(inEuro.sort(), [[ACCT.cashAsset, euros, 0, dollars, 0], [ACCT.cashTransfer, 0, euros, 0, dollars]].sort());
    const inDollars = facts.filter((f) => f.currency === USD).map((f) => [f.account, f.dr, f.cr]);
    assert.deepEqual(inDollars.sort(), [[ACCT.cashAsset, 10, 0], [ACCT.cashReceipt, 0, 10]].sort());

    const [allocation] = (await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${inv.id}`)}`)).records as Record<string, any>[];
    const allocationFacts = await factsOf(ALLOCATION_TABLE, Number(idOf(allocation!.C_AllocationHdr_ID)));
    const transfer = [...facts, ...allocationFacts].filter((f) => f.account === ACCT.cashTransfer).reduce((n, f) => n + f.dr - f.cr, 0);
    assert.equal(round2(transfer), 0, 'the cash transfer account clears between the journal and its allocation');

    const voided = await ok('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}?$select=IsPaid`)).IsPaid, false);
    const reversal = (await ok('GET', `/api/v1/models/c_cash?$filter=${q(`DocStatus eq 'RE' and StatementDifference eq ${-Number(voided.StatementDifference)}`)}`)).records[0];
    const all = [...facts, ...(await factsOf(CASH_TABLE, reversal.id))];
    for (const account of [ACCT.cashAsset, ACCT.cashTransfer, ACCT.cashReceipt]) {
      const own = all.filter((f) => f.account === account);
      assert.equal(round2(own.reduce((n, f) => n + f.dr - f.cr, 0)), 0, `account ${account} nets to zero`);
      assert.equal(round2(own.reduce((n, f) => n + f.sourceDr - f.sourceCr, 0)), 0, `account ${account} nets to zero in source`);
    }
  });

  it('refuses a line whose currency has no rate to the cash book on the journal date, writing nothing', async () => {
    const inv = await euroInvoice();
    const j = await ok('POST', '/api/v1/models/c_cash', { C_CashBook_ID: BOOK, C_CashLine: [{ CashType: 'I', C_Invoice_ID: inv.id }] });
    const rates = await ok('GET', `/api/v1/models/c_conversion_rate?$filter=${q(`C_Currency_ID eq ${EUR} and C_Currency_ID_To eq ${USD}`)}`);
    for (const r of rates.records) await ok('PUT', `/api/v1/models/c_conversion_rate/${r.id}`, { IsActive: false });
    try {
      const r = await call('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'CO' });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /no conversion rate from EUR to USD/);
      assert.equal(idOf((await ok('GET', `/api/v1/models/c_cash/${j.id}`)).DocStatus), 'DR');
      assert.equal((await factsOf(CASH_TABLE, j.id)).length, 0);
      assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}?$select=IsPaid`)).IsPaid, false);
    } finally {
      for (const r of rates.records) await ok('PUT', `/api/v1/models/c_conversion_rate/${r.id}`, { IsActive: true });
    }
  });

  it('the least privileged role cannot complete a journal with a line in another currency of an organization it may not write', async () => {
    const inv = await euroInvoice();
    const j = await ok('POST', '/api/v1/models/c_cash', { C_CashBook_ID: BOOK, AD_Org_ID: 50001, C_CashLine: [{ CashType: 'I', C_Invoice_ID: inv.id }] });
    const r = await call('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'CO' }, ws);
    assert.ok(r.status === 403 || r.status === 404, r.text);
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_cash/${j.id}`)).DocStatus), 'DR');
  });
});
