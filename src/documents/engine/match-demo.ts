import type { Queryable } from '../../db/types.js';

/**
 * Matches of the demo's completed purchase documents (for databases created before matching), as
 * the rules of matching.ts give them: M_MatchInv for the invoice lines naming receipt lines, one
 * M_MatchPO per receipt line holding the invoice line of the same quantity that names it, one per
 * invoice line of an order line otherwise.
 */
export async function addDemoMatches(q: Queryable): Promise<void> {
  const now = new Date().toISOString();
  const done = `IN ('CO', 'CL')`;
  await q.query(
    `INSERT INTO m_matchinv (m_matchinv_id, m_matchinv_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno)
     SELECT nextval('m_matchinv_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       sl.m_inoutline_id, il.c_invoiceline_id, il.m_product_id, COALESCE(il.m_attributesetinstance_id, sl.m_attributesetinstance_id),
       GREATEST(i.dateacct, s.dateacct), GREATEST(i.dateacct, s.dateacct), LEAST(il.qtyinvoiced, sl.movementqty), 'Y', 'N', i.documentno
       FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
       JOIN m_inoutline sl ON sl.m_inoutline_id = il.m_inoutline_id JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
      WHERE i.issotrx = 'N' AND s.issotrx = 'N' AND i.docstatus ${done} AND s.docstatus ${done} AND il.m_product_id IS NOT NULL AND il.qtyinvoiced > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchinv m WHERE m.c_invoiceline_id = il.c_invoiceline_id AND m.m_inoutline_id = sl.m_inoutline_id)
      ORDER BY il.c_invoiceline_id`,
    [now],
  );
  const columns = `m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_orderline_id, m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno`;
  await q.query(
    `INSERT INTO m_matchpo (${columns})
     SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, sl.ad_client_id, sl.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       sl.c_orderline_id, sl.m_inoutline_id, il.c_invoiceline_id, sl.m_product_id, sl.m_attributesetinstance_id, s.dateacct, s.dateacct, sl.movementqty, 'Y', 'N', 'Y', s.documentno
       FROM m_inoutline sl JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
       LEFT JOIN LATERAL (SELECT x.c_invoiceline_id FROM c_invoiceline x JOIN c_invoice i ON i.c_invoice_id = x.c_invoice_id
                           WHERE x.m_inoutline_id = sl.m_inoutline_id AND x.c_orderline_id = sl.c_orderline_id AND x.qtyinvoiced = sl.movementqty
                             AND i.issotrx = 'N' AND i.docstatus ${done} ORDER BY x.c_invoiceline_id LIMIT 1) il ON true
      WHERE s.issotrx = 'N' AND s.movementtype = 'V+' AND s.docstatus ${done} AND sl.c_orderline_id IS NOT NULL AND sl.m_product_id IS NOT NULL AND sl.movementqty > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.m_inoutline_id = sl.m_inoutline_id)
      ORDER BY sl.m_inoutline_id`,
    [now],
  );
  await q.query(
    `INSERT INTO m_matchpo (${columns})
     SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       il.c_orderline_id, NULL, il.c_invoiceline_id, il.m_product_id, il.m_attributesetinstance_id, i.dateacct, i.dateacct, il.qtyinvoiced, 'Y', 'N', 'Y', i.documentno
       FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
      WHERE i.issotrx = 'N' AND i.docstatus ${done} AND il.c_orderline_id IS NOT NULL AND il.m_product_id IS NOT NULL AND il.qtyinvoiced > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.c_invoiceline_id = il.c_invoiceline_id)
      ORDER BY il.c_invoiceline_id`,
    [now],
  );
}

/**
 * Databases matched before one M_MatchPO held both a receipt line and an invoice line have, for
 * such a pair, the invoice's match (which named the receipt line) and the receipt's own: the
 * receipt's copy goes, so that the order line's matches add up to what it received.
 */
export async function mergeDoubleMatches(q: Queryable): Promise<void> {
  await q.query(
    `DELETE FROM m_matchpo r
      WHERE r.c_invoiceline_id IS NULL AND r.m_inoutline_id IS NOT NULL AND r.reversal_id IS NULL
        AND EXISTS (SELECT 1 FROM m_matchpo c WHERE c.m_inoutline_id = r.m_inoutline_id AND c.c_orderline_id = r.c_orderline_id
                      AND c.c_invoiceline_id IS NOT NULL AND c.reversal_id IS NULL AND c.qty = r.qty)`,
  );
}
