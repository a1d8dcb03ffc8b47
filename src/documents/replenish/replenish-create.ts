import type { Queryable } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall } from '../../processes/runner.js';
import type { ReplenishRow } from './replenish-rows.js';

export interface Warehouse {
  id: number;
  orgId: number;
  name: string;
}

/** What the report creates: the documents' type (its DocBaseType is the kind) and the warehouse replenished. */
export interface CreateTarget {
  docTypeId: number;
  warehouse: Warehouse;
}

const DESCRIPTION = 'Replenishment';

/** Inserts a document with its lines through the record engine (defaults, rules and events of a POST). */
async function insertDocument(c: ProcessCall, tableName: string, body: Record<string, unknown>): Promise<{ id: number; documentNo: string }> {
  const dict = c.s.dictionary.current;
  const table = dict.byName.get(tableName)!;
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const created = await insertRecord(wc, table, body);
  await wc.deferred.flush();
  const id = Number(created.row[table.keyColumn!.dbName]);
  const documentNo = String(created.row.documentno ?? id);
  c.log({ msg: `${table.name} ${documentNo} created`, tableId: table.id, recordId: id });
  return { id, documentNo };
}

const summaryOf = (what: string, docs: { documentNo: string }[]): string => `${what} created: ${docs.length}${docs.length ? ` (${docs.map((d) => d.documentNo).join(', ')})` : ''}`;

/** Draft purchase orders, one per vendor, of the rows bought (a vendor and no source warehouse); the lines are priced as a purchase order prices them. */
export async function createPurchaseOrders(c: ProcessCall, t: CreateTarget, rows: ReplenishRow[]): Promise<string> {
  const byVendor = new Map<number, ReplenishRow[]>();
  for (const r of rows) if (r.vendorId !== null && r.sourceWarehouseId === null) byVendor.set(r.vendorId, [...(byVendor.get(r.vendorId) ?? []), r]);
  const docs = [];
  for (const [vendor, lines] of byVendor) {
    docs.push(
      await insertDocument(c, 'c_order', {
        AD_Org_ID: t.warehouse.orgId,
        IsSOTrx: false,
        C_DocTypeTarget_ID: t.docTypeId,
        C_BPartner_ID: vendor,
        M_Warehouse_ID: t.warehouse.id,
        SalesRep_ID: c.auth.userId,
        Description: DESCRIPTION,
        C_OrderLine: lines.map((l) => ({ M_Product_ID: l.productId, QtyEntered: l.qtyToOrder })),
      }),
    );
  }
  return summaryOf('Purchase orders', docs);
}

/** One draft requisition of the warehouse with a line per row bought, naming the row's vendor. */
export async function createRequisition(c: ProcessCall, t: CreateTarget, rows: ReplenishRow[]): Promise<string> {
  const lines = rows.filter((r) => r.vendorId !== null && r.sourceWarehouseId === null);
  if (!lines.length) return summaryOf('Requisitions', []);
  const doc = await insertDocument(c, 'm_requisition', {
    AD_Org_ID: t.warehouse.orgId,
    C_DocType_ID: t.docTypeId,
    M_Warehouse_ID: t.warehouse.id,
    AD_User_ID: c.auth.userId,
    Description: DESCRIPTION,
    M_RequisitionLine: lines.map((l) => ({ M_Product_ID: l.productId, C_BPartner_ID: l.vendorId, Qty: l.qtyToOrder })),
  });
  return summaryOf('Requisitions', [doc]);
}

interface Storage {
  m_locator_id: string;
  m_attributesetinstance_id: string;
  qty: number;
}

/** The stock of a product in a warehouse per locator and attribute instance, oldest material first. */
async function storagesOf(q: Queryable, warehouseId: number, productId: number): Promise<Storage[]> {
  const { rows } = await q.query<Storage>(
    `SELECT s.m_locator_id, s.m_attributesetinstance_id, sum(s.qtyonhand)::float8 AS qty
       FROM m_storageonhand s JOIN m_locator l ON l.m_locator_id = s.m_locator_id
      WHERE l.m_warehouse_id = $1 AND s.m_product_id = $2 AND s.isactive = 'Y'
      GROUP BY s.m_locator_id, s.m_attributesetinstance_id, l.priorityno
     HAVING sum(s.qtyonhand) > 0
      ORDER BY min(s.datematerialpolicy), l.priorityno, s.m_locator_id, s.m_attributesetinstance_id`,
    [warehouseId, productId],
  );
  return rows;
}

async function warehouseOf(q: Queryable, id: number): Promise<Warehouse & { locatorId: number | null }> {
  const { rows } = await q.query<{ ad_org_id: string; name: string; locator: string | null }>(
    `SELECT w.ad_org_id, w.name, (SELECT l.m_locator_id FROM m_locator l WHERE l.m_warehouse_id = w.m_warehouse_id AND l.isactive = 'Y'
                                   ORDER BY l.isdefault DESC, l.priorityno, l.m_locator_id LIMIT 1) AS locator
       FROM m_warehouse w WHERE w.m_warehouse_id = $1`,
    [id],
  );
  const w = rows[0]!;
  return { id, orgId: Number(w.ad_org_id), name: w.name, locatorId: w.locator === null ? null : Number(w.locator) };
}

/**
 * Draft inventory moves, one per source warehouse, of the rows moved (a source warehouse): each
 * takes what the source holds, oldest material first, up to the quantity, into the default
 * locator of the warehouse replenished; a line short of the quantity says the total wanted.
 */
export async function createMoves(c: ProcessCall, t: CreateTarget, rows: ReplenishRow[]): Promise<string> {
  const bySource = new Map<number, ReplenishRow[]>();
  for (const r of rows) if (r.sourceWarehouseId !== null) bySource.set(r.sourceWarehouseId, [...(bySource.get(r.sourceWarehouseId) ?? []), r]);
  if (!bySource.size) return 'No source warehouse';
  const target = await warehouseOf(c.tx, t.warehouse.id);
  if (target.locatorId === null) throw badRequest('No locator', `The warehouse ${target.name} has no locator to move into`);
  const docs = [];
  for (const [sourceId, wanted] of bySource) {
    const source = await warehouseOf(c.tx, sourceId);
    const lines: Record<string, unknown>[] = [];
    for (const r of wanted) {
      let rest = r.qtyToOrder;
      for (const s of await storagesOf(c.tx, sourceId, r.productId)) {
        const qty = Math.min(rest, s.qty);
        const asi = Number(s.m_attributesetinstance_id);
        lines.push({
          M_Product_ID: r.productId,
          MovementQty: qty,
          M_Locator_ID: Number(s.m_locator_id),
          M_LocatorTo_ID: target.locatorId,
          ...(asi ? { M_AttributeSetInstance_ID: asi, M_AttributeSetInstanceTo_ID: asi } : {}),
          ...(qty !== r.qtyToOrder ? { Description: `Total: ${r.qtyToOrder}` } : {}),
        });
        rest = Math.round((rest - qty) * 1e12) / 1e12;
        if (rest <= 0) break;
      }
    }
    if (!lines.length) continue;
    docs.push(await insertDocument(c, 'm_movement', { AD_Org_ID: source.orgId, C_DocType_ID: t.docTypeId, Description: `${DESCRIPTION}: ${source.name}->${target.name}`, M_MovementLine: lines }));
  }
  return summaryOf('Inventory moves', docs);
}
