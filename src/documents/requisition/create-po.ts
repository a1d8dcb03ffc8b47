import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { currentVendor } from '../buying/vendor-price.js';

/** Open lines of completed requisitions: not ordered yet, of a product or a charge. */
const LINES_SQL = (where: string) => `SELECT r.m_requisition_id, r.documentno, r.ad_org_id, r.m_warehouse_id, r.daterequired, l.m_requisitionline_id, l.m_product_id, l.c_charge_id,
    l.m_attributesetinstance_id, l.qty, l.priceactual, l.description, COALESCE(l.c_bpartner_id, ch.c_bpartner_id) AS vendor_id, p.name AS product_name, ch.name AS charge_name
  FROM m_requisition r JOIN m_requisitionline l ON l.m_requisition_id = r.m_requisition_id AND l.isactive = 'Y' AND l.c_orderline_id IS NULL AND l.qty > 0
  LEFT JOIN m_product p ON p.m_product_id = l.m_product_id LEFT JOIN c_charge ch ON ch.c_charge_id = l.c_charge_id
 WHERE r.docstatus = 'CO' AND (l.m_product_id IS NOT NULL OR l.c_charge_id IS NOT NULL) AND ${where}
 ORDER BY r.daterequired, r.m_requisition_id, l.line
 FOR UPDATE OF l`;

/** What a vendor asks of an order of a product: its minimum order and order pack (M_Product_PO). */
async function orderQuantity(c: ProcessCall, productId: number | null, vendorId: number, qty: number): Promise<number> {
  if (productId === null) return qty;
  const { rows } = await c.tx.query<{ order_min: string | null; order_pack: string | null }>(
    `SELECT order_min::text, order_pack::text FROM m_product_po WHERE m_product_id = $1 AND c_bpartner_id = $2 AND isactive = 'Y' LIMIT 1`,
    [productId, vendorId],
  );
  const min = Number(rows[0]?.order_min ?? 0);
  const pack = Number(rows[0]?.order_pack ?? 0);
  let q = Math.max(qty, min);
  if (pack > 0) q = Math.ceil(q / pack) * pack;
  return q;
}

/**
 * Create PO from Requisition (the original's RequisitionPOCreate): the open lines of completed
 * requisitions become drafted purchase orders, one per vendor and required date (and per
 * requisition unless ConsolidateDocument); the vendor is the line's, else the charge's, else the
 * product's current vendor (M_Product_PO); lines of one product are summed, raised to the
 * vendor's minimum order and order pack, at the requisition's price; each requisition line then
 * names its order line. Runs on one requisition (its record or M_Requisition_ID) or on all those
 * the other parameters select (AD_Org_ID, M_Warehouse_ID, DateRequired, PriorityRule, AD_User_ID, M_Product_ID).
 */
