import type { Queryable } from '../../db/types.js';
import { costAsiSql, costingLevelSql, costingMethodSql, costOrgSql, costRowJoin, materialElementSql } from '../costing/costing-method.js';

/** The costing methods whose cost a cost adjustment sets: standard and the two averages. */
export const ADJUSTABLE_METHODS: readonly string[] = ['S', 'A', 'I'];

/** The description of the cost details of cost adjustments. */
export const COST_ADJUSTMENT_DESCRIPTION = 'Cost Adjustment';

/**
 * CTEs `s` (the schema $2 with its precision) and `k`: each line `lines` selects (line_id, line,
 * m_product_id, ad_org_id, asi (its attribute set instance), newprice: the price it sets, expected: the cost it was made at, undo:
 * for a reversal's line, the change per unit it takes back, else null) with its product's costing
 * method and material element and the cost row it adjusts (at the cost key of the product's costing
 * level: cost_org, cost_asi): m_cost_id (null when
 * there is none), price, qty, cumulated amount and quantity, target (the new price, or for a
 * reversal the price less the change it takes back) and amt, the revaluation of the stock on hand
 * ((target − price) × qty at the schema's precision).
 */
export const adjustedCostsSql = (lines: string): string => `s AS (
    SELECT a.c_acctschema_id, a.ad_client_id, a.m_costtype_id, cur.stdprecision::int AS prec
      FROM c_acctschema a JOIN c_currency cur ON cur.c_currency_id = a.c_currency_id WHERE a.c_acctschema_id = $2
  ), l AS (${lines}
  ), m AS MATERIALIZED (
    SELECT l.*, e.method, e.element, ${costOrgSql('e.level', 'l.ad_org_id')} AS cost_org, ${costAsiSql('e.level', 'l.asi')} AS cost_asi
      FROM l CROSS JOIN s
      CROSS JOIN LATERAL (SELECT x.method, x.level, ${materialElementSql('s.ad_client_id', 'x.method')} AS element
                            FROM (SELECT ${costingMethodSql('l.m_product_id', 's.c_acctschema_id')} AS method,
                                         ${costingLevelSql('l.m_product_id', 's.c_acctschema_id')} AS level OFFSET 0) x) e
  ), k AS (
    SELECT m.*, c.m_cost_id, c.ad_org_id AS cost_org_id, c.currentcostprice AS price, c.currentqty AS qty, c.cumulatedamt, c.cumulatedqty,
           t.target, round((t.target - c.currentcostprice) * c.currentqty, s.prec) AS amt
      FROM m CROSS JOIN s ${costRowJoin('m', 's', 'm.element', 'm.cost_org', 'm.cost_asi')}
      CROSS JOIN LATERAL (SELECT CASE WHEN m.undo IS NOT NULL THEN c.currentcostprice - m.undo ELSE m.newprice END AS target) t
  )`;

/** A product's cost as a cost adjustment line meets it: its costing method and, when it has a cost row, its price. */
export interface ProductCost {
  method: string | null;
  price: string | null;
}

/**
 * The costing method and current cost (M_Cost.CurrentCostPrice, null without a cost row) of a
 * product in the schema, for a line of the organization `orgId` and the instance `asiId` (the cost
 * key of its costing level).
 */
export async function productCost(q: Queryable, productId: number, schemaId: number, orgId = 0, asiId = 0): Promise<ProductCost> {
  const { rows } = await q.query<{ method: string | null; price: string | null }>(
    `WITH ${adjustedCostsSql(`SELECT 0 AS line_id, 0 AS line, $1::bigint AS m_product_id, $3::bigint AS ad_org_id, $4::bigint AS asi, 0::numeric AS newprice,
              0::numeric AS expected, NULL::numeric AS undo`)}
     SELECT k.method, k.price::text AS price FROM k`,
    [productId, schemaId, orgId, asiId],
    { name: 'doc_cost_adjust_product_cost' },
  );
  return { method: rows[0]?.method ?? null, price: rows[0]?.price ?? null };
}
