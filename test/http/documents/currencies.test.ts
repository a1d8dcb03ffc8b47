import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { documentCalls, idOf } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const EUR = 102;
const USD = 100;
const round2 = (n: number) => Math.round(n * 100) / 100;

describe('documents in another currency than the accounting schema', () => {
  let server: TestServer;
  let token: string;
  const { call, ok } = documentCalls(() => ({ server, token }));
  const stock = stockHelpers(() => ({ server, token }));
  const sums = async (table: string, id: number) => {
    const f = await stock.facts(table, id);
    const total = (c: string) => round2(f.rows.reduce((n, r) => n + Number(r[c]), 0));
    return { source: [total('AmtSourceDr'), total('AmtSourceCr')], acct: [total('AmtAcctDr'), total('AmtAcctCr')], currencies: [...new Set(f.rows.map((r) => idOf(r.C_Currency_ID)))], rows: f.rows };
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('an invoice on the Export price list (EUR) posts euro source amounts and dollars converted at the spot rate (1.1)', async () => {
    const inv = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 116,
      M_PriceList_ID: 103,
      C_InvoiceLine: [
        { M_Product_ID: 128, QtyEntered: 3, C_Tax_ID: 104 },
        { M_Product_ID: 133, QtyEntered: 1, C_Tax_ID: 104 },
      ],
      'doc-action': 'CO',
    });
    assert.equal(idOf(inv.C_Currency_ID), EUR);
    assert.equal(inv.GrandTotal, 81.88);
    const s = await sums('c_invoice', inv.id);
    assert.deepEqual(s.currencies, [EUR]);
    assert.deepEqual(s.source, [81.88, 81.88]);
    assert.deepEqual(s.acct, [90.07, 90.07]);
    const receivable = s.rows.find((r) => Number(idOf(r.Account_ID)) === 12110)!;
    assert.deepEqual([receivable.AmtSourceDr, receivable.AmtAcctDr], [81.88, 90.07]);
    const reversed = await ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'RC' });
    const r = await sums('c_invoice', Number(idOf(reversed.Reversal_ID)));
    assert.deepEqual(r.acct, [-90.07, -90.07], 'the reversal negates the converted amounts');
  });

  it('a payment in euros posts converted amounts; without a rate of its conversion type it is refused and stays drafted', async () => {
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Currency_ID: EUR, PayAmt: 100, 'doc-action': 'CO' });
    assert.equal(idOf(pay.C_Currency_ID), EUR);
    assert.deepEqual((await sums('c_payment', pay.id)).acct, [110, 110]);
    const draft = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Currency_ID: EUR, C_ConversionType_ID: 115, PayAmt: 100 });
    const r = await call('PUT', `/api/v1/models/c_payment/${draft.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /status DR: action CO refused: no conversion rate from EUR to USD on \d{4}-\d{2}-\d{2}/);
    const still = await ok('GET', `/api/v1/models/c_payment/${draft.id}`);
    assert.equal(idOf(still.DocStatus), 'DR');
    assert.equal((await stock.facts('c_payment', draft.id)).count, 0);
    const usd = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Currency_ID: USD, C_ConversionType_ID: 115, PayAmt: 10, 'doc-action': 'CO' });
    assert.equal(idOf(usd.DocStatus), 'CO', 'no rate is needed in the schema currency');
  });
});
