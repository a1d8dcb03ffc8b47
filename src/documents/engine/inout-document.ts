import { mul, round } from '../decimal.js';
import { nowTimestamp, todayDate } from '../row-values.js';
import { postFacts, postReversingFacts, type Fact } from '../accounting/facts.js';
import { moveStock } from '../stock/movements.js';
import { purchasePriceCostSql } from '../stock/product-cost.js';
import { current, definiteNumberAndDate, docId, docTypeOf, requireLines, requireOpenPeriod, accrualOnVoid, noReactivation, type DocTypeRow } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { matchReceipt } from './matching.js';
import { reverseReceiptMatches } from './match-reversal.js';
import { postMatchInvoiceReversals, postMatchInvoices } from './match-posting.js';
import { createReversal, type ReversalDetail } from './reversal.js';

interface CostLine {
  m_inoutline_id: number;
  m_product_id: number;
  movementqty: string;
  cost: string | null;
}

/**
 * Cost of each stocked line: the order line's price for receipts from a purchase order, else the
 * standard price of the client's default purchase price list on the movement date.
 */
const COST_SQL = `SELECT il.m_inoutline_id, il.m_product_id, il.movementqty::text,
    COALESCE(CASE WHEN h.issotrx = 'N' THEN ol.priceactual END, ${purchasePriceCostSql('il.m_product_id', 'h.movementdate', 'h.ad_client_id')}, 0)::text AS cost
  FROM m_inoutline il
  JOIN m_inout h ON h.m_inout_id = il.m_inout_id
  JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I'
  LEFT JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id
 WHERE il.m_inout_id = $1 ORDER BY il.line, il.m_inoutline_id`;

/** The accounts a movement type moves value between: [debit, credit]. */
const ACCOUNTS = {
  'C-': ['p_cogs_acct', 'p_asset_acct'],
  'C+': ['p_asset_acct', 'p_cogs_acct'],
  'V+': ['p_asset_acct', 'notinvoicedreceipts_acct'],
  'V-': ['notinvoicedreceipts_acct', 'p_asset_acct'],
} as const;

async function post(d: DocumentContext, periodId: number): Promise<DocTypeRow | null> {
  const { rows } = await d.wc.tx.query<CostLine>(COST_SQL, [docId(d)], { name: 'doc_inout_costs' });
  const movement = String(d.row.movementtype) as keyof typeof ACCOUNTS;
  const [debit, credit] = ACCOUNTS[movement] ?? ACCOUNTS['C-'];
  const facts: Fact[] = [];
  for (const l of rows) {
    const amount = round(mul(l.cost ?? 0, l.movementqty), 2);
    const common = { lineId: Number(l.m_inoutline_id), productId: Number(l.m_product_id), qty: movement.endsWith('-') ? mul(l.movementqty, -1) : l.movementqty };
    facts.push({ ...common, account: debit, dr: amount }, { ...common, account: credit, cr: amount });
  }
  const dt = await docTypeOf(d);
  await postFacts(d, {
    dateAcct: current(d, 'dateacct'),
    dateTrx: current(d, 'movementdate'),
    periodId,
    bpartnerId: Number(d.row.c_bpartner_id),
    glCategoryId: dt?.gl_category_id ?? null,
    facts,
  });
  return dt;
}

const LINES: ReversalDetail = { table: 'm_inoutline', link: 'm_inout_id', negate: ['movementqty', 'qtyentered'], backLink: 'reversalline_id' };

async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const d2 = { ...d, row: { ...d.row, dateacct: date } };
  const periodId = await requireOpenPeriod(d2);
  const reversalId = await createReversal(d, [LINES], [], date);
  await moveStock(d.wc.tx, reversalId, String(d.row.movementtype), accrual ? date : d.row.movementdate, d.wc.auth.userId);
  const matches = await reverseReceiptMatches(d.wc.tx, docId(d), date, d.wc.auth.userId);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await postMatchInvoiceReversals(d, matches, date, periodId);
  await d.wc.tx.query(`UPDATE m_inout SET posted = 'Y' WHERE m_inout_id = $1`, [reversalId]);
  d.changes.posted = d.row.posted;
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}

/**
 * Shipments (C-) and receipts (V+), and their returns (C+, V-): complete moves the stock (on hand
 * by locator, transactions, the order lines' delivered quantity and the orders' reservations) and
 * posts cost of goods sold against inventory, or inventory against not-invoiced receipts; a
 * completed one is voided or reversed by a reversal document that moves everything back.
 */
export const inoutDocument: DocumentType = {
  table: 'm_inout',
  refusal: noReactivation,
  details: [{ table: 'm_inoutline', link: 'm_inout_id' }],

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'm_inoutline');
    const { rows } = await d.wc.tx.query<{ line: number }>(
      `SELECT il.line FROM m_inoutline il JOIN m_product p ON p.m_product_id = il.m_product_id
        WHERE il.m_inout_id = $1 AND p.producttype = 'I' AND il.m_locator_id IS NULL ORDER BY il.line LIMIT 1`,
      [docId(d)],
    );
    if (rows[0]) throw refuse(`line ${rows[0].line} has no locator`);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'movementdate');
    const periodId = await requireOpenPeriod(d);
    await moveStock(d.wc.tx, docId(d), String(d.row.movementtype), current(d, 'movementdate'), d.wc.auth.userId);
    const dt = await post(d, periodId);
    // Matched after posting: the invoice matches it writes post against the receipt's facts.
    if (d.row.issotrx === 'N') {
      const origin = { userId: d.wc.auth.userId, dateTrx: current(d, 'movementdate'), dateAcct: current(d, 'dateacct'), documentNo: String(current(d, 'documentno') ?? '') };
      const matched = await matchReceipt(d.wc.tx, docId(d), String(d.row.movementtype), origin);
      await postMatchInvoices(d, matched, dt?.docbasetype ?? null, dt?.gl_category_id ?? null);
    }
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO') return reverse(d, await accrualOnVoid(d));
    await d.wc.tx.query(
      `UPDATE m_inoutline SET description = btrim(COALESCE(description, '') || ' Voided (' || movementqty::text || ')'), movementqty = 0, qtyentered = 0,
              updated = $2::timestamp, updatedby = $3 WHERE m_inout_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
  },

  async close() {},

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
