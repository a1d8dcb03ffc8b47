import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { buildReport, type CellValue, type ColumnType, type ReportColumn } from '../../reports/report-model.js';
import { describeParams, reportOutcome } from '../../reports/report-process.js';
import { createMoves, createPurchaseOrders, createRequisition, type CreateTarget, type Warehouse } from './replenish-create.js';
import { replenishRows, type ReplenishRow } from './replenish-rows.js';

const CREATORS = { POO: createPurchaseOrders, POR: createRequisition, MMM: createMoves } as const;
type Kind = keyof typeof CREATORS;

const REPLENISH_TYPES: Record<string, string> = { '1': 'Reorder below Minimum Level', '2': 'Maintain Maximum Level', '9': 'Custom' };

const COLUMNS: [keyof ReplenishRow | 'type', string, ColumnType][] = [
  ['productValue', 'Search Key', 'text'],
  ['productName', 'Product', 'text'],
  ['type', 'Replenish Type', 'text'],
  ['levelMin', 'Minimum Level', 'quantity'],
  ['levelMax', 'Maximum Level', 'quantity'],
  ['onHand', 'On Hand Quantity', 'quantity'],
  ['reserved', 'Reserved Quantity', 'quantity'],
  ['ordered', 'Ordered Quantity', 'quantity'],
  ['vendorName', 'Business Partner', 'text'],
  ['orderMin', 'Minimum Order Qty', 'quantity'],
  ['orderPack', 'Order Pack Qty', 'quantity'],
  ['qtyToOrder', 'Quantity to Order', 'quantity'],
];

const numberParam = (c: ProcessCall, name: string): number | null => {
  const v = c.param(name)?.value;
  return typeof v === 'number' && v > 0 ? v : null;
};

/** The warehouse replenished: one of the caller's client that the caller may read (400 otherwise). */
async function readableWarehouse(c: ProcessCall, id: number): Promise<Warehouse & { sourceId: number | null; customClass: string | null }> {
  const sql = new SqlBuilder();
  const table = c.s.dictionary.current.byName.get('m_warehouse')!;
  const { rows } = await c.tx.query<{ ad_org_id: string; name: string; m_warehousesource_id: string | null; replenishmentclass: string | null }>(
    `SELECT w.ad_org_id, w.name, w.m_warehousesource_id, w.replenishmentclass FROM m_warehouse w
      WHERE w.m_warehouse_id = ${sql.param(id)} AND w.ad_client_id = ${sql.param(c.auth.clientId)} AND ${readPredicate(c.auth, table, 'w', sql)}`,
    sql.values,
  );
  const w = rows[0];
  if (!w) throw badRequest('Invalid parameter', `No warehouse ${id}`);
  return { id, orgId: Number(w.ad_org_id), name: w.name, sourceId: w.m_warehousesource_id === null ? null : Number(w.m_warehousesource_id), customClass: w.replenishmentclass?.trim() || null };
}

/** The document type of what the report creates: of the caller's client (or System), of the kind asked for. */
async function documentTypeOf(c: ProcessCall, kind: Kind): Promise<number> {
  const id = numberParam(c, 'C_DocType_ID');
  if (id === null) throw badRequest('Invalid parameter', 'C_DocType_ID is mandatory when ReplenishmentCreate is given');
  const { rows } = await c.tx.query<{ name: string; docbasetype: string }>(`SELECT name, docbasetype FROM c_doctype WHERE c_doctype_id = $1 AND ad_client_id IN (0, $2) AND isactive = 'Y'`, [id, c.auth.clientId]);
  const dt = rows[0];
  if (!dt) throw badRequest('Invalid parameter', `No document type ${id}`);
  if (dt.docbasetype !== kind) throw badRequest('Invalid parameter', `The document type ${dt.name} is a ${dt.docbasetype}, not a ${kind}`);
  return id;
}

function kindOf(c: ProcessCall): Kind | null {
  const v = c.param('ReplenishmentCreate')?.value;
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string' && v in CREATORS) return v as Kind;
  throw badRequest('Invalid parameter', `ReplenishmentCreate must be one of ${Object.keys(CREATORS).join(', ')}: ${String(v)}`);
}

/**
 * Replenish Report (the original's RV_T_Replenish_Production): for each product with
 * replenishment levels in the warehouse, its stock, vendor and the quantity to order, as a report
 * (PDF by default; HTML, CSV, XLS, XLSX). With ReplenishmentCreate (and a document type of that
 * kind) it also creates the draft documents: purchase orders per vendor (POO), a requisition
 * (POR), or moves from the source warehouse (MMM).
 */
export async function replenishReport(c: ProcessCall): Promise<ProcessOutcome> {
  const warehouseId = numberParam(c, 'M_Warehouse_ID');
  if (warehouseId === null) throw badRequest('Invalid parameter', 'M_Warehouse_ID is mandatory');
  const kind = kindOf(c);
  const docTypeId = kind === null ? null : await documentTypeOf(c, kind);
  const warehouse = await readableWarehouse(c, warehouseId);
  // Custom levels (type 9) need the warehouse's own replenishment class, which this server cannot load.
  if (warehouse.customClass !== null) throw badRequest('Invalid parameter', `No custom replenishment class ${warehouse.customClass} on this server`);
  const rows = await replenishRows(c.tx, c.s.dictionary.current, c.auth, {
    warehouseId,
    vendorId: numberParam(c, 'C_BPartner_ID'),
    productCategoryId: numberParam(c, 'M_Product_Category_ID'),
    warehouseSourceId: warehouse.sourceId,
  });
  let summary = `Replenish Report: ${rows.length} rows`;
  if (kind !== null && docTypeId !== null) {
    const target: CreateTarget = { docTypeId, warehouse };
    summary = `${summary}; ${await CREATORS[kind](c, target, rows)}`;
  }
  const columns: ReportColumn[] = COLUMNS.map(([name, label, type]) => ({ name, label, type, sum: name === 'qtyToOrder' }));
  const cells: CellValue[][] = rows.map((r) => COLUMNS.map(([name]) => (name === 'type' ? (REPLENISH_TYPES[r.replenishType] ?? r.replenishType) : (r[name] as CellValue))));
  const data = buildReport({ title: `${c.def.name}: ${warehouse.name}`, subtitle: describeParams(c), columns, rows: cells, groupBy: null, isSummary: c.request.isSummary });
  return reportOutcome(c, data, summary);
}
