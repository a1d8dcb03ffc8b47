import { isZero, mul, sub } from '../decimal.js';
import { nowTimestamp, todayDate } from '../row-values.js';
import { accountSchema, accountSchemaJsonSql, keepAccountSchema, postFacts, postReversingFacts, type Fact } from '../accounting/facts.js';
import { costLines, reversedValueSql, type CostedLine } from '../costing/cost-lines.js';
import { moveStock } from '../stock/movements.js';
import { current, definiteNumberAndDate, docId, docTypeOf, NO_LINES, requireOpenPeriod, accrualOnVoid, noReactivation, type DocTypeRow } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { matchReceipt } from './matching.js';
import { postStandardReversalDifference } from '../costadjust/standard-reversal.js';
import { reverseReceiptMatches } from './match-reversal.js';
import { postMatchInvoiceReversals, postMatchInvoices } from './match-posting.js';
import { createReversal, type ReversalDetail } from './reversal.js';
import { ESTIMATED_LANDED_COST_SQL } from '../landedcost/order-landed-cost-estimate.js';

/**
 * The stocked lines of a shipment or receipt ($1) to cost: a receipt (or vendor return) line from
 * a purchase order brings the order line's price; the others move at the product's cost. A
 * receipt line (V+, not a reversal) also brings the landed costs estimated on its order line for
 * the quantity received: each allocation's Amt × received / its Qty, as the original's receipt.
 */
const COST_LINES_SQL = `SELECT il.m_inoutline_id AS line_id, il.m_product_id, il.ad_org_id, il.m_attributesetinstance_id AS asi,
    CASE WHEN h.movementtype LIKE '%-' THEN -il.movementqty ELSE il.movementqty END AS qty,
    CASE WHEN h.issotrx = 'N' THEN ol.priceactual END AS price, ${reversedValueSql('m_inoutline_id', 'il')} AS amt,
    CASE WHEN h.movementtype = 'V+' AND il.reversalline_id IS NULL THEN ${ESTIMATED_LANDED_COST_SQL('il.c_orderline_id', 'il.movementqty')} END AS landed, h.issotrx
  FROM m_inoutline il
  JOIN m_inout h ON h.m_inout_id = il.m_inout_id
  JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I'
  LEFT JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id
 WHERE il.m_inout_id = $1`;

/** Costs the lines of the shipment or receipt `inoutId` (M_CostDetail and M_Cost), answering their values. */
async function costInOut(d: DocumentContext, inoutId: number, date: unknown): Promise<CostedLine[]> {
  const schema = await accountSchema(d);
  return costLines(d.wc.tx, {
    column: 'm_inoutline_id', lines: COST_LINES_SQL, documentId: inoutId, schemaId: schema.schemaId,
    date, userId: d.wc.auth.userId, now: nowTimestamp(), name: 'doc_inout_costs',
  });
}

/** The accounts a movement type moves value between: [debit, credit]. */
const ACCOUNTS = {
  'C-': ['p_cogs_acct', 'p_asset_acct'],
  'C+': ['p_asset_acct', 'p_cogs_acct'],
  'V+': ['p_asset_acct', 'notinvoicedreceipts_acct'],
  'V-': ['notinvoicedreceipts_acct', 'p_asset_acct'],
} as const;

async function post(d: DocumentContext, periodId: number): Promise<DocTypeRow | null> {
  const rows = await costInOut(d, docId(d), current(d, 'movementdate'));
  const movement = String(d.row.movementtype) as keyof typeof ACCOUNTS;
  const [debit, credit] = ACCOUNTS[movement] ?? ACCOUNTS['C-'];
  const facts: Fact[] = [];
  for (const l of rows) {
    // Values are signed into stock; the accounts of the movement type already say the direction.
    const amount = movement.endsWith('-') ? mul(l.amt, -1) : l.amt;
    const common = { lineId: Number(l.line_id), productId: Number(l.m_product_id), qty: l.qty };
    // An estimated landed cost in the value is credited to Landed Cost Clearing, the rest to the usual account.
    facts.push({ ...common, account: debit, dr: amount }, { ...common, account: credit, cr: sub(amount, l.landed) });
    if (!isZero(l.landed)) facts.push({ ...common, account: 'p_landedcostclearing_acct', cr: l.landed });
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
  // The matches first: a variance they moved into the cost leaves it while the receipt's stock is still there to carry it.
  const matches = await reverseReceiptMatches(d.wc.tx, docId(d), date, d.wc.auth.userId);
  await postMatchInvoiceReversals(d, matches, date, periodId);
  await costInOut(d, reversalId, date);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await postStandardReversalDifference(d, LINES.table, reversalId, date, periodId);
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
  headerThroughChanges: true,
  oneHeaderWrite: true,

  async prepare(d) {
    await requireOpenPeriod(d);
    // Whether it has lines (the original's @NoLines@) and its first stocked line without a locator,
    // and the accounting schema that complete posts with, in one statement.
    const { rows } = await d.wc.tx.query<{ has_lines: boolean; unlocated: number | null; schema: unknown }>(
      `SELECT EXISTS (SELECT 1 FROM m_inoutline WHERE m_inout_id = $1 AND isactive = 'Y') AS has_lines,
              (SELECT il.line FROM m_inoutline il JOIN m_product p ON p.m_product_id = il.m_product_id
                WHERE il.m_inout_id = $1 AND p.producttype = 'I' AND il.m_locator_id IS NULL ORDER BY il.line LIMIT 1) AS unlocated,
              ${accountSchemaJsonSql('$2')} AS schema`,
      [docId(d), d.row.ad_client_id],
      { name: 'doc_inout_prepare_lines' },
    );
    if (!rows[0]?.has_lines) throw refuse(NO_LINES);
    if (rows[0].unlocated !== null) throw refuse(`line ${rows[0].unlocated} has no locator`);
    keepAccountSchema(d, rows[0].schema);
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
