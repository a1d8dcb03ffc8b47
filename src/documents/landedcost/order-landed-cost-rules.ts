import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { idOf, invalid } from '../row-values.js';

const ORDER_SQL = `SELECT o.c_order_id, o.documentno, o.issotrx, o.processed, o.docstatus FROM c_order o WHERE o.c_order_id = $1`;
const ORDER_OF_COST_SQL = `SELECT o.c_order_id, o.documentno, o.issotrx, o.processed, o.docstatus
  FROM c_orderlandedcost lc JOIN c_order o ON o.c_order_id = lc.c_order_id WHERE lc.c_orderlandedcost_id = $1`;

interface OrderRow { c_order_id: number; documentno: string; issotrx: string; processed: string; docstatus: string }

/** The order must be a purchase order not processed yet: its completion distributes the estimates and its receipts take them. */
function requireOpenPurchaseOrder(order: OrderRow | undefined, column: string, id: unknown): OrderRow {
  if (!order) throw invalid(`Order of ${String(id)} not found (column ${column})`);
  if (order.issotrx === 'Y') throw invalid(`Order ${order.documentno} is a sales order: landed costs are estimated on purchase orders only (column ${column})`);
  if (order.processed === 'Y' || ['CO', 'CL', 'RE', 'VO'].includes(order.docstatus)) {
    throw invalid(`Order ${order.documentno} is processed: its estimated landed costs cannot change (column ${column})`);
  }
  return order;
}

const rowOf = (e: ModelEvent) => (e.type === 'before-delete' ? (e.old ?? e.row) : e.row);

async function orderLandedCostBeforeSave(e: ModelEvent): Promise<void> {
  const row = rowOf(e);
  const { rows } = await e.tx.query<OrderRow>(ORDER_SQL, [idOf(row.c_order_id)]);
  requireOpenPurchaseOrder(rows[0], 'C_Order_ID', row.c_order_id);
  if (e.type !== 'before-delete' && Number(row.amt ?? 0) < 0) throw invalid('An estimated landed cost is not negative (column Amt)');
}

/** An allocation names a line of its landed cost's order, while that order is open. */
async function allocationBeforeSave(e: ModelEvent): Promise<void> {
  const row = rowOf(e);
  const { rows } = await e.tx.query<OrderRow>(ORDER_OF_COST_SQL, [idOf(row.c_orderlandedcost_id)]);
  const order = requireOpenPurchaseOrder(rows[0], 'C_OrderLandedCost_ID', row.c_orderlandedcost_id);
  if (e.type === 'before-delete') return;
  const line = await e.tx.query('SELECT 1 FROM c_orderline WHERE c_orderline_id = $1 AND c_order_id = $2 AND m_product_id IS NOT NULL', [idOf(row.c_orderline_id), order.c_order_id]);
  if (!line.rows.length) throw invalid(`Order line ${String(row.c_orderline_id)} is not a product line of order ${order.documentno} (column C_OrderLine_ID)`);
}

/** Estimated landed costs and their allocations: children of the purchase order, written while it is open. */
export function registerOrderLandedCostRules(events: ModelEvents): void {
  lockParentFirst('c_orderlandedcost', 'c_order', 'c_order_id', 'c_order_id');
  lockParentFirst('c_orderlandedcostallocation', 'c_orderlandedcost', 'c_orderlandedcost_id', 'c_orderlandedcost_id');
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) {
    events.on(type, 'c_orderlandedcost', orderLandedCostBeforeSave);
    events.on(type, 'c_orderlandedcostallocation', allocationBeforeSave);
  }
}
