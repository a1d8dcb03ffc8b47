import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';
import { syncOrderReservations } from './reservations.js';

/**
 * How a movement changes the delivered quantity of its order lines: shipments (C-) and receipts
 * (V+) deliver, customer returns (C+) and vendor returns (V-) take back what was delivered.
 */
export const deliveredSign = (movementType: string): 1 | -1 => (movementType === 'C-' || movementType === 'V+' ? 1 : -1);

/**
 * Moves the stock of a shipment or receipt's lines, in one statement: one M_Transaction row per
 * line of a stocked product (MovementQty signed by the movement type: C- and V- take out, C+ and
 * V+ bring in), M_StorageOnHand by product, locator and attribute instance (the oldest material
 * date's row, or a new row dated by the movement), and QtyDelivered of the order lines (lowered by
 * returns, see deliveredSign). A reversal (negative quantities) moves everything back.
 */
export async function moveStock(q: Queryable, inoutId: number, movementType: string, movementDate: unknown, userId: number): Promise<void> {
  const sign = movementType.endsWith('-') ? -1 : 1;
  await q.query(
    `WITH l AS (
       SELECT il.m_inoutline_id, il.m_product_id, il.m_locator_id, COALESCE(il.m_attributesetinstance_id, 0) AS asi,
              il.movementqty * $2 AS qty, il.ad_client_id, il.ad_org_id
         FROM m_inoutline il
         JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
        WHERE il.m_inout_id = $1 AND il.movementqty <> 0 AND il.m_locator_id IS NOT NULL
     ), tr AS (
       INSERT INTO m_transaction (m_transaction_id, m_transaction_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
                                  movementtype, m_locator_id, m_product_id, m_attributesetinstance_id, movementdate, movementqty, m_inoutline_id)
       SELECT nextval('m_transaction_sq'), gen_random_uuid()::text, l.ad_client_id, l.ad_org_id, 'Y', $5::timestamp, $6, $5::timestamp, $6,
              $3, l.m_locator_id, l.m_product_id, l.asi, $4::timestamp, l.qty, l.m_inoutline_id
         FROM l ORDER BY l.m_inoutline_id
     ), delivered AS (
       UPDATE c_orderline o SET qtydelivered = o.qtydelivered + s.qty * $7, datedelivered = $4::timestamp, updated = $5::timestamp, updatedby = $6
         FROM (SELECT c_orderline_id, sum(movementqty) AS qty FROM m_inoutline WHERE m_inout_id = $1 AND c_orderline_id IS NOT NULL GROUP BY c_orderline_id) s
        WHERE o.c_orderline_id = s.c_orderline_id
     ), g AS (
       SELECT m_product_id, m_locator_id, asi, min(ad_client_id) AS ad_client_id, min(ad_org_id) AS ad_org_id, sum(qty) AS qty
         FROM l GROUP BY m_product_id, m_locator_id, asi
     )
     INSERT INTO m_storageonhand (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy, ad_client_id, ad_org_id, qtyonhand,
                                  m_storageonhand_uu, isactive, created, createdby, updated, updatedby)
     SELECT g.m_product_id, g.m_locator_id, g.asi,
            COALESCE((SELECT min(s.datematerialpolicy) FROM m_storageonhand s
                       WHERE s.m_product_id = g.m_product_id AND s.m_locator_id = g.m_locator_id AND s.m_attributesetinstance_id = g.asi), date_trunc('day', $4::timestamp)),
            g.ad_client_id, g.ad_org_id, g.qty, gen_random_uuid()::text, 'Y', $5::timestamp, $6, $5::timestamp, $6
       FROM g ORDER BY g.m_product_id, g.m_locator_id, g.asi
     ON CONFLICT (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy)
     DO UPDATE SET qtyonhand = m_storageonhand.qtyonhand + excluded.qtyonhand, updated = excluded.updated, updatedby = excluded.updatedby`,
    [inoutId, sign, movementType, movementDate, nowTimestamp(), userId, deliveredSign(movementType)],
    { name: 'doc_inout_move' },
  );
  // What the orders still owe changed: their reservations follow (released once they are closed or voided).
  const { rows } = await q.query<{ c_order_id: number; open: boolean }>(
    `SELECT DISTINCT o.c_order_id, o.docstatus IN ('IP', 'CO', 'WP', 'WC', 'AP') AS open
       FROM m_inoutline il JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id JOIN c_order o ON o.c_order_id = ol.c_order_id
      WHERE il.m_inout_id = $1 ORDER BY o.c_order_id`,
    [inoutId],
    { name: 'doc_inout_orders' },
  );
  for (const o of rows) await syncOrderReservations(q, Number(o.c_order_id), o.open === true, userId);
}
