import { readPredicate } from '../../access/access.js';
import type { AuthContext } from '../../auth/context.js';
import { SqlBuilder } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Dictionary } from '../../dictionary/model.js';
import { quantityToOrder, type ReplenishLevels } from './replenish-quantity.js';

/** One proposal of the replenish report: a product of the warehouse, its levels, stock, vendor and quantity to order. */
export interface ReplenishRow extends Omit<ReplenishLevels, 'orderMin' | 'orderPack'> {
  productId: number;
  productValue: string;
  productName: string;
  vendorId: number | null;
  vendorName: string | null;
  orderMin: number;
  orderPack: number;
  qtyToOrder: number;
  /** The warehouse the quantity is moved from instead of bought (the product's, else the warehouse's source). */
  sourceWarehouseId: number | null;
}

export interface ReplenishFilter {
  warehouseId: number;
  /** The vendor whose products alone are proposed. */
  vendorId: number | null;
  productCategoryId: number | null;
  /** The warehouse's own source warehouse (M_Warehouse.M_WarehouseSource_ID). */
  warehouseSourceId: number | null;
}

/**
 * The product's vendor for replenishment: its current vendor, else its only vendor (the original
 * makes a product's only vendor current before it reads them). One pass over the vendor rows of
 * the warehouse's products, joined by product (a lookup per level read them all once per level).
 */
const VENDOR = (warehouseParam: string) => `LEFT JOIN (
    SELECT DISTINCT ON (po.m_product_id) po.m_product_id, po.c_bpartner_id, po.order_min, po.order_pack, po.iscurrentvendor,
           count(*) OVER (PARTITION BY po.m_product_id) AS vendors
      FROM m_product_po po
     WHERE po.isactive = 'Y' AND po.m_product_id IN (SELECT x.m_product_id FROM m_replenish x WHERE x.m_warehouse_id = ${warehouseParam})
     ORDER BY po.m_product_id, po.iscurrentvendor DESC, po.m_product_po_id) v ON v.m_product_id = r.m_product_id AND (v.iscurrentvendor = 'Y' OR v.vendors = 1)
  LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = v.c_bpartner_id`;

const STOCK = `(SELECT COALESCE(sum(s.qtyonhand), 0) FROM m_storageonhand s JOIN m_locator l ON l.m_locator_id = s.m_locator_id
                 WHERE s.m_product_id = r.m_product_id AND l.m_warehouse_id = r.m_warehouse_id)::float8 AS onhand,
               (SELECT COALESCE(sum(s.qty), 0) FROM m_storagereservation s
                 WHERE s.m_product_id = r.m_product_id AND s.m_warehouse_id = r.m_warehouse_id AND s.issotrx = 'Y')::float8 AS reserved,
               (SELECT COALESCE(sum(s.qty), 0) FROM m_storagereservation s
                 WHERE s.m_product_id = r.m_product_id AND s.m_warehouse_id = r.m_warehouse_id AND s.issotrx = 'N')::float8 AS ordered`;

interface Loaded {
  m_product_id: string;
  value: string;
  name: string;
  replenishtype: string;
  level_min: number;
  level_max: number;
  m_warehousesource_id: string | null;
  c_bpartner_id: string | null;
  vendor: string | null;
  order_min: number | null;
  order_pack: number | null;
  onhand: number;
  reserved: number;
  ordered: number;
}

const idOrNull = (v: string | number | null): number | null => (v === null ? null : Number(v));

/**
 * The replenish report's rows: the active, not manual replenishment levels (M_Replenish) of the
 * warehouse that the caller may read, of active products (of the category, of the vendor when
 * given), with on hand over the warehouse's locators, reserved and ordered from its reservations,
 * and the quantity to order; rows with nothing to order are left out.
 */
export async function replenishRows(q: Queryable, dict: Dictionary, auth: AuthContext, f: ReplenishFilter): Promise<ReplenishRow[]> {
  const sql = new SqlBuilder();
  const warehouse = sql.param(f.warehouseId);
  const where = [
    `r.m_warehouse_id = ${warehouse}`,
    `r.ad_client_id = ${sql.param(auth.clientId)}`,
    `r.isactive = 'Y'`,
    `r.replenishtype <> '0'`,
    readPredicate(auth, dict.byName.get('m_replenish')!, 'r', sql),
  ];
  if (f.vendorId !== null) where.push(`v.c_bpartner_id = ${sql.param(f.vendorId)}`);
  if (f.productCategoryId !== null) where.push(`p.m_product_category_id = ${sql.param(f.productCategoryId)}`);
  const { rows } = await q.query<Loaded>(
    `SELECT r.m_product_id, p.value, p.name, r.replenishtype, r.level_min::float8 AS level_min, r.level_max::float8 AS level_max, r.m_warehousesource_id,
            v.c_bpartner_id, bp.name AS vendor, v.order_min::float8 AS order_min, v.order_pack::float8 AS order_pack, ${STOCK}
       FROM m_replenish r JOIN m_product p ON p.m_product_id = r.m_product_id AND p.isactive = 'Y'
       ${VENDOR(warehouse)}
      WHERE ${where.join(' AND ')}
      ORDER BY v.c_bpartner_id NULLS LAST, p.value, r.m_replenish_id`,
    sql.values,
  );
  const out: ReplenishRow[] = [];
  for (const r of rows) {
    const orderMin = r.order_min === null || !(r.order_min >= 1) ? 1 : r.order_min;
    const orderPack = r.order_pack === null || !(r.order_pack >= 1) ? 1 : r.order_pack;
    const levels = { replenishType: r.replenishtype, levelMin: r.level_min, levelMax: Math.max(r.level_max, r.level_min), onHand: r.onhand, reserved: r.reserved, ordered: r.ordered };
    const qtyToOrder = quantityToOrder({ ...levels, orderMin, orderPack });
    if (qtyToOrder === 0) continue;
    const source = idOrNull(r.m_warehousesource_id) ?? f.warehouseSourceId;
    out.push({
      ...levels,
      productId: Number(r.m_product_id),
      productValue: r.value,
      productName: r.name,
      vendorId: idOrNull(r.c_bpartner_id),
      vendorName: r.vendor,
      orderMin,
      orderPack,
      qtyToOrder,
      sourceWarehouseId: source === f.warehouseId ? null : source,
    });
  }
  return out;
}
