/**
 * Each invariant of the books finds what breaks it: books made wrong behind the service's back
 * (straight in the database, as no request can) are reported, with what and by how much, and
 * nothing is reported once they are right again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { BOOKS_INVARIANTS, booksViolations, type Violation } from '../../../src/documents/invariants/books-invariants.js';
import { documentCalls } from './document-helpers.js';

const CLIENT = 11;
const RECEIVABLE = 12110;
const REVENUE = 41000;

describe('invariants of the books find what breaks them', () => {
  let server: TestServer;
  let token: string;
  const { ok } = documentCalls(() => ({ server, token }));
  const sql = async (text: string, params: unknown[] = []) => (await server.services.db.query<Record<string, any>>(text, params)).rows;
  const check = (name: keyof typeof BOOKS_INVARIANTS) => BOOKS_INVARIANTS[name]!(server.services.db, CLIENT);
  const found = (): Promise<Violation[]> => booksViolations(server.services.db, CLIENT);
  let invoice: Record<string, any>;
  let order: Record<string, any>;

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    order = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 5 }], 'doc-action': 'CO' });
    invoice = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, IsSOTrx: true, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, PriceEntered: 30, PriceActual: 30 }], 'doc-action': 'CO' });
    const shipped = await ok('POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: 133, MovementQty: 3 }], 'doc-action': 'CO' });
    assert.ok(shipped.id);
  });
  after(async () => {
    await server.close();
  });

  it('the books of the demo and of documents made through the API agree', async () => {
    assert.deepEqual(await found(), []);
  });

  it('a one-sided fact: the document no longer balances, nor the partner against its invoices', async () => {
    const [fact] = await sql(`SELECT fact_acct_id FROM fact_acct WHERE record_id = $1 AND account_id = $2 AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_Invoice')`, [invoice.id, RECEIVABLE]);
    await sql(`UPDATE fact_acct SET amtacctdr = amtacctdr + 1, amtsourcedr = amtsourcedr + 1 WHERE fact_acct_id = $1`, [fact!.fact_acct_id]);
    const ledger = await check('balancedDocuments');
    assert.deepEqual(ledger.map((v) => [v.check, v.subject.record, Number(v.expected) - Number(v.actual)]), [
      ['balanced-document', invoice.id, 1],
      ['balanced-source', invoice.id, 1],
    ]);
    const partners = await check('partnerBalances');
    assert.deepEqual(partners.map((v) => [v.subject.partner, v.subject.account, Number(v.actual) - Number(v.expected)]), [[118, 'receivable', 1]]);
    await sql(`UPDATE fact_acct SET amtacctdr = amtacctdr - 1, amtsourcedr = amtsourcedr - 1 WHERE fact_acct_id = $1`, [fact!.fact_acct_id]);
    assert.deepEqual(await found(), []);
  });

  it('a balanced posting to receivables of another partner: the documents balance, the partners do not', async () => {
    const [fact] = await sql(`SELECT fact_acct_id FROM fact_acct WHERE record_id = $1 AND account_id = $2 AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_Invoice')`, [invoice.id, REVENUE]);
    await sql(`UPDATE fact_acct SET c_bpartner_id = 117, account_id = $2 WHERE fact_acct_id = $1`, [fact!.fact_acct_id, RECEIVABLE]);
    assert.deepEqual(await check('balancedDocuments'), []);
    const partners = await check('partnerBalances');
    assert.deepEqual(partners.map((v) => [v.subject.partner, v.subject.account, Number(v.actual) - Number(v.expected)]), [[117, 'receivable', -60]]);
    await sql(`UPDATE fact_acct SET c_bpartner_id = 118, account_id = $2 WHERE fact_acct_id = $1`, [fact!.fact_acct_id, REVENUE]);
    assert.deepEqual(await found(), []);
  });

  it('a transaction that does not match the stock it moved', async () => {
    const off = async (product: number, locator: number) => {
      const v = (await check('onHand')).find((x) => x.subject.product === product && x.subject.locator === locator);
      return v ? Number(v.actual) - Number(v.expected) : 0;
    };
    const [t] = await sql(`SELECT m_transaction_id, m_product_id, m_locator_id FROM m_transaction WHERE m_product_id = 133 ORDER BY m_transaction_id DESC LIMIT 1`);
    const locator = Number(t!.m_locator_id);
    assert.equal(await off(133, locator), 0, 'the stock agrees to begin with');
    const before = 0;
    await sql(`UPDATE m_transaction SET movementqty = movementqty - 2 WHERE m_transaction_id = $1`, [t!.m_transaction_id]);
    assert.equal(await off(133, locator), before + 2);
    await sql(`UPDATE m_transaction SET movementqty = movementqty + 2 WHERE m_transaction_id = $1`, [t!.m_transaction_id]);
    assert.equal(await off(133, locator), before);
    await sql(`UPDATE m_storageonhand SET qtyonhand = qtyonhand + 3 WHERE m_product_id = 133 AND m_locator_id = $1 AND datematerialpolicy = (SELECT min(datematerialpolicy) FROM m_storageonhand WHERE m_product_id = 133 AND m_locator_id = $1)`, [locator]);
    assert.equal(await off(133, locator), before + 3);
    await sql(`UPDATE m_storageonhand SET qtyonhand = qtyonhand - 3 WHERE m_product_id = 133 AND m_locator_id = $1 AND datematerialpolicy = (SELECT min(datematerialpolicy) FROM m_storageonhand WHERE m_product_id = 133 AND m_locator_id = $1)`, [locator]);
    assert.equal(await off(133, locator), before);
  });

  it('a stock value that is not what the product asset account says, and a cost quantity that is not what is on hand', async () => {
    const cost = async (set: string) => sql(`UPDATE m_cost SET ${set} WHERE ad_client_id = $1 AND m_product_id = 133 AND m_costelement_id = 100`, [CLIENT]);
    await cost('currentcostprice = currentcostprice + 1');
    const value = await check('stockValue');
    assert.deepEqual(value.map((v) => [v.check, v.subject.product]), [['stock-value', 133]]);
    assert.equal(Number(value[0]!.actual) - Number(value[0]!.expected), Number((await sql('SELECT currentqty FROM m_cost WHERE m_product_id = 133 AND m_costelement_id = 100'))[0]!.currentqty));
    await cost('currentcostprice = currentcostprice - 1');
    await cost('currentqty = currentqty + 2');
    assert.deepEqual((await check('stockValue')).map((v) => [v.check, v.subject.product, Number(v.actual) - Number(v.expected)]), [['cost-quantity', 133, 2]]);
    await cost('currentqty = currentqty - 2');
    assert.deepEqual(await found(), []);
  });

  it('a reservation that does not follow its order lines, and an order line that does not reserve what it owes', async () => {
    await sql(`UPDATE m_storagereservation SET qty = qty + 4 WHERE m_product_id = 128 AND m_warehouse_id = 103 AND issotrx = 'Y'`);
    assert.deepEqual((await check('reservations')).map((v) => [v.subject.product, v.subject.sales, Number(v.actual) - Number(v.expected)]), [[128, 'Y', 4]]);
    await sql(`UPDATE m_storagereservation SET qty = qty - 4 WHERE m_product_id = 128 AND m_warehouse_id = 103 AND issotrx = 'Y'`);
    await sql(`UPDATE c_orderline SET qtyordered = qtyordered + 1 WHERE c_order_id = $1`, [order.id]);
    assert.deepEqual((await check('reservations')).map((v) => [v.check, v.expected, v.actual]), [['reservation', '6', '5']]);
    await sql(`UPDATE c_orderline SET qtyordered = qtyordered - 1 WHERE c_order_id = $1`, [order.id]);
    assert.deepEqual(await found(), []);
  });

  it('a posted invoice without facts, and facts of a document that is not posted', async () => {
    await sql(`UPDATE c_invoice SET posted = 'N' WHERE c_invoice_id = $1`, [invoice.id]);
    assert.deepEqual((await check('postedFacts')).map((v) => [v.subject.record, v.detail]), [[invoice.id, `document ${invoice.DocumentNo} has facts but is not posted`]]);
    await sql(`UPDATE c_invoice SET posted = 'Y' WHERE c_invoice_id = $1`, [invoice.id]);
    await sql(`UPDATE fact_acct SET record_id = -record_id WHERE record_id = $1 AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_Invoice')`, [invoice.id]);
    assert.ok((await check('postedFacts')).some((v) => v.subject.record === invoice.id && /posted with an amount and has no facts/.test(v.detail)));
    await sql(`UPDATE fact_acct SET record_id = -record_id WHERE record_id = $1 AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_Invoice')`, [-invoice.id]);
    assert.deepEqual(await found(), []);
  });

  it('a completed cash journal without its facts', async () => {
    const cash = await ok('POST', '/api/v1/models/c_cash', { C_CashBook_ID: 101, C_CashLine: [{ CashType: 'R', Amount: 12 }], 'doc-action': 'CO' });
    assert.deepEqual(await check('postedFacts'), []);
    const moved = `UPDATE fact_acct SET record_id = -record_id WHERE record_id = $1 AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_Cash')`;
    await sql(moved, [cash.id]);
    assert.deepEqual((await check('postedFacts')).map((v) => [v.subject.record, v.detail]), [[cash.id, `document ${String(cash.Name)} is posted with an amount and has no facts`]]);
    await sql(moved, [-cash.id]);
    assert.deepEqual(await found(), []);
  });

  it('an allocation in euros whose converted facts round apart: the rounding has an accounted amount only, so each currency still balances', async () => {
    const rate = await server.request('POST', '/api/v1/models/c_conversion_rate', {
      token,
      body: { AD_Org_ID: 0, C_Currency_ID: 102, C_Currency_ID_To: 100, C_ConversionType_ID: 115, MultiplyRate: 1.35, DivideRate: 0.740740740741, ValidFrom: '2003-01-01', ValidTo: '2099-12-31' },
    });
    assert.equal(rate.status, 201, rate.text);
    const euros = await ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, IsSOTrx: true, M_PriceList_ID: 103, C_ConversionType_ID: 115,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 10, PriceActual: 10, C_Tax_ID: 104 }], 'doc-action': 'CO',
    });
    const receipt = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, C_Currency_ID: 102, C_ConversionType_ID: 115, PayAmt: 5, 'doc-action': 'CO' });
    // At 1.35: 0.01 paid and 0.01 discount are 0.01 USD each, the 0.02 settled 0.03 USD.
    const alloc = await ok('POST', '/api/v1/models/c_allocationhdr', {
      C_Currency_ID: 102, C_AllocationLine: [{ C_Invoice_ID: euros.id, C_Payment_ID: receipt.id, Amount: 0.01, DiscountAmt: 0.01 }], 'doc-action': 'CO',
    });
    const rounding = await sql(
      `SELECT amtsourcedr::float8 AS sdr, amtsourcecr::float8 AS scr, amtacctdr::float8 AS dr, amtacctcr::float8 AS cr FROM fact_acct
        WHERE record_id = $1 AND description = 'Currency rounding' AND ad_table_id = (SELECT ad_table_id FROM ad_table WHERE tablename = 'C_AllocationHdr')`,
      [alloc.id],
    );
    assert.deepEqual(rounding, [{ sdr: 0, scr: 0, dr: 0.01, cr: 0 }]);
    assert.deepEqual(await found(), []);
  });
});
