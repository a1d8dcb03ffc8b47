import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';

/** A reversed M_MatchInv and its reversal, for posting. */
export interface MatchInvReversal {
  original: number;
  reversal: number;
  posted: boolean;
}

/**
 * Reversal copies of the matches (of `table`) whose `lineColumn` is a line of the document: a copy
 * with negated quantity dated `date`, each pointing at the other through Reversal_ID, as the
 * original's match reverse. Returns the pairs.
 */
async function reverseRows(q: Queryable, table: 'm_matchinv' | 'm_matchpo', lineColumn: 'm_inoutline_id' | 'c_invoiceline_id', lineIds: string, headerId: number, date: unknown, userId: number) {
  const cols = table === 'm_matchinv' ? 'm_inoutline_id, c_invoiceline_id' : 'c_orderline_id, m_inoutline_id, c_invoiceline_id, isapproved, pricematchdifference';
  const { rows } = await q.query<{ original: number; reversal: number; posted: string }>(
    `WITH src AS (
       SELECT m.*, nextval('${table}_sq') AS new_id FROM ${table} m WHERE m.${lineColumn} IN (${lineIds}) AND m.reversal_id IS NULL),
     ins AS (
       INSERT INTO ${table} (${table}_id, ${table}_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ${cols},
         m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno, description, reversal_id)
       SELECT new_id, gen_random_uuid()::text, ad_client_id, ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4, ${cols},
         m_product_id, m_attributesetinstance_id, $2::timestamp, $2::timestamp, -qty, 'Y', 'N', documentno || '^', description, ${table}_id FROM src ORDER BY ${table}_id)
     UPDATE ${table} m SET reversal_id = src.new_id, updated = $3::timestamp, updatedby = $4 FROM src WHERE m.${table}_id = src.${table}_id
     RETURNING m.${table}_id AS original, src.new_id AS reversal, m.posted`,
    [headerId, date, nowTimestamp(), userId],
  );
  return rows.map((r) => ({ original: Number(r.original), reversal: Number(r.reversal), posted: r.posted === 'Y' }));
}

const RECEIPT_LINE_IDS = 'SELECT l.m_inoutline_id FROM m_inoutline l WHERE l.m_inout_id = $1';
const INVOICE_LINE_IDS = 'SELECT l.c_invoiceline_id FROM c_invoiceline l WHERE l.c_invoice_id = $1';

/**
 * Reversing a receipt reverses the matches of its lines; what of them was invoiced goes back to
 * the invoice line's own match (added to an open one of the same invoice line, else a new one),
 * so the order line stays invoiced, as the original's MMatchPO.reverse.
 */
export async function reverseReceiptMatches(q: Queryable, inoutId: number, date: unknown, userId: number): Promise<MatchInvReversal[]> {
  const reversed = await reverseRows(q, 'm_matchinv', 'm_inoutline_id', RECEIPT_LINE_IDS, inoutId, date, userId);
  const pos = await reverseRows(q, 'm_matchpo', 'm_inoutline_id', RECEIPT_LINE_IDS, inoutId, date, userId);
  const now = nowTimestamp();
  for (const { original } of pos) {
    const { rows } = await q.query(
      `UPDATE m_matchpo o SET qty = o.qty + r.qty, updated = $2::timestamp, updatedby = $3
         FROM m_matchpo r
        WHERE r.m_matchpo_id = $1 AND r.c_invoiceline_id IS NOT NULL
          AND o.m_matchpo_id = (SELECT x.m_matchpo_id FROM m_matchpo x WHERE x.c_invoiceline_id = r.c_invoiceline_id AND x.c_orderline_id = r.c_orderline_id
                                   AND x.m_inoutline_id IS NULL AND x.reversal_id IS NULL AND x.posted = 'N' ORDER BY x.m_matchpo_id LIMIT 1)
       RETURNING o.m_matchpo_id`,
      [original, now, userId],
    );
    if (rows.length) continue;
    await q.query(
      `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         c_orderline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno, pricematchdifference)
       SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, r.ad_client_id, r.ad_org_id, 'Y', $2::timestamp, $3, $2::timestamp, $3,
         r.c_orderline_id, r.c_invoiceline_id, r.m_product_id, r.m_attributesetinstance_id, r.datetrx, r.dateacct, r.qty, 'Y', 'N', r.isapproved, r.documentno, r.pricematchdifference
         FROM m_matchpo r WHERE r.m_matchpo_id = $1 AND r.c_invoiceline_id IS NOT NULL`,
      [original, now, userId],
    );
  }
  return reversed;
}

/**
 * Reversing a vendor invoice reverses the M_MatchInv of its lines; its purchase order matches are
 * undone as the original does for matches not posted: one of the invoice line alone is removed,
 * one that also holds a receipt line keeps only the receipt line.
 */
export async function reverseInvoiceMatches(q: Queryable, invoiceId: number, date: unknown, userId: number): Promise<MatchInvReversal[]> {
  const reversed = await reverseRows(q, 'm_matchinv', 'c_invoiceline_id', INVOICE_LINE_IDS, invoiceId, date, userId);
  await q.query(`DELETE FROM m_matchpo WHERE c_invoiceline_id IN (${INVOICE_LINE_IDS}) AND m_inoutline_id IS NULL AND reversal_id IS NULL`, [invoiceId]);
  await q.query(
    `UPDATE m_matchpo SET c_invoiceline_id = NULL, pricematchdifference = NULL, updated = $2::timestamp, updatedby = $3
      WHERE c_invoiceline_id IN (${INVOICE_LINE_IDS}) AND reversal_id IS NULL`,
    [invoiceId, nowTimestamp(), userId],
  );
  return reversed;
}
