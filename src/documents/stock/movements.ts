import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';
import { syncOrderReservations } from './reservations.js';

/**
 * How a movement changes the delivered quantity of its order lines: shipments (C-) and receipts
 * (V+) deliver, customer returns (C+) and vendor returns (V-) take back what was delivered.
 */
export const deliveredSign = (movementType: string): 1 | -1 => (movementType === 'C-' || movementType === 'V+' ? 1 : -1);

/**
 * The M_Transaction insert of a stock change, as a CTE body: one row per row of `l` (line_id,
 * m_product_id, m_locator_id, asi, qty, ad_client_id, ad_org_id) linked to its document line
 * through `lineColumn`. The other arguments are SQL expressions (parameters or columns).
 */
export const transactionInsertSql = (lineColumn: string, movementType: string, date: string, now: string, user: string): string =>
  `INSERT INTO m_transaction (m_transaction_id, m_transaction_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
                              movementtype, m_locator_id, m_product_id, m_attributesetinstance_id, movementdate, movementqty, ${lineColumn})
   SELECT nextval('m_transaction_sq'), gen_random_uuid()::text, l.ad_client_id, l.ad_org_id, 'Y', ${now}::timestamp, ${user}, ${now}::timestamp, ${user},
          ${movementType}, l.m_locator_id, l.m_product_id, l.asi, ${date}::timestamp, l.qty, l.line_id
     FROM l ORDER BY l.line_id, l.qty`;

/**
 * The end of a stock change statement: `g` grouping `l` by product, locator and attribute
 * instance, and the M_StorageOnHand upsert of those sums (the oldest material date's row, or a
 * new row dated by the movement). A physical inventory stamps the rows it changes with its date
 * (DateLastInventory).
 */
export const storageUpsertSql = (date: string, now: string, user: string, stampInventory = false): string =>
  `${STORAGE_GROUPS}
   ${storageInsertSql(date, now, user, stampInventory)}`;

const STORAGE_GROUPS = `g AS (
     SELECT m_product_id, m_locator_id, asi, min(ad_client_id) AS ad_client_id, min(ad_org_id) AS ad_org_id, sum(qty) AS qty
       FROM l GROUP BY m_product_id, m_locator_id, asi
   )`;

const storageInsertSql = (date: string, now: string, user: string, stampInventory: boolean): string =>
  `INSERT INTO m_storageonhand (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy, ad_client_id, ad_org_id, qtyonhand,
                                m_storageonhand_uu, isactive, created, createdby, updated, updatedby, datelastinventory)
   SELECT g.m_product_id, g.m_locator_id, g.asi,
          COALESCE((SELECT min(s.datematerialpolicy) FROM m_storageonhand s
                     WHERE s.m_product_id = g.m_product_id AND s.m_locator_id = g.m_locator_id AND s.m_attributesetinstance_id = g.asi), date_trunc('day', ${date}::timestamp)),
          g.ad_client_id, g.ad_org_id, g.qty, gen_random_uuid()::text, 'Y', ${now}::timestamp, ${user}, ${now}::timestamp, ${user},
          ${stampInventory ? `${date}::timestamp` : 'NULL::timestamp'}
     FROM g ORDER BY g.m_product_id, g.m_locator_id, g.asi
   ON CONFLICT (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy)
   DO UPDATE SET qtyonhand = m_storageonhand.qtyonhand + excluded.qtyonhand, updated = excluded.updated, updatedby = excluded.updatedby${
     stampInventory ? ', datelastinventory = excluded.datelastinventory' : ''
   }`;

/**
 * Moves the stock of a shipment or receipt's lines, in one statement: one M_Transaction row per
 * line of a stocked product (MovementQty signed by the movement type: C- and V- take out, C+ and
 * V+ bring in), M_StorageOnHand by product, locator and attribute instance (the oldest material
 * date's row, or a new row dated by the movement), and QtyDelivered of the order lines (lowered by
 * returns, see deliveredSign). A reversal (negative quantities) moves everything back.
 */
export async function moveStock(q: Queryable, inoutId: number, movementType: string, movementDate: unknown, userId: number): Promise<void> {
  const sign = movementType.endsWith('-') ? -1 : 1;
  const { rows } = await q.query<{ c_order_id: number; open: boolean }>(
    `WITH l AS (
       SELECT il.m_inoutline_id AS line_id, il.m_product_id, il.m_locator_id, COALESCE(il.m_attributesetinstance_id, 0) AS asi,
              il.movementqty * $2 AS qty, il.ad_client_id, il.ad_org_id
         FROM m_inoutline il
         JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
        WHERE il.m_inout_id = $1 AND il.movementqty <> 0 AND il.m_locator_id IS NOT NULL
     ), tr AS (${transactionInsertSql('m_inoutline_id', '$3', '$4', '$5', '$6')}), delivered AS (
       UPDATE c_orderline o SET qtydelivered = o.qtydelivered + s.qty * $7, datedelivered = $4::timestamp, updated = $5::timestamp, updatedby = $6
         FROM (SELECT c_orderline_id, sum(movementqty) AS qty FROM m_inoutline WHERE m_inout_id = $1 AND c_orderline_id IS NOT NULL GROUP BY c_orderline_id) s
        WHERE o.c_orderline_id = s.c_orderline_id
     ), ${STORAGE_GROUPS}, stored AS (${storageInsertSql('$4', '$5', '$6', false)})
     SELECT o.c_order_id, o.docstatus IN ('IP', 'CO', 'WP', 'WC', 'AP') AS open
       FROM c_order o
      WHERE o.c_order_id IN (SELECT ol.c_order_id FROM m_inoutline il JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id WHERE il.m_inout_id = $1)
      ORDER BY o.c_order_id`,
    [inoutId, sign, movementType, movementDate, nowTimestamp(), userId, deliveredSign(movementType)],
    { name: 'doc_inout_move' },
  );
  // What the orders still owe changed (the statement answers the orders of the lines): their
  // reservations follow (released once they are closed or voided).
  for (const o of rows) await syncOrderReservations(q, Number(o.c_order_id), o.open === true, userId);
}

/**
 * Applies the stock changes of a move or a count in one statement: `deltasSql` selects them with
 * $1 the document's id (line_id, m_product_id, m_locator_id, asi, qty, movementtype); each is an
 * M_Transaction row linked through `lineColumn`, and the on-hand quantities of the locators
 * follow, under the organization of the locator's warehouse (stamped with the date when
 * `stampInventory`, see storageUpsertSql).
 */
export async function applyStockDeltas(
  q: Queryable,
  deltasSql: string,
  lineColumn: 'm_movementline_id' | 'm_inventoryline_id',
  docId: number,
  movementDate: unknown,
  userId: number,
  stampInventory = false,
): Promise<void> {
  await q.query(
    `WITH d AS (${deltasSql}), l AS (
       SELECT d.line_id, d.m_product_id, d.m_locator_id, d.asi, d.qty, d.movementtype, loc.ad_client_id, loc.ad_org_id
         FROM d JOIN m_locator loc ON loc.m_locator_id = d.m_locator_id
     ), tr AS (${transactionInsertSql(lineColumn, 'l.movementtype', '$2', '$3', '$4')}), ${storageUpsertSql('$2', '$3', '$4', stampInventory)}`,
    [docId, movementDate, nowTimestamp(), userId],
    { name: `doc_stock_deltas_${lineColumn}${stampInventory ? '_stamped' : ''}` },
  );
}
