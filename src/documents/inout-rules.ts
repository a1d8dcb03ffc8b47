import type { Tx } from '../db/types.js';
import type { ModelEvent, Row } from '../events/model-events.js';
import { fillEmpty, fillUnset, idOf, invalid, isDefaulted, isEmptyValue, todayDate } from './row-values.js';
import { applyQuantities } from './line-rules.js';
import { unitConversion } from './units.js';
import { documentTypeRow, documentTypeRule } from './document-types.js';

/** Movement type of a shipment or receipt from its document type's base type and side. */
export function movementTypeOf(docBaseType: string | null, isSOTrx: boolean): string {
  if (docBaseType === 'MMR') return isSOTrx ? 'C+' : 'V+';
  return isSOTrx ? 'C-' : 'V-';
}

const ORDER_SQL = `SELECT o.c_order_id, o.documentno, o.docstatus, o.issotrx, o.ad_org_id, o.c_bpartner_id, o.c_bpartner_location_id, o.m_warehouse_id,
    o.salesrep_id, o.ad_user_id, o.deliveryrule, o.deliveryviarule, o.freightcostrule, o.priorityrule, o.poreference, o.dateordered,
    o.c_currency_id, o.m_pricelist_id, o.c_paymentterm_id, o.paymentrule, o.istaxincluded, o.bill_bpartner_id, o.bill_location_id, o.bill_user_id
  FROM c_order o WHERE o.c_order_id = $1 AND o.ad_client_id = $2`;

/** The order a shipment, receipt or invoice is created from; it must be completed (or closed for invoices). */
export async function sourceOrder(e: ModelEvent, orderId: number): Promise<Row> {
  const { rows } = await e.tx.query<Row>(ORDER_SQL, [orderId, e.row.ad_client_id ?? e.auth.clientId], { name: 'doc_source_order' });
  const order = rows[0];
  if (!order) throw invalid(`Order ${orderId} not found for column C_Order_ID`);
  if (order.docstatus !== 'CO' && order.docstatus !== 'CL') throw invalid(`Order ${String(order.documentno)} is not completed (status ${String(order.docstatus)}): documents are created from completed orders`);
  return order;
}

