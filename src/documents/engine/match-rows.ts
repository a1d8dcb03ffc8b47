import type { Queryable } from '../../db/types.js';
import { compare, dec, toText, type Decimal } from '../decimal.js';

/**
 * The rows of purchase matching: an order line's M_MatchPO rows as matching reads them, and the
 * writes of M_MatchInv and M_MatchPO rows (see matching.ts for the rules).
 */

/** What the matches written by a completing document take from it. */
export interface MatchOrigin {
  userId: number;
  /** The completing document's transaction date, accounting date and number. */
  dateTrx: unknown;
  dateAcct: unknown;
  documentNo: string;
}

export interface Stamp extends MatchOrigin {
  now: string;
  side: 'receipt' | 'invoice';
}

interface MatchPORow {
  m_matchpo_id: number;
  qty: string;
  m_inoutline_id: number | null;
  c_invoiceline_id: number | null;
  /** The receipt line the invoice line of the match names itself, if any. */
  invoice_names: number | null;
  invoice_unreceived: string | null;
}

export interface Candidate {
  id: number;
  qty: Decimal;
  inoutLineId: number | null;
  invoiceLineId: number | null;
  invoiceNames: number | null;
  /** What of the match's invoice line no receipt line is matched with yet (M_MatchInv). */
  invoiceUnreceived: Decimal;
}

export const id = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const CANDIDATES_SQL = `SELECT m.m_matchpo_id, m.qty::text AS qty, m.m_inoutline_id, m.c_invoiceline_id, il.m_inoutline_id AS invoice_names,
    (il.qtyinvoiced - COALESCE((SELECT sum(mi.qty) FROM m_matchinv mi
                   WHERE mi.c_invoiceline_id = il.c_invoiceline_id AND mi.reversal_id IS NULL AND mi.m_inoutline_id IS DISTINCT FROM $2::bigint), 0))::text AS invoice_unreceived
  FROM m_matchpo m LEFT JOIN c_invoiceline il ON il.c_invoiceline_id = m.c_invoiceline_id
 WHERE m.c_orderline_id = $1 AND m.reversal_id IS NULL AND m.qty > 0 ORDER BY m.m_matchpo_id`;

/**
 * The order line's matches that may take a receipt or invoice line (the original's not-matched
 * list), oldest first; what their invoice lines have not received leaves out the receipt line
 * being matched (its own invoice match is written just before).
 */
export async function candidates(q: Queryable, orderLineId: number, receiptLineId: number | null = null): Promise<Candidate[]> {
  const { rows } = await q.query<MatchPORow>(CANDIDATES_SQL, [orderLineId, receiptLineId], { name: 'doc_match_po_candidates' });
  return rows.map((r) => ({
    id: Number(r.m_matchpo_id),
    qty: dec(r.qty),
    inoutLineId: id(r.m_inoutline_id),
    invoiceLineId: id(r.c_invoiceline_id),
    invoiceNames: id(r.invoice_names),
    invoiceUnreceived: dec(r.invoice_unreceived ?? 0),
  }));
}

const INSERT_MATCH_INV = `INSERT INTO m_matchinv (m_matchinv_id, m_matchinv_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno)
  SELECT nextval('m_matchinv_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $4::timestamp, $5::bigint, $4::timestamp, $5::bigint,
    sl.m_inoutline_id, il.c_invoiceline_id, il.m_product_id, COALESCE(NULLIF(il.m_attributesetinstance_id, 0), sl.m_attributesetinstance_id),
    $6::timestamp, GREATEST(CASE WHEN $8::text = 'invoice' THEN $7::timestamp ELSE i.dateacct END, CASE WHEN $8::text = 'receipt' THEN $7::timestamp ELSE s.dateacct END),
    $3::numeric, 'Y', 'N', $9::text
    FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
    CROSS JOIN m_inoutline sl JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
   WHERE il.c_invoiceline_id = $1::bigint AND sl.m_inoutline_id = $2::bigint
     AND NOT EXISTS (SELECT 1 FROM m_matchinv m WHERE m.c_invoiceline_id = il.c_invoiceline_id AND m.m_inoutline_id = sl.m_inoutline_id)
  RETURNING m_matchinv_id`;

/**
 * The M_MatchInv of an invoice line and a receipt line, unless they have one: dated by the later
 * accounting date of both documents. Returns the new row's id.
 */
