import type { Queryable } from '../../db/types.js';
import { costAsiSql, costingLevelSql, costingMethodSql, costOrgSql, costRowJoin, materialElementSql } from './costing-method.js';
import { COST_HISTORY_CTE } from './cost-history.js';
import { QUEUE_CTES, QUEUE_WRITES } from './cost-queue.js';
import { seedPriceSql } from './seed-price.js';

/** The line column of M_CostDetail that a kind of stock document's cost details name. */
export type CostDetailColumn = 'm_inoutline_id' | 'm_inventoryline_id' | 'm_movementline_id';

/** One costed line: its quantity into stock (negative out of it) and the value that moved with it. */
export interface CostedLine {
  line_id: number;
  m_product_id: number;
  qty: string;
  amt: string;
  /** The part of `amt` that is a landed cost estimated on the order (0 for most lines). */
  landed: string;
}

export interface CostRun {
  column: CostDetailColumn;
  /**
   * Selects the stocked lines of the document $1 (the schema is $2): line_id, m_product_id,
   * ad_org_id, asi (the line's attribute set instance), qty (into stock positive), price (a unit price the line brings, as a receipt's
   * order price, else null), amt (an amount the line brings, as a reversal's, else null),
   * landed (a landed cost estimated on the order that the line brings beyond its price, else
   * null) and issotrx. Lines with a price or an amount average into the cost; the others move at it.
   */
  lines: string;
  documentId: number;
  schemaId: number;
  date: unknown;
  userId: number;
  now: string;
  /** A name for the prepared statement (one per kind of document). */
  name: string;
}

/**
 * Costs the stock lines of one document in one statement however many lines it has, as the
 * original's cost details. Each line is costed at the cost key of its product's costing level in
 * the schema (costingLevelSql): level C the client's (organization 0, instance 0), O the line's
 * organization, B the line's attribute set instance; M_Cost rows, cost layers and history are
 * kept per key, and the cost details name the instance of the key:
 * - each line's value is its own amount, or its price × quantity, or the product's current cost ×
 *   quantity (M_Cost.CurrentCostPrice of the element of its costing method, else the seed price),
 *   plus the landed cost estimated on its order line when it has one (not under standard costing);
 *   under standard costing a line's price is not used: receipts come in at the standard cost;
 * - an M_CostDetail row per line keeps that value with the cost and quantity it met;
 * - M_Cost takes the document's quantities (CurrentQty) and, for an average method, the weighted
 *   average of what the lines with their own value bring: (price × qty + Σ amounts) / (qty + Σ
 *   their quantities), at 8 decimals (twice the costing precision); reductions at the current
 *   cost leave the price. Standard cost keeps its price (set once, when it is still 0);
 * - under FIFO and LIFO (cost-queue.ts) a reduction moves at the value of the layers it takes, an
 *   addition makes a layer, and the price is the first layer's; all in the same statement.
 * - each cost changed keeps a row of M_CostHistory (cost-history.ts).
 * Lines of a client without cost elements are valued and detailed, and no M_Cost row is kept.
 * Answers each line's quantity and value, which the posting uses.
 */