/** The client's default document type of a base type. */
export async function defaultDocTypeOf(tx: Tx, docBaseType: string, isSOTrx: boolean, clientId: number): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT c_doctype_id AS id FROM c_doctype WHERE docbasetype = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2)
      ORDER BY CASE WHEN issotrx = $3 THEN 0 ELSE 1 END, CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, ad_client_id DESC, c_doctype_id LIMIT 1`,
    [docBaseType, clientId, isSOTrx ? 'Y' : 'N'],
    { name: 'doc_default_doctype_side' },
  );
  return rows.length ? Number(rows[0]!.id) : null;
}

/** The document type a shipment names (read once per operation), or null. */
const docTypeFacts = (e: ModelEvent, id: number | null) => (id === null ? Promise.resolve(null) : documentTypeRow(e.tx, e.memo, id));

const ORDER_COPIES = ['c_bpartner_id', 'c_bpartner_location_id', 'm_warehouse_id', 'salesrep_id', 'ad_user_id', 'deliveryrule', 'deliveryviarule', 'freightcostrule', 'priorityrule', 'poreference', 'dateordered'];

/**
 * A new shipment or receipt: from its order (partner, address, warehouse, rules, side) when it
 * names one, else from its partner; the document type by side (MM Shipment, MM Receipt) when not
 * given; the movement type follows the document type; dates default to today. A document type
 * the caller names is kept as given: one of another table or side is refused by
 * documentTypeBeforeSave, never replaced.
 */
export async function inoutBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const orderId = idOf(row.c_order_id);
  if (orderId !== null && (isNew || e.changed.has('c_order_id'))) {
    const order = await sourceOrder(e, orderId);
    row.issotrx = order.issotrx;
    for (const c of ORDER_COPIES) if (isNew) await fillUnset(e, c, order[c]);
  }
  if (isNew && idOf(row.c_bpartner_location_id) === null && idOf(row.c_bpartner_id) !== null) {
    const { rows } = await e.tx.query<{ id: number }>(
      `SELECT c_bpartner_location_id AS id FROM c_bpartner_location WHERE c_bpartner_id = $1 AND isactive = 'Y' ORDER BY CASE WHEN isshipto = 'Y' THEN 0 ELSE 1 END, c_bpartner_location_id LIMIT 1`,
      [row.c_bpartner_id],
    );
    fillEmpty(e, 'c_bpartner_location_id', rows[0]?.id);
  }
  const rule = documentTypeRule('m_inout');
  let dt = await docTypeFacts(e, idOf(row.c_doctype_id));
  const ownType = dt !== null && rule.baseTypes.includes(dt.docbasetype);
  const given = idOf(row.c_doctype_id) !== null && !(await isDefaulted(e, 'c_doctype_id'));
  if (isNew && !given) {
    const isSOTrx = row.issotrx !== 'N';
    const id = await defaultDocTypeOf(e.tx, isSOTrx ? rule.defaults.sales : rule.defaults.purchase, isSOTrx, Number(row.ad_client_id ?? e.auth.clientId));
    if (id !== null && (!ownType || dt?.issotrx !== row.issotrx)) {
      row.c_doctype_id = id;
      dt = await docTypeFacts(e, id);
    }
  }
  if (dt && rule.baseTypes.includes(dt.docbasetype)) {
    if (orderId === null) row.issotrx = dt.issotrx;
    row.movementtype = movementTypeOf(dt.docbasetype, row.issotrx !== 'N');
  }
  if (isNew) {
    if (e.auth.warehouseId > 0) fillEmpty(e, 'm_warehouse_id', e.auth.warehouseId);
    for (const c of ['movementdate', 'dateacct']) fillEmpty(e, c, todayDate());
  }
}

const LINE_HEADER_SQL = `SELECT h.m_inout_id, h.documentno, h.processed, h.c_order_id, h.m_warehouse_id,
    (SELECT l.m_locator_id FROM m_locator l WHERE l.m_warehouse_id = h.m_warehouse_id AND l.isactive = 'Y' ORDER BY CASE WHEN l.isdefault = 'Y' THEN 0 ELSE 1 END, l.m_locator_id LIMIT 1) AS locator_id,
    (SELECT COALESCE(max(x.line), 0) FROM m_inoutline x WHERE x.m_inout_id = h.m_inout_id) AS max_line
  FROM m_inout h WHERE h.m_inout_id = $1`;

const ORDER_LINE_SQL = `SELECT ol.c_order_id, ol.m_product_id, ol.c_uom_id, ol.m_attributesetinstance_id, ol.c_charge_id, ol.qtyordered, ol.qtydelivered
  FROM c_orderline ol WHERE ol.c_orderline_id = $1`;

/**
 * A shipment or receipt line: product, unit and attribute instance from its order line, the open
 * quantity of that line when no quantity is given, the product's unit when the line names none,
 * MovementQty (product unit) and QtyEntered (line unit) one from the other through the unit
 * conversion, whichever the caller gives (refused when the line's unit has no conversion to the
 * product's), the default locator of the header's warehouse, the next line number. Lines of a
 * processed document cannot change; an order line of another order than the header's is refused.
 */
export async function inoutLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const { rows } = await e.tx.query<Row>(LINE_HEADER_SQL, [row.m_inout_id], { name: 'doc_inout_line_header' });
  const header = rows[0];
  if (!header) throw invalid(`Shipment ${String(row.m_inout_id)} not found for column M_InOut_ID`);
  if (header.processed === 'Y') throw invalid(`M_InOut ${String(header.documentno)} is processed: its lines cannot change (column M_InOut_ID)`);
  const orderLineId = idOf(row.c_orderline_id);
  if (orderLineId !== null && (isNew || e.changed.has('c_orderline_id'))) {
    const ol = (await e.tx.query<Row>(ORDER_LINE_SQL, [orderLineId], { name: 'doc_inout_orderline' })).rows[0];
    if (!ol) throw invalid(`Order line ${orderLineId} not found for column C_OrderLine_ID`);
    if (idOf(header.c_order_id) !== null && idOf(ol.c_order_id) !== idOf(header.c_order_id)) throw invalid(`Order line ${orderLineId} is not a line of the shipment's order (column C_OrderLine_ID)`);
    for (const c of ['m_product_id', 'c_uom_id', 'c_charge_id']) await fillUnset(e, c, ol[c]);
    fillEmpty(e, 'm_attributesetinstance_id', ol.m_attributesetinstance_id);
    if (isNew && !e.given?.has('qtyentered') && !e.given?.has('movementqty')) {
      // What the order line still owes, in the product's unit; QtyEntered follows below.
      row.movementqty = Math.max(Number(ol.qtyordered) - Number(ol.qtydelivered), 0);
      row.qtyentered = null;
    }
  }
  const productId = idOf(row.m_product_id);
  const productUom = productId === null ? null : await productUnit(e, productId);
  if (productUom !== null) {
    // A new product brings its unit, unless the same change names another.
    if (!isNew && e.changed.has('m_product_id') && !e.changed.has('c_uom_id')) row.c_uom_id = productUom;
    else await fillUnset(e, 'c_uom_id', productUom);
  }
  const units = await unitConversion(e.tx, e.memo, productId, idOf(row.c_uom_id), productUom, Number(row.ad_client_id ?? e.auth.clientId));
  await applyQuantities(e, 'movementqty', units);
  if (productId !== null) await fillUnset(e, 'm_locator_id', header.locator_id);
  if (isNew && isEmptyValue(row.line)) row.line = (Math.floor(Number(header.max_line) / 10) + 1) * 10;
}

/** A product's own unit (once per operation). */
export function productUnit(e: ModelEvent, productId: number): Promise<number | null> {
  return e.memo.get('m_product', `uom:${productId}`, async () => {
    const { rows } = await e.tx.query<{ c_uom_id: number | null }>('SELECT c_uom_id FROM m_product WHERE m_product_id = $1', [productId], { name: 'doc_product_uom' });
    return idOf(rows[0]?.c_uom_id);
  });
}
