import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';

/**
 * Matching of the purchase side, as the original's MatchInv and MatchPO: a vendor receipt line
 * with the vendor invoice line that names it (M_MatchInv), and a purchase order line with the
 * receipt line or invoice line that delivers or invoices it (M_MatchPO). Written when the receipt
 * or the invoice completes (the other document must be completed already), reversed with it.
 */

const DONE = `IN ('CO', 'CL')`;

/** Which documents a statement matches: the one completing now (whatever its status), or every completed one. */
const scope = (alias: string, key: string, param: string) => `(${alias}.${key} = ${param}::bigint OR (${param}::bigint IS NULL AND ${alias}.docstatus ${DONE}))`;

const MATCH_INV = `INSERT INTO m_matchinv (m_matchinv_id, m_matchinv_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno)
  SELECT nextval('m_matchinv_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4,
    sl.m_inoutline_id, il.c_invoiceline_id, il.m_product_id, COALESCE(il.m_attributesetinstance_id, sl.m_attributesetinstance_id),
    GREATEST(i.dateacct, s.dateacct), GREATEST(i.dateacct, s.dateacct), il.qtyinvoiced, 'Y', 'N', i.documentno
    FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
    JOIN m_inoutline sl ON sl.m_inoutline_id = il.m_inoutline_id JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
   WHERE i.issotrx = 'N' AND s.issotrx = 'N' AND il.m_product_id IS NOT NULL AND il.qtyinvoiced <> 0
     AND ${scope('i', 'c_invoice_id', '$1')} AND ${scope('s', 'm_inout_id', '$2')}
     AND NOT EXISTS (SELECT 1 FROM m_matchinv m WHERE m.c_invoiceline_id = il.c_invoiceline_id AND m.m_inoutline_id = sl.m_inoutline_id)
   ORDER BY il.c_invoiceline_id`;

const MATCH_PO_RECEIPT = `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_orderline_id, m_inoutline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno)
  SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, sl.ad_client_id, sl.ad_org_id, 'Y', $2::timestamp, $3, $2::timestamp, $3,
    sl.c_orderline_id, sl.m_inoutline_id, sl.m_product_id, sl.m_attributesetinstance_id, s.dateacct, s.dateacct, sl.movementqty, 'Y', 'N', 'Y', s.documentno
    FROM m_inoutline sl JOIN m_inout s ON s.m_inout_id = sl.m_inout_id JOIN c_orderline ol ON ol.c_orderline_id = sl.c_orderline_id
   WHERE s.issotrx = 'N' AND sl.m_product_id IS NOT NULL AND sl.movementqty <> 0 AND ${scope('s', 'm_inout_id', '$1')}
     AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.m_inoutline_id = sl.m_inoutline_id AND m.c_invoiceline_id IS NULL)
   ORDER BY sl.m_inoutline_id`;

const MATCH_PO_INVOICE = `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_orderline_id, c_invoiceline_id, m_inoutline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno)
  SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $2::timestamp, $3, $2::timestamp, $3,
    il.c_orderline_id, il.c_invoiceline_id, il.m_inoutline_id, il.m_product_id, il.m_attributesetinstance_id, i.dateacct, i.dateacct, il.qtyinvoiced, 'Y', 'N', 'Y', i.documentno
    FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id
   WHERE i.issotrx = 'N' AND il.m_product_id IS NOT NULL AND il.qtyinvoiced <> 0 AND ${scope('i', 'c_invoice_id', '$1')}
     AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.c_invoiceline_id = il.c_invoiceline_id)
   ORDER BY il.c_invoiceline_id`;

/** Matches of a vendor receipt that completes: its order lines, and invoice lines already completed that name its lines. */
export async function matchReceipt(q: Queryable, inoutId: number, userId: number): Promise<void> {
  const now = nowTimestamp();
  await q.query(MATCH_PO_RECEIPT, [inoutId, now, userId], { name: 'doc_match_po_receipt' });
  await q.query(MATCH_INV, [null, inoutId, now, userId], { name: 'doc_match_inv' });
}

/** Matches of a vendor invoice that completes: its order lines, and completed receipt lines its lines name. */
export async function matchInvoice(q: Queryable, invoiceId: number, userId: number): Promise<void> {
  const now = nowTimestamp();
  await q.query(MATCH_PO_INVOICE, [invoiceId, now, userId], { name: 'doc_match_po_invoice' });
  await q.query(MATCH_INV, [invoiceId, null, now, userId], { name: 'doc_match_inv' });
}

/** Matches of the demo's completed purchase documents (for databases created before matching). */
export async function addDemoMatches(q: Queryable): Promise<void> {
  const now = new Date().toISOString();
  await q.query(MATCH_PO_RECEIPT, [null, now, 100]);
  await q.query(MATCH_PO_INVOICE, [null, now, 100]);
  await q.query(MATCH_INV, [null, null, now, 100]);
}

/**
 * Reversal of the matches of a document's lines (`column` names the line of the document in the
 * match: m_inoutline_id or c_invoiceline_id): a copy with negated quantity dated `date`, and each
 * pointing at the other through Reversal_ID, as the original's match reverse.
 */
export async function reverseMatches(q: Queryable, lineTable: 'm_inoutline' | 'c_invoiceline', headerId: number, date: unknown, userId: number): Promise<void> {
  const link = lineTable === 'm_inoutline' ? 'm_inout_id' : 'c_invoice_id';
  const key = `${lineTable}_id`;
  for (const [table, cols] of [
    ['m_matchinv', 'm_inoutline_id, c_invoiceline_id'],
    ['m_matchpo', 'c_orderline_id, m_inoutline_id, c_invoiceline_id, isapproved'],
  ] as const) {
    await q.query(
      `WITH src AS (
         SELECT m.*, nextval('${table}_sq') AS new_id FROM ${table} m
          WHERE m.${key} IN (SELECT l.${key} FROM ${lineTable} l WHERE l.${link} = $1) AND m.reversal_id IS NULL),
       ins AS (
         INSERT INTO ${table} (${table}_id, ${table}_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ${cols},
           m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno, description, reversal_id)
         SELECT new_id, gen_random_uuid()::text, ad_client_id, ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4, ${cols},
           m_product_id, m_attributesetinstance_id, $2::timestamp, $2::timestamp, -qty, 'Y', 'N', documentno || '^', description, ${table}_id FROM src ORDER BY ${table}_id)
       UPDATE ${table} m SET reversal_id = src.new_id, updated = $3::timestamp, updatedby = $4 FROM src WHERE m.${table}_id = src.${table}_id`,
      [headerId, date, nowTimestamp(), userId],
    );
  }
}