export async function matchInvoiceWithReceipt(q: Queryable, invoiceLineId: number, inoutLineId: number, qty: Decimal, s: Stamp): Promise<number | null> {
  const { rows } = await q.query<{ m_matchinv_id: number }>(
    INSERT_MATCH_INV,
    [invoiceLineId, inoutLineId, toText(qty), s.now, s.userId, s.dateTrx, s.dateAcct, s.side, s.documentNo],
    { name: 'doc_match_inv_insert' },
  );
  return rows[0] ? Number(rows[0].m_matchinv_id) : null;
}

/** The difference of the order's and the invoice's price for the quantity, when both are in the same currency (the original's PriceMatchDifference). */
const PRICE_DIFFERENCE = (orderLine: string, invoiceLine: string, qty: string) => `(SELECT (pol.priceactual - pil.priceactual) * ${qty}
    FROM c_orderline pol JOIN c_order po ON po.c_order_id = pol.c_order_id, c_invoiceline pil JOIN c_invoice pi ON pi.c_invoice_id = pil.c_invoice_id
   WHERE pol.c_orderline_id = ${orderLine} AND pil.c_invoiceline_id = ${invoiceLine} AND pi.c_currency_id = po.c_currency_id)`;

const INSERT_MATCH_PO = `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_orderline_id, m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved,
    documentno, pricematchdifference)
  SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, ol.ad_client_id, $5::bigint, 'Y', $8::timestamp, $9::bigint, $8::timestamp, $9::bigint,
    ol.c_orderline_id, $2::bigint, $3::bigint, $6::bigint, $7::bigint, $10::timestamp, $11::timestamp, $4::numeric, 'Y', 'N', 'Y', $12::text,
    ${PRICE_DIFFERENCE('ol.c_orderline_id', '$3::bigint', '$4::numeric')}
    FROM c_orderline ol WHERE ol.c_orderline_id = $1`;

export interface LineFacts {
  orgId: number;
  productId: number;
  asiId: number | null;
}

export async function insertMatchPO(q: Queryable, orderLineId: number, inoutLineId: number | null, invoiceLineId: number | null, qty: Decimal, line: LineFacts, s: Stamp): Promise<void> {
  await q.query(
    INSERT_MATCH_PO,
    [orderLineId, inoutLineId, invoiceLineId, toText(qty), line.orgId, line.productId, line.asiId, s.now, s.userId, s.dateTrx, s.dateAcct, s.documentNo],
    { name: 'doc_match_po_insert' },
  );
}

/** A match of an invoice line takes a receipt line too (dated by the receipt, as the original). */
export async function addReceiptLine(q: Queryable, matchId: number, inoutLineId: number, s: Stamp): Promise<void> {
  await q.query(`UPDATE m_matchpo SET m_inoutline_id = $2, dateacct = $3::timestamp, updated = $4::timestamp, updatedby = $5 WHERE m_matchpo_id = $1`, [matchId, inoutLineId, s.dateAcct, s.now, s.userId], {
    name: 'doc_match_po_add_receipt',
  });
}

/** A match of a receipt line takes an invoice line too. */
export async function addInvoiceLine(q: Queryable, matchId: number, invoiceLineId: number, s: Stamp): Promise<void> {
  await q.query(
    `UPDATE m_matchpo m SET c_invoiceline_id = $2, pricematchdifference = ${PRICE_DIFFERENCE('m.c_orderline_id', '$2::bigint', 'm.qty')}, updated = $3::timestamp, updatedby = $4
      WHERE m.m_matchpo_id = $1`,
    [matchId, invoiceLineId, s.now, s.userId],
    { name: 'doc_match_po_add_invoice' },
  );
}

/** Takes `qty` off a match (it goes to a new one); a match left with nothing is removed. */
export async function reduceMatch(q: Queryable, matchId: number, qty: Decimal, s: Stamp): Promise<void> {
  await q.query(`UPDATE m_matchpo SET qty = qty - $2::numeric, updated = $3::timestamp, updatedby = $4 WHERE m_matchpo_id = $1`, [matchId, toText(qty), s.now, s.userId], { name: 'doc_match_po_reduce' });
  await q.query(`DELETE FROM m_matchpo WHERE m_matchpo_id = $1 AND qty = 0`, [matchId], { name: 'doc_match_po_empty' });
}

/** Of two quantities of the same sign, the one nearer to zero (what both documents hold); null when their signs differ. */
export function common(a: Decimal, b: Decimal): Decimal | null {
  if (compare(a, 0) !== compare(b, 0)) return null;
  return compare(a, 0) >= 0 ? (compare(a, b) <= 0 ? a : b) : compare(a, b) >= 0 ? a : b;
}

