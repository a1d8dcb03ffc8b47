import type { Queryable } from '../../db/types.js';
import { adjustedCostsSql, COST_ADJUSTMENT_DESCRIPTION } from './adjusted-costs.js';
import type { Revaluation } from './revaluation-facts.js';

/** The lines of a cost adjustment $1: a reversal's line takes back the change of the line it reverses. */
const LINES_SQL = `SELECT il.m_inventoryline_id AS line_id, il.line, il.m_product_id, il.ad_org_id, il.m_attributesetinstance_id AS asi, il.newcostprice AS newprice, il.currentcostprice AS expected,
    CASE WHEN il.reversalline_id IS NOT NULL THEN il.newcostprice - il.currentcostprice END AS undo
  FROM m_inventoryline il WHERE il.m_inventory_id = $1 AND il.isactive = 'Y'`;

/** A line as the adjustment meets it, to check before anything is written. */
export interface AdjustedLine {
  line: number;
  m_product_id: number;
  method: string | null;
  m_cost_id: number | null;
  price: string | null;
  expected: string | null;
  target: string | null;
  reverses: boolean;
  uses: number;
}

/** The lines of the adjustment `documentId` with their product's cost now and the price each would set. */
export async function adjustedLines(q: Queryable, documentId: number, schemaId: number): Promise<AdjustedLine[]> {
  const { rows } = await q.query<AdjustedLine>(
    `WITH ${adjustedCostsSql(LINES_SQL)}
     SELECT k.line, k.m_product_id, k.method, k.m_cost_id, k.price::text AS price, k.expected::text AS expected, k.target::text AS target,
            k.undo IS NOT NULL AS reverses, (count(*) OVER (PARTITION BY k.m_product_id, k.cost_org, k.cost_asi))::int AS uses
       FROM k ORDER BY k.line, k.line_id`,
    [documentId, schemaId],
    { name: 'doc_cost_adjust_check' },
  );
  return rows;
}

/**
 * Sets the costs of the adjustment `documentId`'s products, in one statement however many lines
 * it has, as the original's cost adjustment: per line, M_Cost.CurrentCostPrice becomes the target
 * price and CumulatedAmt grows by the revaluation of the stock on hand (CurrentQty unchanged:
 * under an average method the weighted average of that amount with no quantity, under standard
 * costing the price raised by the difference); an M_CostDetail of the line keeps the revaluation
 * (Qty 0) with the cost it met, an M_CostHistory row the old and new price, quantity and
 * cumulated values, and the line the prices it went from and to. Answers each line's revaluation.
 */
export async function adjustCosts(q: Queryable, documentId: number, schemaId: number, date: unknown, userId: number, now: string): Promise<Revaluation[]> {
  const { rows } = await q.query<Revaluation>(
    `WITH ${adjustedCostsSql(LINES_SQL)}, upd AS (
       UPDATE m_cost mc SET currentcostprice = k.target, cumulatedamt = mc.cumulatedamt + k.amt, updated = $4::timestamp, updatedby = $5
         FROM k WHERE mc.m_cost_id = k.m_cost_id
     ), det AS (
       INSERT INTO m_costdetail (m_costdetail_id, m_costdetail_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
              c_acctschema_id, m_product_id, m_attributesetinstance_id, m_costelement_id, m_inventoryline_id, amt, qty, price, currentcostprice,
              currentqty, cumulatedamt, cumulatedqty, deltaamt, deltaqty, dateacct, issotrx, isbackdate, processed, description)
       SELECT nextval('m_costdetail_sq'), gen_random_uuid()::text, s.ad_client_id, k.ad_org_id, 'Y', $4::timestamp, $5, $4::timestamp, $5,
              s.c_acctschema_id, k.m_product_id, k.cost_asi, k.element, k.line_id, k.amt, 0, k.target, k.price, k.qty, k.cumulatedamt, k.cumulatedqty, 0, 0,
              $3::timestamp, 'N', 'N', 'Y', $6::text
         FROM k CROSS JOIN s ORDER BY k.line_id
       RETURNING m_costdetail_id, m_inventoryline_id
     ), his AS (
       INSERT INTO m_costhistory (m_costhistory_id, m_costhistory_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
              m_costdetail_id, m_costelement_id, m_costtype_id, m_attributesetinstance_id, m_product_id, dateacct, isbackdate,
              oldqty, newqty, oldcostprice, newcostprice, oldcqty, newcqty, oldcamt, newcamt)
       SELECT nextval('m_costhistory_sq'), gen_random_uuid()::text, s.ad_client_id, k.cost_org_id, 'Y', $4::timestamp, $5, $4::timestamp, $5,
              det.m_costdetail_id, k.element, s.m_costtype_id, k.cost_asi, k.m_product_id, $3::timestamp, 'N',
              k.qty, k.qty, k.price, k.target, k.cumulatedqty, k.cumulatedqty, k.cumulatedamt, k.cumulatedamt + k.amt
         FROM det JOIN k ON k.line_id = det.m_inventoryline_id CROSS JOIN s ORDER BY det.m_costdetail_id
     ), lines AS (
       UPDATE m_inventoryline il SET currentcostprice = k.price, newcostprice = k.target
         FROM k WHERE il.m_inventoryline_id = k.line_id AND (il.currentcostprice IS DISTINCT FROM k.price OR il.newcostprice IS DISTINCT FROM k.target)
     )
     SELECT k.line_id, k.m_product_id, k.qty::text AS qty, k.amt::text AS amt FROM k ORDER BY k.line, k.line_id`,
    [documentId, schemaId, date, now, userId, COST_ADJUSTMENT_DESCRIPTION],
    { name: 'doc_cost_adjust_costs' },
  );
  return rows;
}