export async function costLines(q: Queryable, run: CostRun): Promise<CostedLine[]> {
  const { rows } = await q.query<CostedLine>(
    `WITH s AS (
       SELECT a.c_acctschema_id, a.ad_client_id, a.m_costtype_id, cur.stdprecision::int AS prec
         FROM c_acctschema a JOIN c_currency cur ON cur.c_currency_id = a.c_currency_id WHERE a.c_acctschema_id = $2
     ), l AS (${run.lines}
     ), m AS MATERIALIZED (
       -- OFFSET 0 and MATERIALIZED: the method and element are looked up once a line, not once a use.
       SELECT l.*, e.method, e.element, ${costOrgSql('e.level', 'l.ad_org_id')} AS cost_org, ${costAsiSql('e.level', 'l.asi')} AS cost_asi
         FROM l CROSS JOIN s
         CROSS JOIN LATERAL (SELECT x.method, x.level, ${materialElementSql('s.ad_client_id', 'x.method')} AS element
                               FROM (SELECT ${costingMethodSql('l.m_product_id', 's.c_acctschema_id')} AS method,
                                            ${costingLevelSql('l.m_product_id', 's.c_acctschema_id')} AS level OFFSET 0) x) e
     ), k AS (
       SELECT m.*, c.currentcostprice AS cost_before, c.currentqty AS qty_before, c.cumulatedqty AS cqty_before, c.cumulatedamt AS camt_before,
              COALESCE(NULLIF(c.currentcostprice, 0), ${seedPriceSql('m.m_product_id', '$3::timestamp', 's.ad_client_id')}, 0) AS cost_price,
              ((m.price IS NOT NULL AND m.method <> 'S') OR m.amt IS NOT NULL) AS brings
         FROM m CROSS JOIN s ${costRowJoin('m', 's', 'm.element', 'm.cost_org', 'm.cost_asi')}
     ), ${QUEUE_CTES}, p AS (
       SELECT k.*, fl.line_id IS NOT NULL AS queued, e.landed_part,
              COALESCE(k.amt, round(fv.value, s.prec), round(CASE WHEN k.method = 'S' THEN k.cost_price ELSE COALESCE(k.price, k.cost_price) END * k.qty, s.prec)) + e.landed_part AS value
         FROM k CROSS JOIN s LEFT JOIN fl ON fl.line_id = k.line_id LEFT JOIN fv ON fv.line_id = k.line_id
         -- An estimated landed cost comes in with the line under every method but standard (whose cost keeps its price).
         CROSS JOIN LATERAL (SELECT CASE WHEN k.amt IS NULL AND k.method <> 'S' THEN round(COALESCE(k.landed, 0), s.prec) ELSE 0 END AS landed_part) e
     ), ${QUEUE_WRITES}, agg AS (
       SELECT p.m_product_id, p.cost_org, p.cost_asi, p.element, p.method, max(p.cost_price) AS cost_price, sum(p.qty) AS qty,
              COALESCE(sum(p.value) FILTER (WHERE p.brings), 0) AS xamt, COALESCE(sum(p.qty) FILTER (WHERE p.brings), 0) AS xqty,
              max(fp.price) AS queue_price
         FROM p LEFT JOIN first_layer fp ON fp.m_product_id = p.m_product_id AND fp.cost_org = p.cost_org AND fp.cost_asi = p.cost_asi AND p.queued
        WHERE p.element IS NOT NULL GROUP BY p.m_product_id, p.cost_org, p.cost_asi, p.element, p.method
     ), costs AS (
       INSERT INTO m_cost AS mc (m_cost_id, m_cost_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, m_product_id,
              m_attributesetinstance_id, c_acctschema_id, m_costtype_id, m_costelement_id, costingmethod, currentcostprice, currentqty,
              cumulatedamt, cumulatedqty, futurecostprice, iscostfrozen, processed)
       SELECT nextval('m_cost_sq'), gen_random_uuid()::text, s.ad_client_id, agg.cost_org, 'Y', $5::timestamp, $4, $5::timestamp, $4, agg.m_product_id, agg.cost_asi,
              s.c_acctschema_id, s.m_costtype_id, agg.element, agg.method,
              CASE WHEN agg.method IN ('F', 'L') THEN COALESCE(agg.queue_price, agg.cost_price)
                   WHEN agg.method <> 'S' AND agg.xqty > 0 THEN round(agg.xamt / agg.xqty, 8) ELSE agg.cost_price END,
              agg.qty, agg.xamt, agg.xqty, 0, 'N', 'Y'
         FROM agg CROSS JOIN s
       ON CONFLICT (ad_client_id, ad_org_id, m_product_id, m_attributesetinstance_id, m_costtype_id, c_acctschema_id, m_costelement_id) DO UPDATE SET
         currentcostprice = CASE
           WHEN excluded.costingmethod IN ('F', 'L') THEN excluded.currentcostprice
           WHEN excluded.costingmethod = 'S' OR excluded.cumulatedqty = 0 THEN CASE WHEN mc.currentcostprice = 0 THEN excluded.currentcostprice ELSE mc.currentcostprice END
           WHEN mc.currentqty <= 0 OR mc.currentqty + excluded.cumulatedqty <= 0 THEN
             CASE WHEN excluded.cumulatedqty > 0 THEN round(excluded.cumulatedamt / excluded.cumulatedqty, 8) ELSE mc.currentcostprice END
           ELSE round((mc.currentcostprice * mc.currentqty + excluded.cumulatedamt) / (mc.currentqty + excluded.cumulatedqty), 8) END,
         currentqty = mc.currentqty + excluded.currentqty,
         cumulatedamt = mc.cumulatedamt + excluded.cumulatedamt,
         cumulatedqty = mc.cumulatedqty + excluded.cumulatedqty,
         costingmethod = excluded.costingmethod, updated = excluded.updated, updatedby = excluded.updatedby
       RETURNING mc.m_product_id, mc.ad_org_id, mc.m_attributesetinstance_id, mc.m_costtype_id, mc.m_costelement_id, mc.currentqty, mc.currentcostprice, mc.cumulatedqty, mc.cumulatedamt
     ), details AS (
       INSERT INTO m_costdetail (m_costdetail_id, m_costdetail_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
              c_acctschema_id, m_product_id, m_attributesetinstance_id, m_costelement_id, ${run.column}, amt, qty, price, currentcostprice,
              currentqty, cumulatedamt, cumulatedqty, deltaamt, deltaqty, dateacct, issotrx, isbackdate, processed)
       SELECT nextval('m_costdetail_sq'), gen_random_uuid()::text, s.ad_client_id, p.ad_org_id, 'Y', $5::timestamp, $4, $5::timestamp, $4,
              s.c_acctschema_id, p.m_product_id, p.cost_asi, p.element, p.line_id, p.value, p.qty,
              CASE WHEN p.qty <> 0 THEN round(p.value / p.qty, 8) ELSE p.cost_price END, COALESCE(p.cost_before, 0),
              COALESCE(p.qty_before, 0), 0, 0, 0, 0, $3::timestamp, p.issotrx, 'N', 'Y'
         FROM p CROSS JOIN s ORDER BY p.line_id
       RETURNING m_costdetail_id, ${run.column} AS line_id
     ), ${COST_HISTORY_CTE}
     SELECT p.line_id, p.m_product_id, p.qty::text AS qty, p.value::text AS amt, p.landed_part::text AS landed FROM p ORDER BY p.line_id`,
    [run.documentId, run.schemaId, run.date, run.userId, run.now],
    { name: run.name },
  );
  return rows;
}

/**
 * The amount a reversal line brings: the negated value of the cost detail of the line it reverses
 * (`line`.reversalline_id), so that a reversal takes out (or brings back) exactly what its
 * original moved; null for a line that reverses nothing.
 */
export const reversedValueSql = (column: CostDetailColumn, line: string): string =>
  `CASE WHEN ${line}.reversalline_id IS NOT NULL THEN
     -(SELECT cd.amt FROM m_costdetail cd WHERE cd.${column} = ${line}.reversalline_id AND cd.c_acctschema_id = $2 ORDER BY cd.m_costdetail_id LIMIT 1) END`;
