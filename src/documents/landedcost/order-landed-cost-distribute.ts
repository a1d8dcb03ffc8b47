import { refuse, type DocumentContext } from '../engine/document-type.js';
import { docId } from '../engine/common.js';
import { nowTimestamp } from '../row-values.js';

/**
 * Distributes the estimated landed costs of a purchase order ($1) over its lines in one statement,
 * as the original's MOrderLandedCost.distributeLandedCost at the order's completion: over the
 * lines its allocations already name, else over every product line; each line's base by the
 * distribution (Q ordered quantity, C line net amount, L 1, W and V the product's weight or volume
 * × ordered quantity), its share Amt × base / total at the currency's costing precision, the
 * rounding difference on the largest share; Qty the ordered quantity. The allocations are written
 * anew and marked processed with their landed cost. Answers the landed costs whose bases add up to 0.
 */
const DISTRIBUTE_SQL = `WITH lc AS (
    SELECT c.c_orderlandedcost_id, c.amt, c.landedcostdistribution AS dist, c.ad_client_id, c.ad_org_id,
           COALESCE((SELECT cur.costingprecision FROM c_currency cur JOIN c_order o ON o.c_currency_id = cur.c_currency_id WHERE o.c_order_id = $1), 4)::int AS prec
      FROM c_orderlandedcost c WHERE c.c_order_id = $1 AND c.isactive = 'Y'
  ), named AS (
    SELECT a.c_orderlandedcostallocation_id, a.c_orderlandedcost_id, a.c_orderline_id FROM c_orderlandedcostallocation a JOIN lc USING (c_orderlandedcost_id)
  ), targets AS (
    SELECT n.c_orderlandedcost_id, n.c_orderline_id FROM named n
    UNION ALL
    SELECT lc.c_orderlandedcost_id, ol.c_orderline_id FROM lc JOIN c_orderline ol ON ol.c_order_id = $1 AND ol.m_product_id IS NOT NULL AND ol.isactive = 'Y'
     WHERE NOT EXISTS (SELECT 1 FROM named n WHERE n.c_orderlandedcost_id = lc.c_orderlandedcost_id)
  ), based AS (
    SELECT t.*, lc.amt, lc.prec, lc.ad_client_id, lc.ad_org_id, ol.qtyordered AS qty,
           CASE lc.dist WHEN 'Q' THEN ol.qtyordered WHEN 'C' THEN ol.linenetamt WHEN 'L' THEN 1
                        WHEN 'W' THEN COALESCE(p.weight, 0) * ol.qtyordered WHEN 'V' THEN COALESCE(p.volume, 0) * ol.qtyordered ELSE 0 END AS base
      FROM targets t JOIN lc USING (c_orderlandedcost_id) JOIN c_orderline ol ON ol.c_orderline_id = t.c_orderline_id
      LEFT JOIN m_product p ON p.m_product_id = ol.m_product_id
  ), shared AS (
    SELECT b.*, sum(b.base) OVER w AS total,
           CASE WHEN sum(b.base) OVER w <> 0 THEN round(b.amt * b.base / sum(b.base) OVER w, b.prec) ELSE 0 END AS share
      FROM based b WINDOW w AS (PARTITION BY b.c_orderlandedcost_id)
  ), ranked AS (
    SELECT s.*, row_number() OVER (PARTITION BY s.c_orderlandedcost_id ORDER BY s.share DESC, s.c_orderline_id) AS rank,
           s.amt - sum(s.share) OVER (PARTITION BY s.c_orderlandedcost_id) AS rest
      FROM shared s
  ), dropped AS (
    DELETE FROM c_orderlandedcostallocation a USING named n WHERE a.c_orderlandedcostallocation_id = n.c_orderlandedcostallocation_id
  ), written AS (
    INSERT INTO c_orderlandedcostallocation (c_orderlandedcostallocation_id, c_orderlandedcostallocation_uu, ad_client_id, ad_org_id, isactive,
           created, createdby, updated, updatedby, c_orderlandedcost_id, c_orderline_id, base, qty, amt, processed)
    SELECT nextval('c_orderlandedcostallocation_sq'), gen_random_uuid()::text, r.ad_client_id, r.ad_org_id, 'Y', $2::timestamp, $3, $2::timestamp, $3,
           r.c_orderlandedcost_id, r.c_orderline_id, r.base, r.qty, r.share + CASE WHEN r.rank = 1 THEN r.rest ELSE 0 END, 'Y'
      FROM ranked r WHERE r.total <> 0 ORDER BY r.c_orderlandedcost_id, r.c_orderline_id
  ), marked AS (
    UPDATE c_orderlandedcost c SET processed = 'Y', updated = $2::timestamp, updatedby = $3 FROM lc WHERE c.c_orderlandedcost_id = lc.c_orderlandedcost_id
  )
  SELECT lc.c_orderlandedcost_id, lc.dist FROM lc
   WHERE NOT EXISTS (SELECT 1 FROM based b WHERE b.c_orderlandedcost_id = lc.c_orderlandedcost_id AND b.base <> 0)`;

/** Distributes a purchase order's estimated landed costs over its lines; refused when one has nothing to be shared by. */
export async function distributeOrderLandedCosts(d: DocumentContext): Promise<void> {
  const { rows } = await d.wc.tx.query<{ c_orderlandedcost_id: number; dist: string }>(DISTRIBUTE_SQL, [docId(d), nowTimestamp(), d.wc.auth.userId], { name: 'doc_order_landed_costs' });
  if (rows[0]) throw refuse(`the bases of the lines add up to 0 for the distribution ${rows[0].dist} of estimated landed cost ${rows[0].c_orderlandedcost_id}`);
}
