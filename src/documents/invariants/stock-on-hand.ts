import type { Queryable } from '../../db/types.js';
import { text, type Violation } from './violation.js';

/** On hand per product, locator and attribute instance against the sum of its material transactions. */
const ON_HAND_SQL = `WITH s AS (
    SELECT m_product_id, m_locator_id, COALESCE(m_attributesetinstance_id, 0) AS asi, sum(qtyonhand) AS qty
      FROM m_storageonhand WHERE ad_client_id = $1 GROUP BY 1, 2, 3
  ), t AS (
    SELECT m_product_id, m_locator_id, COALESCE(m_attributesetinstance_id, 0) AS asi, sum(movementqty) AS qty
      FROM m_transaction WHERE ad_client_id = $1 GROUP BY 1, 2, 3
  )
  SELECT COALESCE(s.m_product_id, t.m_product_id) AS product, COALESCE(s.m_locator_id, t.m_locator_id) AS locator, COALESCE(s.asi, t.asi) AS asi,
         COALESCE(t.qty, 0)::text AS expected, COALESCE(s.qty, 0)::text AS actual
    FROM s FULL JOIN t ON t.m_product_id = s.m_product_id AND t.m_locator_id = s.m_locator_id AND t.asi = s.asi
   WHERE COALESCE(s.qty, 0) <> COALESCE(t.qty, 0)
   ORDER BY 1, 2, 3`;

/** (c) M_StorageOnHand holds what the M_Transaction rows moved, per product, locator and attribute set instance. */
export async function onHandDifferences(q: Queryable, clientId: number): Promise<Violation[]> {
  const { rows } = await q.query<{ product: number; locator: number; asi: number; expected: string; actual: string }>(ON_HAND_SQL, [clientId]);
  return rows.map((r) => ({
    check: 'on-hand',
    subject: { product: Number(r.product), locator: Number(r.locator), asi: Number(r.asi) },
    expected: text(r.expected),
    actual: text(r.actual),
    detail: `transactions move ${r.expected}, on hand ${r.actual}`,
  }));
}
