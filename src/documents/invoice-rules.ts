import type { ModelEvent, Row } from '../events/model-events.js';
import { sourceOrder } from './inout-rules.js';
import { fillUnset, idOf, invalid, isDefaulted, isEmptyValue } from './row-values.js';

const ORDER_COPIES = [
  'c_bpartner_id',
  'm_pricelist_id',
  'c_currency_id',
  'c_paymentterm_id',
  'paymentrule',
  'salesrep_id',
  'poreference',
  'dateordered',
  'ad_user_id',
];

/**
 * An invoice created from an order takes its side, partner (the order's invoice partner and
 * address), price list, currency, payment term and rule before the invoice's own defaults run.
 */
export async function invoiceFromOrder(e: ModelEvent): Promise<void> {
  const orderId = idOf(e.row.c_order_id);
  if (orderId === null) return;
  const order = await sourceOrder(e, orderId);
  e.row.issotrx = order.issotrx;
  for (const c of ORDER_COPIES) await fillUnset(e, c, order[c]);
  if (idOf(order.bill_bpartner_id) !== null && idOf(e.row.c_bpartner_id) === idOf(order.c_bpartner_id)) {
    e.row.c_bpartner_id = order.bill_bpartner_id;
    await fillUnset(e, 'c_bpartner_location_id', order.bill_location_id);
  }
}

const SOURCE_SQL = `SELECT ol.c_orderline_id, ol.c_order_id, ol.m_product_id, ol.c_charge_id, ol.c_uom_id, ol.c_tax_id, ol.priceentered, ol.priceactual, ol.pricelist,
    ol.pricelimit, ol.qtyordered, ol.qtyinvoiced, ol.qtydelivered, il.m_inoutline_id, il.movementqty, il.m_product_id AS inout_product_id
  FROM c_orderline ol FULL JOIN m_inoutline il ON il.c_orderline_id = ol.c_orderline_id AND il.m_inoutline_id = $2
 WHERE (ol.c_orderline_id = $1 OR $1::bigint IS NULL) AND (il.m_inoutline_id = $2 OR $2::bigint IS NULL)
 LIMIT 1`;

/**
 * An invoice line created from an order line or a shipment line: product or charge, unit, tax and
 * prices of the order line; the quantity shipped on the shipment line, else what the order line
 * has not invoiced yet (in the product's unit, when the caller gives no quantity). Set before the
 * invoice line's pricing rules, which keep given prices and convert quantities between units.
 */
export async function invoiceLineFromSource(e: ModelEvent): Promise<void> {
  if (e.type !== 'before-new') return;
  const row = e.row;
  let orderLineId = idOf(row.c_orderline_id);
  const inoutLineId = idOf(row.m_inoutline_id);
  if (orderLineId === null && inoutLineId === null) return;
  if (orderLineId === null && inoutLineId !== null) {
    const { rows } = await e.tx.query<{ c_orderline_id: number | null }>('SELECT c_orderline_id FROM m_inoutline WHERE m_inoutline_id = $1', [inoutLineId]);
    if (!rows[0]) throw invalid(`Shipment line ${inoutLineId} not found for column M_InOutLine_ID`);
    orderLineId = idOf(rows[0].c_orderline_id);
    if (orderLineId !== null) row.c_orderline_id = orderLineId;
  }
  const { rows } = await e.tx.query<Row>(SOURCE_SQL, [orderLineId, inoutLineId], { name: 'doc_invoice_line_source' });
  const src = rows[0];
  if (!src) throw invalid(`Order line ${String(orderLineId)} not found for column C_OrderLine_ID`);
  for (const c of ['m_product_id', 'c_charge_id', 'c_uom_id', 'c_tax_id']) await fillUnset(e, c, src[c] ?? (c === 'm_product_id' ? src.inout_product_id : null));
  const noQty = !e.given?.has('qtyentered') && !e.given?.has('qtyinvoiced') && (isEmptyValue(row.qtyentered) || (await isDefaulted(e, 'qtyentered')));
  if (noQty) {
    // In the product's unit; the line rules give QtyEntered in the line's unit from it.
    row.qtyinvoiced = inoutLineId !== null ? Number(src.movementqty) : Math.max(Number(src.qtyordered ?? 0) - Number(src.qtyinvoiced ?? 0), 0);
    row.qtyentered = null;
  }
  if (src.c_orderline_id !== null && src.c_orderline_id !== undefined) {
    for (const c of ['priceentered', 'priceactual', 'pricelist', 'pricelimit']) if (isEmptyValue(row[c])) row[c] = src[c];
  }
}
