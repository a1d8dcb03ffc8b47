/**
 * Property test of the books: random sequences of orders, shipments and receipts, returns,
 * invoices and credit memos, payments in several currencies and at several rates, allocations (of
 * payments to invoices, of credit memos against invoices, of receipts against refunds),
 * reversals, closes and voids, moves and counts, a lot-tracked product (each of its stock lines names
 * a lot, now and then none: refused), products costed FIFO and LIFO (their cost layers), cash journals (receipts, expenses, charges, differences,
 * bank transfers, invoices settled in cash in their currency; completed and voided), payment runs over due vendor invoices (payment
 * selection, prepared and made payments, discounts), dunning runs, and deliberately invalid
 * actions, all over HTTP. After every step
 * the invariants of src/documents/invariants hold: balanced documents, partners' open items equal
 * to their accounts, stock equal to its transactions, reservations equal to open order lines,
 * postings with their facts. A refused action (400) leaves no trace in the tables documents write.
 *
 * FUZZ_SEED (a number, or `random`) and FUZZ_STEPS replay or lengthen a run; a failure prints the
 * seed, the step and the steps before it. FUZZ_LOG=1 prints every step (refusals with their reason).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { booksViolations, type Violation } from '../../../src/documents/invariants/books-invariants.js';
import { OPEN_AMOUNT_SQL, UNALLOCATED_SQL } from '../../../src/documents/engine/settlement.js';
import { DEMO_LOTS } from '../../../src/seed/lots-seed.js';
import { costingCalls } from './costing-helpers.js';
import { COST_ADJUSTMENT_DOCTYPE } from '../../../src/documents/costadjust/cost-adjustment-seed.js';

const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261128);
const STEPS = Number(process.env.FUZZ_STEPS ?? 200);
const CLIENT = 11;
const MARK = 'books fuzz';

const USD = 100;
const EUR = 102;
const SPOT = 114;
const PERIOD_END = 115;
const AVERAGE = 116;
const DOZEN = 109;
const ELM = 124;
/** The demo's lot-tracked product: every receipt, shipment, return, move and count of it names a lot. */
const LOT_TRACKED = DEMO_LOTS.lotProduct;

const CUSTOMERS = [117, 118, 50004, 50005, 50006];
const VENDORS = [114, 120, 50000, 50001];
/** Price lists and the stocked items priced on each. */
const LISTS = {
  sales: [
    { id: 101, currency: USD, products: [123, 124, 128, 133, 134, LOT_TRACKED] },
    { id: 103, currency: EUR, products: [123, 124, 128, 133] },
  ],
  purchase: [
    { id: 102, currency: USD, products: [123, 124, 125, 128, 133, 137, LOT_TRACKED] },
    { id: 200000, currency: EUR, products: [133, 134, 135] },
  ],
};
const DOCTYPE = { salesOrder: 132, purchaseOrder: 126, arCreditMemo: 118, apCreditMemo: 124, apInvoice: 123, arInvoice: 116, mmShipment: 120, customerReturn: 149 };
const CHARGE_BANK = 100;

/** Tables documents write: a refused action must leave all of them as they were (document numbers excepted). */
const WRITTEN = [
  'c_order', 'c_orderline', 'c_ordertax', 'm_inout', 'm_inoutline', 'c_invoice', 'c_invoiceline', 'c_invoicetax', 'c_payment',
  'c_allocationhdr', 'c_allocationline', 'fact_acct', 'm_storageonhand', 'm_storagereservation', 'm_transaction', 'm_matchpo', 'm_matchinv',
  'gl_journal', 'gl_journalline', 'c_bankstatement', 'c_bankstatementline', 'm_movement', 'm_movementline', 'm_inventory', 'm_inventoryline',
  'm_rma', 'm_rmaline', 'c_cash', 'c_cashline', 'c_payselection', 'c_payselectionline', 'c_payselectioncheck', 'c_dunningrun', 'c_dunningrunentry',
  'c_dunningrunline', 'm_cost', 'm_costdetail', 'm_costqueue', 'm_costhistory',
];
/** Accounts a journal of the fuzz posts to: none holds a partner's open items (those follow their documents). */
const JOURNAL_ACCOUNTS = [11100, 21620, 41000, 51200, 70200];
/** Two locators of the HQ warehouse (103) and the stocked items moved and counted between them. */
const LOCATORS = [101, 102];
const HQ_WAREHOUSE = 103;
const COUNTED = [128, 133, 134];
/** What moves and counts take: the counted items and the lot-tracked one. */
const MOVED = [...COUNTED, LOT_TRACKED];
const POS_ORDER = 135;
/** The demo's cash book (in USD), its bank account for transfers, and the payment terms of direct vendor invoices (one with a discount). */
const CASH_BOOK = 101;
const BANK_ACCOUNT = 100;
const TERMS = { immediate: 105, twoTenNet30: 106 };
/** The demo's dunning, of the standard customers. */
const DUNNING = 100;

