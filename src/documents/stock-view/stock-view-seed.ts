import type { Tx } from '../../db/types.js';
import { readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';

/** AD_Table_ID of the stock view (the original's M_Product_Stock_v has no id this server can reuse). */
export const STOCK_VIEW_TABLE_ID = 1119100;
const QTY_AVAILABLE_ELEMENT = 3140;
const UUID_ELEMENT = 3141;
const PRODUCT_INFO_WINDOW = 200000;
const SYSTEM = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };

/**
 * Stock per product and warehouse, as the original's storage view reads it: on hand over the
 * warehouse's locators, reserved (sales) and ordered (purchase) from the reservations of the
 * warehouse, and available = on hand - reserved. Rows belong to the warehouse's client and
 * organisation, so that the usual access rules of a client/organisation table apply. Created and
 * updated are those of the first and last storage or reservation row; the UUID is derived from the
 * product and the warehouse, so that it stays the same for the same row.
 */
export const STOCK_VIEW_SQL = `CREATE OR REPLACE VIEW m_product_stock_v AS
SELECT w.ad_client_id, w.ad_org_id, 'Y'::character(1) AS isactive, q.m_product_id, q.m_warehouse_id,
       sum(q.onhand) AS qtyonhand, sum(q.reserved) AS qtyreserved, sum(q.ordered) AS qtyordered, sum(q.onhand) - sum(q.reserved) AS qtyavailable,
       min(q.created) AS created, (array_agg(q.createdby ORDER BY q.created))[1] AS createdby,
       max(q.updated) AS updated, (array_agg(q.updatedby ORDER BY q.updated DESC))[1] AS updatedby,
       md5('M_Product_Stock_v:' || q.m_product_id || ':' || q.m_warehouse_id)::uuid::varchar(36) AS m_product_stock_v_uu
  FROM (SELECT s.m_product_id, l.m_warehouse_id, s.qtyonhand AS onhand, 0::numeric AS reserved, 0::numeric AS ordered, s.created, s.createdby, s.updated, s.updatedby
          FROM m_storageonhand s JOIN m_locator l ON l.m_locator_id = s.m_locator_id
         WHERE s.isactive = 'Y'
        UNION ALL
        SELECT r.m_product_id, r.m_warehouse_id, 0, CASE WHEN r.issotrx = 'Y' THEN r.qty ELSE 0 END, CASE WHEN r.issotrx = 'Y' THEN 0 ELSE r.qty END,
               r.created, r.createdby, r.updated, r.updatedby
          FROM m_storagereservation r
         WHERE r.isactive = 'Y') q
  JOIN m_warehouse w ON w.m_warehouse_id = q.m_warehouse_id
 GROUP BY w.ad_client_id, w.ad_org_id, q.m_product_id, q.m_warehouse_id`;

const column = (id: number, name: string, element: number, reference: number, label: string, extra: Record<string, unknown> = {}) => ({
  AD_Column_ID: id, AD_Table_ID: STOCK_VIEW_TABLE_ID, ColumnName: name, Name: label, AD_Element_ID: element, AD_Reference_ID: reference,
  FieldLength: 22, IsKey: 'N', IsParent: 'N', IsMandatory: 'N', IsUpdateable: 'N', IsIdentifier: 'N', IsSelectionColumn: 'N', IsTranslated: 'N',
  IsEncrypted: 'N', IsSecure: 'N', IsAlwaysUpdateable: 'N', SeqNo: 0, ...SYSTEM, ...extra,
});

/** A quantity of a product over the warehouses of its client, for the Product Info window. */
const productQty = (column: string) => `(SELECT COALESCE(sum(v.${column}), 0) FROM m_product_stock_v v WHERE v.m_product_id = p.M_Product_ID AND v.ad_client_id = p.AD_Client_ID)`;

/**
 * The stock view (M_Product_Stock_v) as a read-only dictionary table, and the quantities
 * available, on hand, reserved and ordered in the Product Info window.
 */
export async function addStockView(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  await tx.query(STOCK_VIEW_SQL);
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Element'),
    [
      { AD_Element_ID: QTY_AVAILABLE_ELEMENT, ColumnName: 'QtyAvailable', Name: 'Available Quantity', PrintName: 'Available Qty', ...SYSTEM },
      { AD_Element_ID: UUID_ELEMENT, ColumnName: 'M_Product_Stock_v_UU', Name: 'M_Product_Stock_v_UU', PrintName: 'M_Product_Stock_v_UU', ...SYSTEM },
    ],
    now,
    skip,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Table'),
    [{ AD_Table_ID: STOCK_VIEW_TABLE_ID, TableName: 'M_Product_Stock_v', Name: 'Product Stock', AccessLevel: '3', IsView: 'Y', IsDeleteable: 'N', IsHighVolume: 'N', IsChangeLog: 'N', IsSecurityEnabled: 'N', ReplicationType: 'L', ...SYSTEM }],
    now,
    skip,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Column'),
    [
      column(6900, 'AD_Client_ID', 100, 19, 'Tenant'),
      column(6901, 'AD_Org_ID', 101, 19, 'Organization'),
      column(6902, 'IsActive', 118, 20, 'Active', { FieldLength: 1 }),
      column(6903, 'M_Product_ID', 574, 30, 'Product', { IsIdentifier: 'Y', SeqNo: 1, IsSelectionColumn: 'Y' }),
      column(6904, 'M_Warehouse_ID', 607, 19, 'Warehouse', { IsIdentifier: 'Y', SeqNo: 2, IsSelectionColumn: 'Y' }),
      column(6905, 'QtyOnHand', 1421, 29, 'On Hand Quantity'),
      column(6906, 'QtyReserved', 863, 29, 'Reserved Quantity'),
      column(6907, 'QtyOrdered', 862, 29, 'Ordered Quantity'),
      column(6908, 'QtyAvailable', QTY_AVAILABLE_ELEMENT, 29, 'Available Quantity'),
      column(6909, 'Created', 111, 16, 'Created', { FieldLength: 7 }),
      column(6910, 'CreatedBy', 112, 18, 'Created By', { AD_Reference_Value_ID: 110 }),
      column(6911, 'Updated', 133, 16, 'Updated', { FieldLength: 7 }),
      column(6912, 'UpdatedBy', 134, 18, 'Updated By', { AD_Reference_Value_ID: 110 }),
      column(6913, 'M_Product_Stock_v_UU', UUID_ELEMENT, 10, 'M_Product_Stock_v_UU', { FieldLength: 36 }),
    ],
    now,
    skip,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_InfoColumn'),
    [
      [1119020, 'QtyAvailable', 'Available Quantity', 80],
      [1119021, 'QtyOnHand', 'On Hand Quantity', 90],
      [1119022, 'QtyReserved', 'Reserved Quantity', 100],
      [1119023, 'QtyOrdered', 'Ordered Quantity', 110],
    ].map(([id, name, label, seq]) => ({
      AD_InfoColumn_ID: id, AD_InfoWindow_ID: PRODUCT_INFO_WINDOW, ColumnName: name, Name: label, SelectClause: productQty(String(name).toLowerCase()), SeqNo: seq,
      AD_Reference_ID: 29, IsDisplayed: 'Y', IsQueryCriteria: 'N', IsCentrallyMaintained: 'N', IsIdentifier: 'N', IsKey: 'N', IsMandatory: 'N', IsRange: 'N', IsReadOnly: 'Y',
      ...SYSTEM,
    })),
    now,
    skip,
  );
}
