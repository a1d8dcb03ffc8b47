import type { Queryable } from '../../db/types.js';
import { OPENING_COST_DESCRIPTION } from '../costing/costing-seed.js';
import { costingMethodSql, materialElementSql } from '../costing/costing-method.js';
import { text, type Violation } from './violation.js';

/**
 * Per costed product (its M_Cost rows of the schema's cost type under the element of its costing
 * method, one per cost key: one at the client level, one per organization at level O, one per
 * instance at level B): the stock value (Σ CurrentQty × CurrentCostPrice over its keys; under FIFO
 * and LIFO the sum of each key's layers, M_CostQueue CurrentQty × CurrentCostPrice) against the
 * product asset account (its facts, plus the opening counts' cost details, which post none), and
 * the costed quantity against what the storage holds. Each cost detail may round its value by
 * half a cent, so the values may differ by a cent per cost detail of the product.
 */
const STOCK_VALUE_SQL = `WITH a AS (
    SELECT a.c_acctschema_id, a.ad_client_id, a.m_costtype_id, vc.account_id, cur.stdprecision::int AS prec
      FROM c_acctschema a JOIN c_acctschema_default d ON d.c_acctschema_id = a.c_acctschema_id
      JOIN c_validcombination vc ON vc.c_validcombination_id = d.p_asset_acct
      JOIN c_currency cur ON cur.c_currency_id = a.c_currency_id
     WHERE a.ad_client_id = $1
  ), k AS (
    SELECT c.m_product_id, a.c_acctschema_id, a.account_id, c.currentqty,
           CASE WHEN c.costingmethod IN ('F', 'L') THEN
             (SELECT round(COALESCE(sum(q.currentqty * q.currentcostprice), 0), a.prec) FROM m_costqueue q
               WHERE q.ad_client_id = $1 AND q.c_acctschema_id = c.c_acctschema_id AND q.m_costtype_id = c.m_costtype_id AND q.ad_org_id = c.ad_org_id
                 AND q.m_attributesetinstance_id = c.m_attributesetinstance_id AND q.m_product_id = c.m_product_id AND q.m_costelement_id = c.m_costelement_id)
           ELSE round(c.currentqty * c.currentcostprice, a.prec) END AS value
      FROM m_cost c JOIN a ON a.c_acctschema_id = c.c_acctschema_id AND a.m_costtype_id = c.m_costtype_id
     WHERE c.ad_client_id = $1
       AND c.m_costelement_id = ${materialElementSql('a.ad_client_id', costingMethodSql('c.m_product_id', 'a.c_acctschema_id'))}
  ), c AS (
    SELECT m_product_id, c_acctschema_id, account_id, sum(currentqty) AS currentqty, sum(value) AS value
      FROM k GROUP BY m_product_id, c_acctschema_id, account_id
  )
  SELECT c.m_product_id AS product, c.value::text AS value, c.currentqty::text AS costed_qty,
         (COALESCE(f.amt, 0) + COALESCE(o.amt, 0))::text AS booked, COALESCE(s.qty, 0)::text AS on_hand, COALESCE(n.details, 0) AS details,
         c.currentqty <> COALESCE(s.qty, 0) AS qty_differs
    FROM c
    LEFT JOIN LATERAL (SELECT sum(f.amtacctdr - f.amtacctcr) AS amt FROM fact_acct f
                        WHERE f.ad_client_id = $1 AND f.c_acctschema_id = c.c_acctschema_id AND f.account_id = c.account_id AND f.m_product_id = c.m_product_id) f ON true
    LEFT JOIN LATERAL (SELECT sum(cd.amt) AS amt FROM m_costdetail cd
                        WHERE cd.ad_client_id = $1 AND cd.m_product_id = c.m_product_id AND cd.c_acctschema_id = c.c_acctschema_id AND cd.description = $2) o ON true
    LEFT JOIN LATERAL (SELECT count(*) AS details FROM m_costdetail cd WHERE cd.ad_client_id = $1 AND cd.m_product_id = c.m_product_id
                          AND cd.c_acctschema_id = c.c_acctschema_id) n ON true
    LEFT JOIN LATERAL (SELECT sum(qtyonhand) AS qty FROM m_storageonhand WHERE ad_client_id = $1 AND m_product_id = c.m_product_id) s ON true
   WHERE abs(c.value - COALESCE(f.amt, 0) - COALESCE(o.amt, 0)) > 0.01 * (1 + COALESCE(n.details, 0)) OR c.currentqty <> COALESCE(s.qty, 0)
   ORDER BY c.m_product_id`;

/** (f) The stock value of each costed product equals its product asset balance, and its costed quantity what is on hand. */
export async function stockValueDifferences(q: Queryable, clientId: number): Promise<Violation[]> {
  const { rows } = await q.query<{ product: number; value: string; costed_qty: string; booked: string; on_hand: string; qty_differs: boolean }>(STOCK_VALUE_SQL, [clientId, OPENING_COST_DESCRIPTION]);
  const out: Violation[] = [];
  for (const r of rows) {
    if (r.qty_differs) {
      out.push({ check: 'cost-quantity', subject: { product: Number(r.product) }, expected: text(r.on_hand), actual: text(r.costed_qty), detail: `on hand ${r.on_hand}, cost quantity ${r.costed_qty}` });
    } else {
      out.push({ check: 'stock-value', subject: { product: Number(r.product) }, expected: text(r.booked), actual: text(r.value), detail: `product asset ${r.booked}, stock value ${r.value}` });
    }
  }
  return out;
}