/** mulberry32: a small seeded generator, so that a seed replays a run exactly. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const chance = (p: number) => next() < p;
  const money = (lo: number, hi: number) => Math.round((lo + next() * (hi - lo)) * 100) / 100;
  return { next, int, pick, chance, money };
}

type Row = Record<string, any>;
interface Outcome {
  status: number;
  text: string;
}

describe('books invariants under random documents', () => {
  let server: TestServer;
  let token: string;
  /** The products costed FIFO and LIFO. */
  const queuedProducts: number[] = [];
  const rnd = generator(SEED);
  const sql = async (text: string, params: unknown[] = []): Promise<Row[]> => (await server.services.db.query<Row>(text, params)).rows;
  const send = async (method: string, path: string, body?: unknown): Promise<Outcome> => {
    const r = await server.request(method, path, { token, body });
    return { status: r.status, text: r.text };
  };
  /** A process run on a record: a 400 or an answer with isError is a refusal. */
  const runProcess = async (slug: string, body: Record<string, unknown>): Promise<Outcome> => {
    const r = await send('POST', `/api/v1/processes/${slug}`, body);
    return r.status === 200 && JSON.parse(r.text).isError ? { status: 400, text: r.text } : r;
  };
  /**
   * The steps of a run one after the other, each of which must succeed once the first did (the
   * first may be refused); answers the last, or a failure naming the step that did not succeed.
   */
  const chain = async (steps: (() => Promise<Outcome>)[]): Promise<Outcome> => {
    let last: Outcome = { status: 200, text: '' };
    for (const [i, step] of steps.entries()) {
      last = await step();
      if (last.status >= 400 && i > 0) return { status: 599, text: `step ${i + 1} of the run failed after the first succeeded: ${last.status} ${last.text}` };
      if (last.status >= 400) return last;
    }
    return last;
  };
  const digest = async (): Promise<string> =>
    JSON.stringify(await sql(WRITTEN.map((t) => `SELECT '${t}' AS t, count(*)::text AS n, COALESCE(sum(hashtext(x::text)::bigint), 0)::text AS h FROM ${t} x`).join(' UNION ALL ')));
  const createdId = (o: Outcome): number => Number(JSON.parse(o.text).id);
  const rate = (from: number, to: number, type: number, multiply: number) =>
    send('POST', '/api/v1/models/c_conversion_rate', {
      AD_Org_ID: 0, C_Currency_ID: from, C_Currency_ID_To: to, C_ConversionType_ID: type, MultiplyRate: multiply,
      DivideRate: Math.round((1 / multiply) * 1e12) / 1e12, ValidFrom: '2003-01-01', ValidTo: '2099-12-31',
    });

  // Picks among the fuzz's own documents, read straight from the database.
  const orderLines = (status: string) =>
    sql(
      `SELECT o.c_order_id, o.issotrx, ol.c_orderline_id, ol.m_product_id, ol.c_uom_id, ol.qtyordered::float8 AS ordered, ol.qtydelivered::float8 AS delivered,
              ol.qtyinvoiced::float8 AS invoiced, ol.priceactual::float8 AS price
         FROM c_order o JOIN c_orderline ol ON ol.c_order_id = o.c_order_id
        WHERE o.description = $1 AND o.docstatus = $2 ORDER BY ol.c_orderline_id`,
      [MARK, status],
    );
  const openInvoices = () =>
    sql(
      `SELECT i.c_invoice_id, i.c_bpartner_id, i.issotrx, i.c_currency_id, dt.docbasetype, (${OPEN_AMOUNT_SQL('i')})::float8 AS open
         FROM c_invoice i JOIN c_doctype dt ON dt.c_doctype_id = i.c_doctype_id
        WHERE i.docstatus = 'CO' AND i.ad_client_id = $1 AND (${OPEN_AMOUNT_SQL('i')}) > 0 ORDER BY i.c_invoice_id`,
      [CLIENT],
    );
  const openPayments = () =>
    sql(
      `SELECT p.c_payment_id, p.c_bpartner_id, p.isreceipt, p.c_currency_id, (${UNALLOCATED_SQL('p')})::float8 AS open
         FROM c_payment p WHERE p.docstatus = 'CO' AND p.ad_client_id = $1 AND p.c_charge_id IS NULL AND (${UNALLOCATED_SQL('p')}) > 0 ORDER BY p.c_payment_id`,
      [CLIENT],
    );
  /** A new lot of the lot-tracked product (numbered by its control) and its instance. */
  const newLotInstance = async (): Promise<number> => {
    const lot = await server.request('POST', '/api/v1/models/m_lot', { token, body: { M_Product_ID: LOT_TRACKED } });
    assert.equal(lot.status, 201, lot.text);
    const asi = await server.request('POST', '/api/v1/models/m_attributesetinstance', { token, body: { M_AttributeSet_ID: DEMO_LOTS.lotSet, M_Lot_ID: lot.body.id } });
    assert.equal(asi.status, 201, asi.text);
    return asi.body.id;
  };
  /** A lot of the lot-tracked product on hand at a locator, else a new one. */
  const lotOnHand = async (locator: number): Promise<number> => {
    const rows = await sql(
      `SELECT m_attributesetinstance_id AS id FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = $2 AND m_attributesetinstance_id <> 0 AND qtyonhand > 0 ORDER BY 1`,
      [LOT_TRACKED, locator],
    );
    return rows.length ? Number(rnd.pick(rows).id) : newLotInstance();
  };
  /**
   * The instance a line of a product names: none but for the lot-tracked product, which names a
   * lot on hand when taking out (shipments, moves, counts) and a new lot when receiving, and now
   * and then none at all (refused).
   */
  const lotOf = async (product: number, takesOut: boolean): Promise<Row> => {
    if (product !== LOT_TRACKED || rnd.chance(0.1)) return {};
    return { M_AttributeSetInstance_ID: takesOut ? await lotOnHand(LOCATORS[0]!) : await newLotInstance() };
  };
  const completed = (table: string) => sql(`SELECT ${table}_id AS id FROM ${table} WHERE docstatus = 'CO' AND ad_client_id = $1 AND description = $2 ORDER BY 1`, [CLIENT, MARK]);

  /** Sense of an invoice in allocation lines: + customer invoices and vendor credit memos, − the others. */
  const sense = (i: Row) => (i.docbasetype === 'ARI' || i.docbasetype === 'APC' ? 1 : -1);
  const round2 = (n: number) => Math.round(n * 100) / 100;

  // Each action answers the outcome of its one request, or null when there was nothing to act on.
  const actions: Record<string, { weight: number; invalid?: boolean; run: () => Promise<Outcome | null> }> = {
    order: {
      weight: 14,
      run: async () => {
        const sales = rnd.chance(0.55);
        const list = rnd.pick(sales ? LISTS.sales : LISTS.purchase);
        const lines = Array.from({ length: rnd.int(1, 3) }, () => {
          const product = rnd.pick(list.products);
          if (product === ELM && rnd.chance(0.5)) return { M_Product_ID: product, C_UOM_ID: DOZEN, QtyEntered: 1 };
          return { M_Product_ID: product, QtyEntered: rnd.int(1, 8) };
        });
        return send('POST', '/api/v1/models/c_order', {
          C_BPartner_ID: rnd.pick(sales ? CUSTOMERS : VENDORS), C_DocTypeTarget_ID: sales ? DOCTYPE.salesOrder : DOCTYPE.purchaseOrder, IsSOTrx: sales,
          M_PriceList_ID: list.id, Description: MARK, C_OrderLine: lines, 'doc-action': rnd.chance(0.9) ? 'CO' : 'PR',
        });
      },
    },
    shipOrReceive: {
      weight: 12,
      run: async () => {
        const open = (await orderLines('CO')).filter((l) => l.ordered > l.delivered);
        if (!open.length) return null;
        const order = rnd.pick(open).c_order_id;
        const lines = open.filter((l) => l.c_order_id === order && rnd.chance(0.7));
        if (!lines.length) return null;
        // One line after the other, so that a seed replays the same lots.
        const inoutLines: Row[] = [];
        for (const l of lines) {
          const owed = l.ordered - l.delivered;
          const r = rnd.next();
          const lot = await lotOf(Number(l.m_product_id), l.issotrx === 'Y');
          inoutLines.push(r < 0.3 ? { C_OrderLine_ID: l.c_orderline_id, ...lot } : { C_OrderLine_ID: l.c_orderline_id, MovementQty: rnd.int(1, owed), ...lot });
        }
        return send('POST', '/api/v1/models/m_inout', {
          C_Order_ID: order, Description: MARK,
          M_InOutLine: inoutLines,
          'doc-action': 'CO',
        });
      },
    },
    returnGoods: {
      weight: 4,
      run: async () => {
        const delivered = (await orderLines('CO')).filter((l) => l.delivered > 0);
        if (!delivered.length) return null;
        const l = rnd.pick(delivered);
        // A lot goes back under the instance it came or went under.
        const [came] = await sql(`SELECT max(m_attributesetinstance_id) AS id FROM m_inoutline WHERE c_orderline_id = $1 AND m_attributesetinstance_id <> 0`, [l.c_orderline_id]);
        const lot = came?.id ? { M_AttributeSetInstance_ID: Number(came.id) } : {};
        return send('POST', '/api/v1/models/m_inout', {
          C_Order_ID: l.c_order_id, C_DocType_ID: l.issotrx === 'Y' ? DOCTYPE.customerReturn : DOCTYPE.mmShipment, Description: MARK,
          M_InOutLine: [{ C_OrderLine_ID: l.c_orderline_id, MovementQty: rnd.int(1, l.delivered), ...lot }], 'doc-action': 'CO',
        });
      },
    },
    invoiceOrder: {
      weight: 10,
      run: async () => {
        const open = (await orderLines('CO')).filter((l) => l.ordered > l.invoiced);
        if (!open.length) return null;
        const order = rnd.pick(open).c_order_id;
        const lines = open.filter((l) => l.c_order_id === order && rnd.chance(0.8));
        if (!lines.length) return null;
        const sales = lines[0]!.issotrx === 'Y';
        return send('POST', '/api/v1/models/c_invoice', {
          C_Order_ID: order, Description: MARK, ...(sales ? {} : { C_DocTypeTarget_ID: DOCTYPE.apInvoice }),
          C_InvoiceLine: lines.map((l) => {
            const line: Row = { C_OrderLine_ID: l.c_orderline_id, QtyInvoiced: rnd.int(1, l.ordered - l.invoiced) };
            // A vendor's price differs from the order's now and then (invoice price variance).
            if (!sales && l.c_uom_id !== DOZEN && rnd.chance(0.4)) line.PriceEntered = line.PriceActual = round2(l.price * (0.8 + rnd.next() * 0.4));
            return line;
          }),
          'doc-action': 'CO',
        });
      },
    },
    invoiceReceipt: {
      weight: 6,
      run: async () => {
        const lines = await sql(
          `SELECT io.c_order_id, il.m_inoutline_id, il.movementqty::float8 AS qty, ol.priceactual::float8 AS price, ol.c_uom_id,
                  ol.qtyinvoiced + il.movementqty <= ol.qtyordered AS fits FROM m_inout io
             JOIN m_inoutline il ON il.m_inout_id = io.m_inout_id JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id
            WHERE io.description = $1 AND io.docstatus = 'CO' AND io.movementtype = 'V+'
              AND NOT EXISTS (SELECT 1 FROM c_invoiceline x JOIN c_invoice i ON i.c_invoice_id = x.c_invoice_id WHERE x.m_inoutline_id = il.m_inoutline_id AND i.docstatus IN ('CO', 'CL'))
            ORDER BY il.m_inoutline_id`,
          [MARK],
        );
        // Mostly lines whose order line can still be invoiced that much; now and then one that cannot (refused).
        const fitting = lines.filter((l) => l.fits);
        const candidates = rnd.chance(0.85) ? fitting : lines;
        if (!candidates.length) return null;
        const l = rnd.pick(candidates);
        const line: Row = { M_InOutLine_ID: l.m_inoutline_id };
        if (l.c_uom_id !== DOZEN && rnd.chance(0.5)) line.PriceEntered = line.PriceActual = round2(l.price * (0.8 + rnd.next() * 0.4));
        return send('POST', '/api/v1/models/c_invoice', { C_Order_ID: l.c_order_id, C_DocTypeTarget_ID: DOCTYPE.apInvoice, Description: MARK, C_InvoiceLine: [line], 'doc-action': 'CO' });
      },
    },
    creditMemo: {
      weight: 5,
      run: async () => {
        const sales = rnd.chance(0.5);
        const list = rnd.pick(sales ? LISTS.sales : LISTS.purchase);
        const price = rnd.money(5, 60);
        const line = rnd.chance(0.25)
          ? { C_Charge_ID: CHARGE_BANK, QtyEntered: 1, PriceEntered: price, PriceActual: price }
          : { M_Product_ID: rnd.pick(list.products), QtyEntered: rnd.int(1, 3), PriceEntered: price, PriceActual: price };
        return send('POST', '/api/v1/models/c_invoice', {
          C_BPartner_ID: rnd.pick(sales ? CUSTOMERS : VENDORS), C_DocTypeTarget_ID: sales ? DOCTYPE.arCreditMemo : DOCTYPE.apCreditMemo, IsSOTrx: sales,
          M_PriceList_ID: list.id, Description: MARK, C_InvoiceLine: [line], 'doc-action': 'CO',
        });
      },
    },
    payment: {
      weight: 12,
      run: async () => {
        const invoices = (await openInvoices()).filter((i) => i.docbasetype === 'ARI' || i.docbasetype === 'API');
        const type = rnd.pick([SPOT, PERIOD_END, AVERAGE]);
        if (invoices.length && rnd.chance(0.3)) {
          // A payment naming its invoice allocates itself to it.
          const i = rnd.pick(invoices);
          return send('POST', '/api/v1/models/c_payment', { C_Invoice_ID: i.c_invoice_id, C_ConversionType_ID: type, Description: MARK, 'doc-action': 'CO' });
        }
        const i = invoices.length && rnd.chance(0.8) ? rnd.pick(invoices) : null;
        const receipt = i ? i.issotrx === 'Y' : rnd.chance(0.5);
        // Without an invoice, a refund now and then: a payment to a customer, a receipt from a vendor.
        const partners = i || rnd.chance(0.7) ? (receipt ? CUSTOMERS : VENDORS) : receipt ? VENDORS : CUSTOMERS;
        const currency = i && rnd.chance(0.7) ? Number(i.c_currency_id) : rnd.pick([USD, EUR]);
        const amount = i && Number(i.c_currency_id) === currency && rnd.chance(0.5) ? i.open : rnd.money(5, 400);
        return send('POST', '/api/v1/models/c_payment', {
          C_BPartner_ID: i ? i.c_bpartner_id : rnd.pick(partners), IsReceipt: receipt, C_Currency_ID: currency,
          C_ConversionType_ID: type, PayAmt: amount, Description: MARK, 'doc-action': 'CO',
        });
      },
    },
    allocatePayment: {
      weight: 12,
      run: async () => {
        const payments = await openPayments();
        const pairs = (await openInvoices()).flatMap((i) =>
          payments.filter((p) => p.c_bpartner_id === i.c_bpartner_id && (p.isreceipt === 'Y') === (i.issotrx === 'Y') && (i.docbasetype === 'ARI' || i.docbasetype === 'API')).map((p) => ({ i, p })),
        );
        if (!pairs.length) return null;
        const { i, p } = rnd.pick(pairs);
        const currency = Number(p.c_currency_id);
        // In the payment's currency; an invoice in another one is settled at most about what the payment holds.
        const most = currency === Number(i.c_currency_id) ? Math.min(i.open, p.open) : round2(Math.min(p.open, i.open * 0.9));
        if (most <= 0) return null;
        const settled = rnd.chance(0.6) ? most : rnd.money(0.01, most);
        const discount = rnd.chance(0.2) ? round2(settled * 0.02) : 0;
        const writeOff = rnd.chance(0.1) ? round2(settled * 0.01) : 0;
        const amount = round2(settled - discount - writeOff);
        const s = sense(i);
        return send('POST', '/api/v1/models/c_allocationhdr', {
          C_Currency_ID: currency, Description: MARK,
          C_AllocationLine: [{ C_Invoice_ID: i.c_invoice_id, C_Payment_ID: p.c_payment_id, Amount: s * amount, DiscountAmt: s * discount, WriteOffAmt: s * writeOff }],
          'doc-action': 'CO',
        });
      },
    },
    allocateCreditMemo: {
      weight: 5,
      run: async () => {
        const open = await openInvoices();
        const pairs = open
          .filter((m) => m.docbasetype === 'ARC' || m.docbasetype === 'APC')
          .flatMap((m) => open.filter((i) => i.c_bpartner_id === m.c_bpartner_id && i.issotrx === m.issotrx && i.c_currency_id === m.c_currency_id && sense(i) !== sense(m)).map((i) => ({ i, m })));
        if (!pairs.length) return null;
        const { i, m } = rnd.pick(pairs);
        const amount = round2(Math.min(i.open, m.open));
        return send('POST', '/api/v1/models/c_allocationhdr', {
          C_Currency_ID: Number(i.c_currency_id), Description: MARK,
          C_AllocationLine: [
            { C_Invoice_ID: i.c_invoice_id, Amount: sense(i) * amount },
            { C_Invoice_ID: m.c_invoice_id, Amount: sense(m) * amount },
          ],
          'doc-action': 'CO',
        });
      },
    },
    refund: {
      weight: 3,
      run: async () => {
        // A receipt set off against a payment of the same partner and currency: lines a and −a, no invoice.
        const open = await openPayments();
        const pairs = open.filter((r) => r.isreceipt === 'Y').flatMap((r) => open.filter((p) => p.isreceipt === 'N' && p.c_bpartner_id === r.c_bpartner_id && p.c_currency_id === r.c_currency_id).map((p) => ({ r, p })));
        if (!pairs.length) return null;
        const { r, p } = rnd.pick(pairs);
        const amount = round2(Math.min(r.open, p.open));
        return send('POST', '/api/v1/models/c_allocationhdr', {
          C_Currency_ID: Number(r.c_currency_id), Description: MARK,
          C_AllocationLine: [{ C_Payment_ID: r.c_payment_id, Amount: amount }, { C_Payment_ID: p.c_payment_id, Amount: -amount }],
          'doc-action': 'CO',
        });
      },
    },
    reverse: {
      weight: 8,
      run: async () => {
        const table = rnd.pick(['c_invoice', 'c_payment', 'm_inout', 'c_allocationhdr']);
        const docs = await completed(table);
        if (!docs.length) return null;
        return send('PUT', `/api/v1/models/${table}/${rnd.pick(docs).id}`, { 'doc-action': rnd.pick(['RC', 'RA', 'VO']) });
      },
    },
    closeOrVoidOrder: {
      weight: 3,
      run: async () => {
        const docs = await completed('c_order');
        if (!docs.length) return null;
        return send('PUT', `/api/v1/models/c_order/${rnd.pick(docs).id}`, { 'doc-action': rnd.pick(['CL', 'VO']) });
      },
    },
    completePrepared: {
      weight: 2,
      run: async () => {
        const docs = await sql(`SELECT c_order_id AS id FROM c_order WHERE description = $1 AND docstatus = 'IP' ORDER BY 1`, [MARK]);
        if (!docs.length) return null;
        return send('PUT', `/api/v1/models/c_order/${rnd.pick(docs).id}`, { 'doc-action': 'CO' });
      },
    },
    glJournal: {
      weight: 3,
      run: async () => {
        const amount = rnd.money(1, 500);
        const [dr, cr] = [rnd.pick(JOURNAL_ACCOUNTS), rnd.pick(JOURNAL_ACCOUNTS)];
        return send('POST', '/api/v1/models/gl_journal', {
          Description: MARK, 'doc-action': 'CO',
          GL_JournalLine: [{ Account_ID: dr, AmtSourceDr: amount }, { Account_ID: cr, AmtSourceCr: amount }],
        });
      },
    },
    bankStatement: {
      weight: 3,
      run: async () => {
        // The fuzz's completed payments on the bank account not yet on a statement.
        const open = await sql(
          `SELECT c_payment_id FROM c_payment WHERE description = $1 AND docstatus = 'CO' AND isreconciled = 'N' AND c_bankaccount_id = 100 ORDER BY 1`,
          [MARK],
        );
        if (!open.length) return null;
        const lines = open.filter(() => rnd.chance(0.5)).slice(0, 4);
        if (!lines.length) return null;
        return send('POST', '/api/v1/models/c_bankstatement', {
          C_BankAccount_ID: 100, Description: MARK, 'doc-action': 'CO',
          C_BankStatementLine: lines.map((p) => ({ C_Payment_ID: p.c_payment_id })),
        });
      },
    },
    move: {
      weight: 3,
      run: async () => {
        const [from, to] = rnd.chance(0.5) ? LOCATORS : [...LOCATORS].reverse();
        const product = rnd.pick(MOVED);
        const lot = product === LOT_TRACKED && rnd.chance(0.9) ? { M_AttributeSetInstance_ID: await lotOnHand(from!) } : {};
        return send('POST', '/api/v1/models/m_movement', {
          Description: MARK, 'doc-action': 'CO',
          M_MovementLine: [{ M_Product_ID: product, M_Locator_ID: from, M_LocatorTo_ID: to, MovementQty: rnd.int(1, 6), ...lot }],
        });
      },
    },
    count: {
      weight: 2,
      run: async () => {
        const product = rnd.pick(MOVED);
        return send('POST', '/api/v1/models/m_inventory', {
          M_Warehouse_ID: HQ_WAREHOUSE, Description: MARK, 'doc-action': 'CO',
          M_InventoryLine: [{ M_Product_ID: product, QtyCount: rnd.int(0, 40), ...(await lotOf(product, true)) }],
        });
      },
    },
    costAdjustment: {
      weight: 2,
      // A new cost for a product with stock (refused for a product costed by FIFO or without a cost); its reversals are the counts'.
      run: () =>
        send('POST', '/api/v1/models/m_inventory', {
          C_DocType_ID: COST_ADJUSTMENT_DOCTYPE, M_Warehouse_ID: HQ_WAREHOUSE, Description: MARK, 'doc-action': 'CO',
          M_InventoryLine: [{ M_Product_ID: rnd.pick(MOVED), NewCostPrice: rnd.money(0, 40) }],
        }),
    },
    posOrder: {
      weight: 2,
      run: () =>
        send('POST', '/api/v1/models/c_order', {
          C_BPartner_ID: rnd.pick(CUSTOMERS), C_DocTypeTarget_ID: POS_ORDER, PaymentRule: 'B', M_PriceList_ID: 101, Description: MARK, 'doc-action': 'CO',
          C_OrderLine: [{ M_Product_ID: rnd.pick(COUNTED), QtyEntered: rnd.int(1, 3) }],
        }),
    },
    rma: {
      weight: 2,
      run: async () => {
        // An authorization to return part of a customer shipment of the fuzz (now and then more than was shipped: refused).
        const shipped = await sql(
          `SELECT io.m_inout_id, il.m_inoutline_id, il.movementqty::float8 AS qty FROM m_inout io JOIN m_inoutline il ON il.m_inout_id = io.m_inout_id
            WHERE io.description = $1 AND io.docstatus = 'CO' AND io.movementtype = 'C-' ORDER BY il.m_inoutline_id`,
          [MARK],
        );
        if (!shipped.length) return null;
        const l = rnd.pick(shipped);
        return send('POST', '/api/v1/models/m_rma', {
          InOut_ID: l.m_inout_id, Description: MARK, 'doc-action': 'CO', M_RMALine: [{ M_InOutLine_ID: l.m_inoutline_id, Qty: rnd.int(1, l.qty + 1) }],
        });
      },
    },
    rmaReturn: {
      weight: 2,
      run: async () => {
        const rmas = await completed('m_rma');
        if (!rmas.length) return null;
        const process = rnd.pick(['m_inout_generaterma-manual', 'c_invoice_generaterma-manual']);
        const r = await send('POST', `/api/v1/processes/${process}`, { 'model-name': 'm_rma', 'record-id': rnd.pick(rmas).id });
        // A run with nothing left to return answers isError: that is a refusal too.
        return r.status === 200 && JSON.parse(r.text).isError ? { status: 400, text: r.text } : r;
      },
    },
    reverseFinanceOrStock: {
      weight: 3,
      run: async () => {
        const table = rnd.pick(['gl_journal', 'c_bankstatement', 'm_movement', 'm_inventory', 'c_cash']);
        const docs = await completed(table);
        if (!docs.length) return null;
        return send('PUT', `/api/v1/models/${table}/${rnd.pick(docs).id}`, { 'doc-action': rnd.pick(['RC', 'RA', 'VO']) });
      },
    },
    cashJournal: {
      weight: 4,
      run: async () => {
        // Receipts, expenses, charges, differences, transfers with the bank and invoices settled in cash (now and then partly, with a
        // discount; in the invoice's currency); an invoice at most once.
        const invoices = (await openInvoices()).filter((i) => i.docbasetype === 'ARI' || i.docbasetype === 'API');
        const used = new Set<number>();
        const lines: Row[] = [];
        for (let n = rnd.int(1, 4); n > 0; n--) {
          const kind = rnd.pick(['R', 'E', 'C', 'D', 'I', 'I', 'T']);
          if (kind === 'I') {
            const free = invoices.filter((i) => !used.has(Number(i.c_invoice_id)));
            if (!free.length) continue;
            const i = rnd.pick(free);
            used.add(Number(i.c_invoice_id));
            if (rnd.chance(0.6)) lines.push({ CashType: 'I', C_Invoice_ID: i.c_invoice_id });
            else {
              const s = sense(i);
              const part = rnd.money(0.01, i.open);
              const discount = rnd.chance(0.3) ? round2(part * 0.02) : 0;
              lines.push({ CashType: 'I', C_Invoice_ID: i.c_invoice_id, Amount: s * round2(part - discount), DiscountAmt: s * discount });
            }
          } else if (kind === 'T') lines.push({ CashType: 'T', C_BankAccount_ID: BANK_ACCOUNT, Amount: rnd.chance(0.5) ? rnd.money(1, 200) : -rnd.money(1, 200) });
          else if (kind === 'C') lines.push({ CashType: 'C', C_Charge_ID: CHARGE_BANK, Amount: -rnd.money(1, 50) });
          else if (kind === 'D') lines.push({ CashType: 'D', Amount: rnd.chance(0.5) ? rnd.money(0.01, 5) : -rnd.money(0.01, 5) });
          else lines.push({ CashType: kind, Amount: rnd.money(1, 300) });
        }
        if (!lines.length) return null;
        return send('POST', '/api/v1/models/c_cash', { C_CashBook_ID: CASH_BOOK, Description: MARK, C_CashLine: lines, 'doc-action': 'CO' });
      },
    },
    voidCash: {
      weight: 2,
      run: async () => {
        const docs = await completed('c_cash');
        return docs.length ? send('PUT', `/api/v1/models/c_cash/${rnd.pick(docs).id}`, { 'doc-action': rnd.pick(['VO', 'RC']) }) : null;
      },
    },
    directInvoice: {
      weight: 4,
      run: () => {
        // A vendor invoice paid by check, on a term with a discount now and then (what payment runs pay), or a customer
        // invoice of some weeks ago (what dunning runs dun), in USD.
        const sales = rnd.chance(0.4);
        const price = rnd.money(5, 120);
        const date = new Date(Date.now() - (sales ? rnd.int(0, 45) : 0) * 86_400_000).toISOString().slice(0, 10);
        return send('POST', '/api/v1/models/c_invoice', {
          C_BPartner_ID: rnd.pick(sales ? CUSTOMERS : VENDORS), C_DocTypeTarget_ID: sales ? DOCTYPE.arInvoice : DOCTYPE.apInvoice, IsSOTrx: sales,
          M_PriceList_ID: sales ? 101 : 102, PaymentRule: sales ? 'P' : 'S', C_PaymentTerm_ID: rnd.pick([TERMS.immediate, TERMS.twoTenNet30]),
          DateInvoiced: date, DateAcct: date, Description: MARK,
          C_InvoiceLine: [{ M_Product_ID: rnd.pick(LISTS.purchase[0]!.products), QtyEntered: rnd.int(1, 3), PriceEntered: price, PriceActual: price }], 'doc-action': 'CO',
        });
      },
    },
    paymentRun: {
      weight: 3,
      run: async () => {
        // A payment selection of due vendor invoices (and those with a discount in time), its payments prepared and made.
        let selection = 0;
        const record = () => ({ 'model-name': 'c_payselection', 'record-id': selection });
        const lines = async () => Number((await sql(`SELECT count(*)::int AS n FROM c_payselectionline WHERE c_payselection_id = $1`, [selection]))[0]!.n);
        return chain([
          async () => {
            const r = await send('POST', '/api/v1/models/c_payselection', { C_BankAccount_ID: BANK_ACCOUNT, Description: MARK });
            if (r.status === 201) selection = createdId(r);
            return r;
          },
          () => runProcess('c_payselection_createfrom', { ...record(), OnlyDue: rnd.chance(0.7), OnlyDiscount: rnd.chance(0.5), ...(rnd.chance(0.5) ? { C_BPartner_ID: rnd.pick(VENDORS) } : {}) }),
          async () => ((await lines()) ? runProcess('c_payselection_createpayment', { ...record(), PaymentRule: 'S' }) : { status: 200, text: 'nothing selected' }),
          async () => ((await lines()) ? runProcess('c_payselection_payment', record()) : { status: 200, text: 'nothing selected' }),
        ]);
      },
    },
    dunningRun: {
      weight: 2,
      run: async () => {
        let run = 0;
        const record = () => ({ 'model-name': 'c_dunningrun', 'record-id': run });
        const entries = async () => Number((await sql(`SELECT count(*)::int AS n FROM c_dunningrunentry WHERE c_dunningrun_id = $1`, [run]))[0]!.n);
        return chain([
          async () => {
            const r = await send('POST', '/api/v1/models/c_dunningrun', { C_Dunning_ID: DUNNING, DunningDate: new Date().toISOString().slice(0, 10), Description: MARK });
            if (r.status === 201) run = createdId(r);
            return r;
          },
          () => runProcess('c_dunningrun_create', record()),
          async () => ((await entries()) && rnd.chance(0.8) ? runProcess('c_dunningrun_process', record()) : { status: 200, text: 'nothing to process' }),
        ]);
      },
    },
    // Deliberately invalid actions: each must be refused with 400 and leave nothing behind.
    unbalancedJournal: {
      weight: 1,
      invalid: true,
      run: () =>
        send('POST', '/api/v1/models/gl_journal', {
          Description: MARK, 'doc-action': 'CO',
          GL_JournalLine: [{ Account_ID: rnd.pick(JOURNAL_ACCOUNTS), AmtSourceDr: rnd.money(1, 100) + 1 }, { Account_ID: rnd.pick(JOURNAL_ACCOUNTS), AmtSourceCr: 0.5 }],
        }),
    },
    orderOfInvoiceType: {
      weight: 1,
      invalid: true,
      run: () => send('POST', '/api/v1/models/c_order', { C_BPartner_ID: rnd.pick(CUSTOMERS), C_DocTypeTarget_ID: DOCTYPE.apInvoice, Description: MARK, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' }),
    },
    stockWithoutLot: {
      weight: 1,
      invalid: true,
      run: () =>
        rnd.chance(0.5)
          ? send('POST', '/api/v1/models/m_movement', { Description: MARK, 'doc-action': 'CO', M_MovementLine: [{ M_Product_ID: LOT_TRACKED, M_Locator_ID: LOCATORS[0], M_LocatorTo_ID: LOCATORS[1], MovementQty: 1 }] })
          : send('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: HQ_WAREHOUSE, Description: MARK, 'doc-action': 'CO', M_InventoryLine: [{ M_Product_ID: LOT_TRACKED, QtyCount: rnd.int(0, 5) }] }),
    },
    paymentWithoutAmount: {
      weight: 1,
      invalid: true,
      run: () => send('POST', '/api/v1/models/c_payment', { C_BPartner_ID: rnd.pick(CUSTOMERS), IsReceipt: true, PayAmt: 0, Description: MARK, 'doc-action': 'CO' }),
    },
    allocationNotNetting: {
      weight: 2,
      invalid: true,
      run: async () => {
        const open = await openInvoices();
        if (!open.length) return null;
        const i = rnd.pick(open);
        return send('POST', '/api/v1/models/c_allocationhdr', { C_Currency_ID: Number(i.c_currency_id), Description: MARK, C_AllocationLine: [{ C_Invoice_ID: i.c_invoice_id, Amount: sense(i) * Math.min(10, i.open) }], 'doc-action': 'CO' });
      },
    },
    overReceipt: {
      weight: 1,
      invalid: true,
      run: async () => {
        const lines = (await orderLines('CO')).filter((l) => l.issotrx === 'N');
        if (!lines.length) return null;
        const l = rnd.pick(lines);
        return send('POST', '/api/v1/models/m_inout', { C_Order_ID: l.c_order_id, Description: MARK, M_InOutLine: [{ C_OrderLine_ID: l.c_orderline_id, MovementQty: l.ordered - l.delivered + rnd.int(1, 5) }], 'doc-action': 'CO' });
      },
    },
    reactivateInvoice: {
      weight: 1,
      invalid: true,
      run: async () => {
        const docs = await completed('c_invoice');
        return docs.length ? send('PUT', `/api/v1/models/c_invoice/${rnd.pick(docs).id}`, { 'doc-action': 'RE' }) : null;
      },
    },
    reverseOrder: {
      weight: 1,
      invalid: true,
      run: async () => {
        const docs = await completed('c_order');
        return docs.length ? send('PUT', `/api/v1/models/c_order/${rnd.pick(docs).id}`, { 'doc-action': 'RC' }) : null;
      },
    },
    actOnReversed: {
      weight: 1,
      invalid: true,
      run: async () => {
        const table = rnd.pick(['c_invoice', 'c_payment', 'm_inout']);
        const docs = await sql(`SELECT ${table}_id AS id FROM ${table} WHERE docstatus = 'RE' AND description = $1 ORDER BY 1`, [MARK]);
        return docs.length ? send('PUT', `/api/v1/models/${table}/${rnd.pick(docs).id}`, { 'doc-action': rnd.pick(['VO', 'RC', 'CO']) }) : null;
      },
    },
  };
  const names = Object.keys(actions);
  const totalWeight = names.reduce((n, k) => n + actions[k]!.weight, 0);
  const chooseAction = (): string => {
    let x = rnd.next() * totalWeight;
    for (const k of names) {
      x -= actions[k]!.weight;
      if (x < 0) return k;
    }
    return names[names.length - 1]!;
  };
  /**
   * Violations as comparable lines: what they are about and by how much the two sides differ (the
   * values themselves move with every document; a difference that stays put is the starting point).
   */
  const differences = (v: Violation[]) =>
    v.map((x) => {
      const by = Number(x.actual) - Number(x.expected);
      return `${x.check} ${JSON.stringify(x.subject)}: ${Number.isFinite(by) ? `off by ${Math.round(by * 1e6) / 1e6}` : x.detail}`;
    });
  /** What changed between the starting point's violations and the present ones, with the present ones in words. */
  const changes = (baseline: string[], v: Violation[]): string | null => {
    const now = differences(v);
    const added = now.filter((x) => !baseline.includes(x));
    const gone = baseline.filter((x) => !now.includes(x));
    if (!added.length && !gone.length) return null;
    const words = v.filter((_, i) => added.includes(now[i]!)).map((x) => `${x.check} ${JSON.stringify(x.subject)}: ${x.detail}`);
    return [...words, ...gone.map((x) => `no longer: ${x}`)].join('\n');
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    // A product costed FIFO and one costed LIFO (categories of their own), bought, sold, moved and counted as the others.
    const costing = costingCalls(() => ({ server, token }));
    for (const method of ['F', 'L']) {
      const product = await costing.product(method, 9);
      queuedProducts.push(product);
      for (const list of [LISTS.sales[0]!.products, LISTS.purchase[0]!.products, COUNTED, MOVED]) list.push(product);
    }
    for (const [from, to, type, multiply] of [
      [EUR, USD, PERIOD_END, 1.35],
      [USD, EUR, PERIOD_END, 0.74],
      [EUR, USD, AVERAGE, 1.25],
      [USD, EUR, AVERAGE, 0.8],
    ] as const) {
      const r = await rate(from, to, type, multiply);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await server?.close();
  });

  it(`keeps the books right over ${STEPS} random steps (FUZZ_SEED=${SEED})`, async () => {
    // The seeded books agree, the demo's opening stock included (its physical inventory is seeded).
    const baseline = differences(await booksViolations(server.services.db, CLIENT));
    assert.deepEqual(baseline, [], 'the seeded books agree');
    const history: string[] = [];
    const counts: Record<string, [number, number]> = {};
    for (let step = 1; step <= STEPS; step++) {
      const name = chooseAction();
      const action = actions[name]!;
      const before = await digest();
      const outcome = await action.run();
      if (!outcome) continue;
      history.push(`${step} ${name}: ${outcome.status} ${outcome.text.slice(0, 300)}`);
      if (process.env.FUZZ_LOG) process.stdout.write(`# ${history[history.length - 1]!.slice(0, outcome.status >= 400 ? 400 : 60)}\n`);
      const where = `FUZZ_SEED=${SEED} FUZZ_STEPS=${STEPS}, step ${step} (${name}); the last steps:\n${history.slice(-8).join('\n')}`;
      assert.ok(outcome.status < 500, `answered ${outcome.status}: ${where}`);
      const c = (counts[name] ??= [0, 0]);
      if (outcome.status >= 400) {
        c[1]++;
        assert.equal(outcome.status, 400, `a refusal is a 400: ${where}`);
        assert.equal(await digest(), before, `a refused action left a trace: ${where}`);
      } else {
        c[0]++;
        assert.ok(!action.invalid, `an invalid action was accepted: ${where}`);
      }
      const changed = changes(baseline, await booksViolations(server.services.db, CLIENT));
      assert.equal(changed, null, `the books disagree after ${where}\n${changed}`);
    }
    const summary = Object.entries(counts).map(([k, [done, refused]]) => `${k} ${done}/${refused}`).join(', ');
    // The run did something on each side: documents were accepted and invalid ones refused.
    const accepted = Object.values(counts).reduce((n, [d]) => n + d, 0);
    const refused = Object.values(counts).reduce((n, [, r]) => n + r, 0);
    assert.ok(accepted > STEPS / 3 && refused > 0, `accepted ${accepted}, refused ${refused}: ${summary}`);
    // Every stock change of the lot-tracked product went under a lot.
    const [lots] = await sql(
      `SELECT count(*) FILTER (WHERE m_attributesetinstance_id <> 0)::int AS named, count(*) FILTER (WHERE m_attributesetinstance_id = 0)::int AS unnamed FROM m_transaction WHERE m_product_id = $1`,
      [LOT_TRACKED],
    );
    assert.equal(lots!.unnamed, 0, 'a transaction of the lot-tracked product without a lot');
    // What the finance runs did: cash journals completed and voided, payments made by payment runs, invoices dunned.
    const [finance] = await sql(
      `SELECT (SELECT count(*) FROM c_cash WHERE description = $1 AND docstatus IN ('CO', 'CL'))::int AS cash,
              (SELECT count(*) FROM c_cash WHERE description = $1 AND docstatus IN ('VO', 'RE'))::int AS voided,
              (SELECT count(*) FROM c_payselectioncheck k JOIN c_payselection s ON s.c_payselection_id = k.c_payselection_id WHERE s.description = $1 AND k.c_payment_id IS NOT NULL)::int AS paid,
              (SELECT count(*) FROM c_payselectionline l JOIN c_payselection s ON s.c_payselection_id = l.c_payselection_id WHERE s.description = $1 AND l.discountamt <> 0)::int AS discounts,
              (SELECT count(*) FROM c_dunningrunline l JOIN c_dunningrunentry e ON e.c_dunningrunentry_id = l.c_dunningrunentry_id
                 JOIN c_dunningrun r ON r.c_dunningrun_id = e.c_dunningrun_id WHERE r.description = $1 AND r.processed = 'Y' AND l.c_invoice_id IS NOT NULL)::int AS dunned`,
      [MARK],
    );
    process.stdout.write(`# finance: ${JSON.stringify(finance)}\n`);
    // What the products costed FIFO and LIFO went through: their cost layers and the cost details that took from them.
    const [queued] = await sql(
      `SELECT (SELECT count(*) FROM m_costqueue WHERE m_product_id = ANY($1::bigint[]))::int AS layers,
              (SELECT count(*) FROM m_costdetail WHERE m_product_id = ANY($1::bigint[]) AND qty < 0)::int AS taken`,
      [queuedProducts],
    );
    process.stdout.write(`# FIFO and LIFO products: ${JSON.stringify(queued)}\n`);
    process.stdout.write(`# books fuzz seed ${SEED}, ${STEPS} steps: ${accepted} accepted, ${refused} refused, ${lots!.named} transactions of lots (accepted/refused by action: ${summary})\n`);
  });
});