export async function createPoFromRequisition(c: ProcessCall): Promise<ProcessOutcome> {
  const dict = c.s.dictionary.current;
  const requisition = dict.byName.get('m_requisition')!;
  if (c.record && c.record.table !== requisition) throw badRequest('Invalid parameter', 'The process runs on requisitions (M_Requisition)');
  const sql = new SqlBuilder();
  const where = [`r.ad_client_id = ${sql.param(c.auth.clientId)}`, readPredicate(c.auth, requisition, 'r', sql)];
  const one = c.record?.id ?? c.param('M_Requisition_ID')?.value;
  if (typeof one === 'number') where.push(`r.m_requisition_id = ${sql.param(one)}`);
  for (const [param, column] of [['AD_Org_ID', 'r.ad_org_id'], ['M_Warehouse_ID', 'r.m_warehouse_id'], ['AD_User_ID', 'r.ad_user_id'], ['M_Product_ID', 'l.m_product_id'], ['PriorityRule', 'r.priorityrule']]) {
    const v = c.param(param!)?.value;
    if (typeof v === 'number' || (typeof v === 'string' && v !== '')) where.push(`${column} = ${sql.param(v)}`);
  }
  const required = c.param('DateRequired');
  if (typeof required?.value === 'string') where.push(`r.daterequired >= ${sql.param(required.value)}::timestamp`);
  if (typeof required?.to === 'string') where.push(`r.daterequired <= ${sql.param(required.to)}::timestamp`);
  const { rows } = await c.tx.query<Row>(LINES_SQL(where.join(' AND ')), sql.values);
  const consolidate = c.param('ConsolidateDocument')?.value === true || c.param('ConsolidateDocument')?.value === 'Y';
  const orders = new Map<string, { vendor: number; first: Row; requisitions: Set<string>; lines: Map<string, { row: Row; qty: number; ids: number[] }> }>();
  for (const l of rows) {
    const vendor = (l.vendor_id === null ? null : Number(l.vendor_id)) ?? (l.m_product_id === null ? null : await currentVendor(c.tx, Number(l.m_product_id)));
    if (vendor === null) throw badRequest('No vendor', l.m_product_id === null ? `No vendor for charge ${String(l.charge_name)}` : `No vendor for product ${String(l.product_name)}: give the requisition line a partner or the product a vendor (M_Product_PO)`);
    const day = l.daterequired instanceof Date ? l.daterequired.toISOString().slice(0, 10) : String(l.daterequired).slice(0, 10);
    const key = `${vendor}:${day}:${consolidate ? '' : String(l.m_requisition_id)}`;
    const order = orders.get(key) ?? { vendor, first: l, requisitions: new Set<string>(), lines: new Map() };
    orders.set(key, order);
    order.requisitions.add(String(l.documentno));
    // One order line per product and attribute instance; a line per charge.
    const lineKey = l.m_product_id === null ? `charge:${String(l.m_requisitionline_id)}` : `${String(l.m_product_id)}:${String(l.m_attributesetinstance_id ?? 0)}`;
    const line = order.lines.get(lineKey) ?? { row: l, qty: 0, ids: [] };
    line.qty += Number(l.qty);
    line.ids.push(Number(l.m_requisitionline_id));
    order.lines.set(lineKey, line);
  }
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const table = dict.byName.get('c_order')!;
  for (const order of orders.values()) {
    const lines = [...order.lines.values()];
    const date = order.first.daterequired;
    const body: Record<string, unknown> = {
      AD_Org_ID: order.first.ad_org_id,
      IsSOTrx: false,
      C_BPartner_ID: order.vendor,
      M_Warehouse_ID: order.first.m_warehouse_id,
      DatePromised: date,
      Description: `Requisition: ${[...order.requisitions].join(', ')}`,
      C_OrderLine: await Promise.all(
        lines.map(async (l) => ({
          ...(l.row.m_product_id !== null ? { M_Product_ID: l.row.m_product_id } : { C_Charge_ID: l.row.c_charge_id }),
          ...(l.row.m_attributesetinstance_id ? { M_AttributeSetInstance_ID: l.row.m_attributesetinstance_id } : {}),
          QtyEntered: await orderQuantity(c, l.row.m_product_id === null ? null : Number(l.row.m_product_id), order.vendor, l.qty),
          PriceEntered: l.row.priceactual,
          DatePromised: date,
          ...(l.row.description ? { Description: l.row.description } : {}),
        })),
      ),
    };
    const created = await insertRecord(wc, table, body);
    await wc.deferred.flush();
    const orderId = Number(created.row.c_order_id);
    const { rows: orderLines } = await c.tx.query<{ id: number }>('SELECT c_orderline_id AS id FROM c_orderline WHERE c_order_id = $1 ORDER BY line, c_orderline_id', [orderId]);
    for (const [n, l] of lines.entries()) {
      await c.tx.query('UPDATE m_requisitionline SET c_orderline_id = $2 WHERE m_requisitionline_id = ANY($1::bigint[])', [l.ids, orderLines[n]!.id]);
    }
    c.log({ msg: `Purchase order ${String(created.row.documentno ?? orderId)} for ${lines.length} line(s)`, tableId: table.id, recordId: orderId });
  }
  return { summary: orders.size ? `Purchase orders created: ${orders.size}` : 'No open requisition lines' };
}
