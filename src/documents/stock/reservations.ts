import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';

/**
 * Brings an order's reservations to what it still owes: each line of a stocked product reserves
 * (sales) or expects (purchase) QtyOrdered − QtyDelivered while the order is open, nothing once it
 * is closed or voided. Line QtyReserved and M_StorageReservation (by product, warehouse, attribute
 * instance and IsSOTrx) change by the difference, in one statement; warehouse rows are taken in
 * product order so that two orders of the same products cannot deadlock.
 */
export async function syncOrderReservations(q: Queryable, orderId: number, open: boolean, userId: number): Promise<void> {
  await q.query(
    `WITH l AS (
       SELECT ol.c_orderline_id, ol.m_product_id, COALESCE(NULLIF(ol.m_warehouse_id, 0), o.m_warehouse_id) AS wh,
              COALESCE(ol.m_attributesetinstance_id, 0) AS asi, o.issotrx, o.ad_client_id, o.ad_org_id,
              (CASE WHEN $2 THEN GREATEST(ol.qtyordered - COALESCE(ol.qtydelivered, 0), 0) ELSE 0 END) - COALESCE(ol.qtyreserved, 0) AS diff
         FROM c_orderline ol
         JOIN c_order o ON o.c_order_id = ol.c_order_id
         JOIN m_product p ON p.m_product_id = ol.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
        WHERE ol.c_order_id = $1
     ), lines AS (
       UPDATE c_orderline ol SET qtyreserved = COALESCE(ol.qtyreserved, 0) + l.diff FROM l WHERE ol.c_orderline_id = l.c_orderline_id AND l.diff <> 0
     ), g AS (
       SELECT m_product_id, wh, asi, issotrx, min(ad_client_id) AS ad_client_id, min(ad_org_id) AS ad_org_id, sum(diff) AS diff
         FROM l GROUP BY m_product_id, wh, asi, issotrx HAVING sum(diff) <> 0
     )
     INSERT INTO m_storagereservation (m_product_id, m_warehouse_id, m_attributesetinstance_id, issotrx, ad_client_id, ad_org_id, qty,
                                       m_storagereservation_uu, isactive, created, createdby, updated, updatedby)
     SELECT m_product_id, wh, asi, issotrx, ad_client_id, ad_org_id, diff, gen_random_uuid()::text, 'Y', $3::timestamp, $4, $3::timestamp, $4
       FROM g ORDER BY m_product_id, wh, asi
     ON CONFLICT (m_product_id, m_warehouse_id, m_attributesetinstance_id, issotrx)
     DO UPDATE SET qty = m_storagereservation.qty + excluded.qty, updated = excluded.updated, updatedby = excluded.updatedby`,
    [orderId, open, nowTimestamp(), userId],
    { name: 'doc_order_reserve' },
  );
}
