import type { Queryable } from '../../db/types.js';
import { refuse } from '../engine/document-type.js';

interface Shortfall {
  product: string;
  locator: string;
  warehouse: string;
  onhand: string;
  qty: string;
}

/**
 * Refuses stock changes that would leave less than nothing on hand at a locator of a warehouse
 * that disallows negative inventory (M_Warehouse.IsDisallowNegativeInv), as the original's
 * storage check. `deltasSql` selects the changes (m_product_id, m_locator_id, asi, qty) with $1
 * the document's id; only the sums per product, locator and attribute instance that take out count.
 */
export async function refuseNegativeStock(q: Queryable, deltasSql: string, docId: number, name: string): Promise<void> {
  const { rows } = await q.query<Shortfall>(
    `WITH d AS (${deltasSql}), g AS (
       SELECT m_product_id, m_locator_id, asi, sum(qty) AS qty FROM d GROUP BY m_product_id, m_locator_id, asi HAVING sum(qty) < 0
     )
     SELECT p.value || ' ' || p.name AS product, loc.value AS locator, w.name AS warehouse, COALESCE(s.onhand, 0)::text AS onhand, (-g.qty)::text AS qty
       FROM g
       JOIN m_locator loc ON loc.m_locator_id = g.m_locator_id
       JOIN m_warehouse w ON w.m_warehouse_id = loc.m_warehouse_id AND w.isdisallownegativeinv = 'Y'
       JOIN m_product p ON p.m_product_id = g.m_product_id
       LEFT JOIN LATERAL (SELECT sum(s.qtyonhand) AS onhand FROM m_storageonhand s
                           WHERE s.m_product_id = g.m_product_id AND s.m_locator_id = g.m_locator_id AND s.m_attributesetinstance_id = g.asi) s ON true
      WHERE COALESCE(s.onhand, 0) + g.qty < 0
      ORDER BY p.value LIMIT 1`,
    [docId],
    { name: `doc_negative_stock_${name}` },
  );
  const r = rows[0];
  if (r) throw refuse(`not enough stock of ${r.product} at locator ${r.locator} (warehouse ${r.warehouse} disallows negative inventory): ${r.onhand} on hand, ${r.qty} to take out`);
}
