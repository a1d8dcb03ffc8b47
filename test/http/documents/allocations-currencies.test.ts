import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, today } from './document-helpers.js';
import { ACCOUNT, booksHelpers } from './books-helpers.js';

const USD = 100;
const EUR = 102;
const JPY = 113;
const SPOT = 114;
const PERIOD_END = 115;
const AVERAGE = 116;
const COMPANY = 201;

const yesterday = (): string => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/**
 * Realized exchange differences: an allocation clears the receivable or payable of an invoice in
 * another currency exactly at what the invoice posted, and the difference goes to the schema's
 * realized gain or loss account, as the original's Doc_AllocationHdr does.
 */
describe('allocations in other currencies', () => {
  const fx = serverWithDemoRoles();
  const books = booksHelpers(() => ({ server: fx.server, token: fx.admin }));
  const { ok, byAccount, ledger } = books;

  const rate = (from: number, to: number, type: number, multiply: number, validFrom: string) =>
    ok('POST', '/api/v1/models/c_conversion_rate', {
      AD_Org_ID: 0,
      C_Currency_ID: from,
      C_Currency_ID_To: to,
      C_ConversionType_ID: type,
      MultiplyRate: multiply,
      DivideRate: Math.round((1 / multiply) * 1e12) / 1e12,
      ValidFrom: validFrom,
      ValidTo: '2099-12-31',
    });
  /** A completed invoice in euros of 4 × 25 (no tax) or `qty` × `price`. */
  const euroInvoice = (sales: boolean, partner: number, more: Record<string, unknown> = {}, qty = 4, price = 25) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partner,
      C_DocTypeTarget_ID: sales ? 116 : 123,
      IsSOTrx: sales,
      M_PriceList_ID: sales ? 103 : 200000,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: qty, PriceEntered: price, PriceActual: price, C_Tax_ID: 104 }],
      ...more,
      'doc-action': 'CO',
    });
  const pay = (partner: number, receipt: boolean, currency: number, amount: number, type: number) =>
    ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: partner, IsReceipt: receipt, C_Currency_ID: currency, C_ConversionType_ID: type, PayAmt: amount, 'doc-action': 'CO' });
  const allocate = (currency: number, lines: Record<string, unknown>[]) =>
    fx.server.request('POST', '/api/v1/models/c_allocationhdr', { token: fx.admin, body: { C_Currency_ID: currency, C_AllocationLine: lines, 'doc-action': 'CO' } });
  const allocated = async (currency: number, lines: Record<string, unknown>[]) => {
    const r = await allocate(currency, lines);
    assert.equal(r.status, 201, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    return r.body;
  };
  /** The facts of the realized gain or loss of a document: in the schema's currency, naming the partner. */
  const exchangeFacts = async (allocationId: number) =>
    (await books.factsOf('c_allocationhdr', allocationId))
      .filter((f) => ([ACCOUNT.realizedGain, ACCOUNT.realizedLoss] as number[]).includes(Number(idOf(f.Account_ID))))
      .map((f) => ({ account: Number(idOf(f.Account_ID)), currency: Number(idOf(f.C_Currency_ID)), partner: Number(idOf(f.C_BPartner_ID)), dr: f.AmtAcctDr, cr: f.AmtAcctCr, sourceDr: f.AmtSourceDr, sourceCr: f.AmtSourceCr }));

  before(async () => {
    await rate(EUR, USD, PERIOD_END, 1.35, '2003-01-01');
    await rate(EUR, USD, AVERAGE, 1.1, '2003-01-01');
    await rate(EUR, USD, AVERAGE, 1.25, today());
    await rate(USD, EUR, AVERAGE, 0.8, today());
    await rate(EUR, USD, COMPANY, 1.1, '2003-01-01');
    await rate(EUR, USD, COMPANY, 1, today());
  });

  it('an invoice in euros paid at another rate: the receivable is cleared exactly, the difference is a realized gain', async () => {
    const partner = 50004;
    const inv = await euroInvoice(true, partner);
    assert.equal(idOf(inv.C_Currency_ID), EUR);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 110, '100 EUR at the spot rate 1.1');
    const receipt = await pay(partner, true, EUR, 100, PERIOD_END);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -135, '100 EUR at the period-end rate 1.35');
    const alloc = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 100 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id, [partner]), { [ACCOUNT.unallocated]: 135, [ACCOUNT.receivable]: -110, [ACCOUNT.realizedGain]: -25 });
    assert.deepEqual(await exchangeFacts(alloc.id), [{ account: ACCOUNT.realizedGain, currency: USD, partner, dr: 0, cr: 25, sourceDr: 0, sourceCr: 25 }]);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0, 'no receivable is left in dollars');
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    assert.equal((await books.payment(receipt.id)).IsAllocated, true);

    // The reversal of the allocation takes the gain back and opens the invoice again.
    const rc = await ok('PUT', `/api/v1/models/c_allocationhdr/${alloc.id}`, { 'doc-action': 'RC' });
    assert.deepEqual(await byAccount('c_allocationhdr', Number(idOf(rc.Reversal_ID)), [partner]), { [ACCOUNT.unallocated]: -135, [ACCOUNT.receivable]: 110, [ACCOUNT.realizedGain]: 25 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 110);
    assert.equal((await books.invoice(inv.id)).IsPaid, false);

    // Paid again at the invoice's own rate: what the reversed allocation moved counts for nothing.
    const spot = await pay(partner, true, EUR, 100, SPOT);
    const again = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: spot.id, Amount: 100 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', again.id, [partner]), { [ACCOUNT.unallocated]: 110, [ACCOUNT.receivable]: -110 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -135, 'the first receipt is unallocated again');
  });

  it('a vendor invoice in euros paid at a dearer rate: the payable is cleared exactly, the difference is a realized loss', async () => {
    const partner = 50000;
    const inv = await euroInvoice(false, partner);
    assert.equal(idOf(inv.C_Currency_ID), EUR);
    const payment = await pay(partner, false, EUR, 100, PERIOD_END);
    const alloc = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: payment.id, Amount: -100 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id, [partner]), { [ACCOUNT.liability]: 110, [ACCOUNT.paymentSelection]: -135, [ACCOUNT.realizedLoss]: 25 });
    assert.equal(await ledger(partner, ACCOUNT.liability), 0);
    assert.equal(await ledger(partner, ACCOUNT.paymentSelection), 0);
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
  });

  it('an allocation in dollars of an invoice in euros: the lines are converted to euros at the allocation date', async () => {
    const partner = 50005;
    const inv = await euroInvoice(true, partner, { C_ConversionType_ID: AVERAGE, DateInvoiced: yesterday(), DateAcct: yesterday() });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 110, 'yesterday at 1.1');
    const receipt = await pay(partner, true, USD, 125, SPOT);
    // 100 USD are 80 EUR today: the invoice stays open for 20 EUR, its receivable for its share of 110 USD.
    const part = await allocated(USD, [{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 100 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', part.id, [partner]), { [ACCOUNT.unallocated]: 100, [ACCOUNT.receivable]: -88, [ACCOUNT.realizedGain]: -12 });
    assert.equal((await books.invoice(inv.id)).IsPaid, false);
    assert.deepEqual(await books.openItems(partner, true), { [inv.DocumentNo]: 20 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 22);
    const rest = await allocated(USD, [{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 25 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', rest.id, [partner]), { [ACCOUNT.unallocated]: 25, [ACCOUNT.receivable]: -22, [ACCOUNT.realizedGain]: -3 });
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
    assert.equal((await books.payment(receipt.id)).IsAllocated, true);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
  });

  it('partial payments at a lower rate: each takes its share of the receivable, the last one what is left; the differences are losses', async () => {
    const partner = 50006;
    const inv = await euroInvoice(true, partner, { C_ConversionType_ID: COMPANY, DateInvoiced: yesterday(), DateAcct: yesterday() }, 3, 25.33);
    assert.equal(inv.GrandTotal, 75.99);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 83.59, '75.99 EUR at 1.1');
    const first = await pay(partner, true, EUR, 38, COMPANY);
    const a1 = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: first.id, Amount: 38 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', a1.id, [partner]), { [ACCOUNT.unallocated]: 38, [ACCOUNT.receivable]: -41.8, [ACCOUNT.realizedLoss]: 3.8 });
    const second = await pay(partner, true, EUR, 37.99, COMPANY);
    const a2 = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: second.id, Amount: 37.99 }]);
    assert.deepEqual(await byAccount('c_allocationhdr', a2.id, [partner]), { [ACCOUNT.unallocated]: 37.99, [ACCOUNT.receivable]: -41.79, [ACCOUNT.realizedLoss]: 3.8 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0, 'cleared to the cent');
    assert.equal(await ledger(partner, ACCOUNT.realizedLoss), 7.6);
    assert.equal((await books.invoice(inv.id)).IsPaid, true);
  });

  it('an invoice and a payment of yesterday allocated today: the gain on the invoice and the loss on the payment both post, and cancel out', async () => {
    const partner = 50008;
    const inv = await euroInvoice(true, partner, { C_ConversionType_ID: AVERAGE, DateInvoiced: yesterday(), DateAcct: yesterday() });
    const receipt = await ok('POST', '/api/v1/models/c_payment', {
      C_BPartner_ID: partner, IsReceipt: true, C_Currency_ID: EUR, C_ConversionType_ID: AVERAGE, PayAmt: 100, DateTrx: yesterday(), DateAcct: yesterday(), 'doc-action': 'CO',
    });
    assert.equal(await ledger(partner, ACCOUNT.unallocated), -110, 'yesterday at 1.1');
    const alloc = await allocated(EUR, [{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 100 }]);
    // Converted today at 1.25: the receivable and the unallocated receipts are both corrected back to 110.
    assert.deepEqual(await byAccount('c_allocationhdr', alloc.id, [partner]), { [ACCOUNT.unallocated]: 110, [ACCOUNT.receivable]: -110, [ACCOUNT.realizedGain]: -15, [ACCOUNT.realizedLoss]: 15 });
    assert.equal(await ledger(partner, ACCOUNT.receivable), 0);
    assert.equal(await ledger(partner, ACCOUNT.unallocated), 0);
  });

  it('refuses an allocation whose currency has no rate to a document of it, and changes nothing', async () => {
    const partner = 50007;
    const inv = await euroInvoice(true, partner);
    const receipt = await pay(partner, true, EUR, 100, SPOT);
    const r = await allocate(JPY, [{ C_Invoice_ID: inv.id, C_Payment_ID: receipt.id, Amount: 13000 }]);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /action CO refused: no conversion rate from JPY to EUR on \d{4}-\d{2}-\d{2} for invoice/);
    assert.equal((await books.invoice(inv.id)).IsPaid, false);
    assert.equal((await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${inv.id}`)}`)).records.length, 0);
    assert.equal(await ledger(partner, ACCOUNT.receivable), 110);
  });
});
