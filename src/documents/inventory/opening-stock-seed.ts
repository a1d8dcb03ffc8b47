import type { Tx } from '../../db/types.js';

/** The demo's opening stock counts: one per warehouse, ids from the opening stock range (counts below FIRST_LINE_ID). */
export const FIRST_INVENTORY_ID = 1116000;
export const FIRST_LINE_ID = 1116100;
const PHYSICAL_INVENTORY_DOCTYPE = 144;
const OPENING_DATE = '2003-01-01';

/**
 * What each product, locator and attribute instance of the demo holds beyond what its material
 * transactions moved, with the warehouse and organization of the locator and the storage's oldest
 * material date (or the opening date).
 */
const MISSING_SQL = `WITH s AS (
    SELECT m_product_id, m_locator_id, COALESCE(m_attributesetinstance_id, 0) AS asi, sum(qtyonhand) AS qty,
           LEAST(min(datematerialpolicy)::date, DATE '${OPENING_DATE}') AS day
      FROM m_storageonhand WHERE ad_client_id = 11 GROUP BY 1, 2, 3
  ), t AS (
    SELECT m_product_id, m_locator_id, COALESCE(m_attributesetinstance_id, 0) AS asi, sum(movementqty) AS qty
      FROM m_transaction WHERE ad_client_id = 11 GROUP BY 1, 2, 3
  )
  SELECT s.m_product_id, s.m_locator_id, s.asi, s.qty - COALESCE(t.qty, 0) AS missing, s.day,
         l.m_warehouse_id, w.ad_org_id, p.c_uom_id
    FROM s LEFT JOIN t ON t.m_product_id = s.m_product_id AND t.m_locator_id = s.m_locator_id AND t.asi = s.asi
    JOIN m_locator l ON l.m_locator_id = s.m_locator_id
    JOIN m_warehouse w ON w.m_warehouse_id = l.m_warehouse_id
    JOIN m_product p ON p.m_product_id = s.m_product_id
   WHERE s.qty - COALESCE(t.qty, 0) <> 0`;

/**
 * The demo's stock on hand came with the seed without the material transactions that brought it,
 * so on hand was not the sum of its transactions. As the stock's opening, each warehouse of the
 * demo gets a completed physical inventory (document type 144, PI) dated at its storage's oldest
 * material date, 2003-01-01, whose lines count the missing quantity from a book of 0, and the I+
 * (or I-, where on hand is below what moved) transactions of those lines. The storage is left as
 * it is. The counts are Posted without facts: the demo's ledger starts with no opening balances,
 * and valuing the stock here would put one amount on the books alone (against inventory
 * differences) that nothing balances. Applied once; a database without the demo, or whose stock
 * already agrees, is left as it is.
 */
export async function addOpeningStockCounts(tx: Tx): Promise<void> {
  const { rows: doctype } = await tx.query('SELECT 1 FROM c_doctype WHERE c_doctype_id = $1 AND ad_client_id = 11', [PHYSICAL_INVENTORY_DOCTYPE]);
  if (!doctype.length) return;
  const { rows: exists } = await tx.query('SELECT 1 FROM m_inventory WHERE m_inventory_id >= $1 AND m_inventory_id < $2', [FIRST_INVENTORY_ID, FIRST_LINE_ID]);
  if (exists.length) return;
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  await tx.query(`CREATE TEMP TABLE opening_stock AS ${MISSING_SQL}`);
  await tx.query(
    `INSERT INTO m_inventory (m_inventory_id, m_inventory_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       documentno, description, m_warehouse_id, movementdate, c_doctype_id, docstatus, docaction, posted, processed, processing, isapproved)
     SELECT $1 + (row_number() OVER (ORDER BY m_warehouse_id))::int - 1, gen_random_uuid()::text, 11, ad_org_id, 'Y', $2::timestamp, 100, $2::timestamp, 100,
            'Opening-' || m_warehouse_id, 'Opening stock of the warehouse', m_warehouse_id, min(day)::timestamp, $3, 'CO', 'CL', 'Y', 'Y', 'N', 'Y'
       FROM opening_stock GROUP BY m_warehouse_id, ad_org_id ORDER BY m_warehouse_id`,
    [FIRST_INVENTORY_ID, now, PHYSICAL_INVENTORY_DOCTYPE],
  );
  await tx.query(
    `INSERT INTO m_inventoryline (m_inventoryline_id, m_inventoryline_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_inventory_id, line, m_product_id, m_locator_id, m_attributesetinstance_id, c_uom_id, qtybook, qtycount, qtycsv, qtyentered, qtyinternaluse,
       inventorytype, processed, description)
     SELECT $1 + (row_number() OVER (ORDER BY o.m_warehouse_id, o.m_locator_id, o.m_product_id, o.asi))::int - 1, gen_random_uuid()::text, 11, i.ad_org_id, 'Y',
            $2::timestamp, 100, $2::timestamp, 100, i.m_inventory_id,
            10 * row_number() OVER (PARTITION BY o.m_warehouse_id ORDER BY o.m_locator_id, o.m_product_id, o.asi),
            o.m_product_id, o.m_locator_id, o.asi, o.c_uom_id, GREATEST(-o.missing, 0), GREATEST(o.missing, 0), 0, GREATEST(o.missing, 0), 0,
            'D', 'Y', 'Opening stock'
       FROM opening_stock o JOIN m_inventory i ON i.m_warehouse_id = o.m_warehouse_id AND i.m_inventory_id >= $3 AND i.m_inventory_id < $1`,
    [FIRST_LINE_ID, now, FIRST_INVENTORY_ID],
  );
  await tx.query(
    `INSERT INTO m_transaction (m_transaction_id, m_transaction_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       movementtype, m_locator_id, m_product_id, m_attributesetinstance_id, movementdate, movementqty, m_inventoryline_id)
     SELECT nextval('m_transaction_sq'), gen_random_uuid()::text, l.ad_client_id, l.ad_org_id, 'Y', $2::timestamp, 100, $2::timestamp, 100,
            CASE WHEN l.qtycount >= l.qtybook THEN 'I+' ELSE 'I-' END, l.m_locator_id, l.m_product_id, l.m_attributesetinstance_id, i.movementdate,
            l.qtycount - l.qtybook, l.m_inventoryline_id
       FROM m_inventoryline l JOIN m_inventory i ON i.m_inventory_id = l.m_inventory_id
      WHERE l.m_inventoryline_id >= $1 AND l.m_inventory_id >= $3 AND l.m_inventory_id < $1
      ORDER BY l.m_inventoryline_id`,
    [FIRST_LINE_ID, now, FIRST_INVENTORY_ID],
  );
  await tx.query('DROP TABLE opening_stock');
  // The sequences of the counts and their lines pass the ids used here, so new rows never meet them.
  for (const [table, key] of [['m_inventory', 'm_inventory_id'], ['m_inventoryline', 'm_inventoryline_id']] as const) {
    await tx.query(`SELECT setval('${table}_sq', GREATEST((SELECT last_value FROM ${table}_sq), (SELECT max(${key}) FROM ${table})))`);
  }
}
