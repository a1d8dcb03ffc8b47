import type { ModelEvent, Row } from '../../events/model-events.js';
import { costAdjustmentLineBeforeSave } from '../costadjust/cost-adjustment-line.js';
import { fillEmpty, idOf, invalid, isEmptyValue } from '../row-values.js';
import { defaultStockDocType, lineUnitAndQuantity, nextLineNo, refuseProcessedHeader } from '../stock/stock-document-rules.js';

/** A new count gets the client's default Physical Inventory type (MMI) when it names none, and the login's warehouse. */
export async function inventoryBeforeSave(e: ModelEvent): Promise<void> {
  await defaultStockDocType(e, 'MMI');
  if (e.type === 'before-new' && e.auth.warehouseId > 0) fillEmpty(e, 'm_warehouse_id', e.auth.warehouseId);
}

const LINE_HEADER_SQL = `SELECT h.m_inventory_id, h.documentno, h.processed, h.m_warehouse_id, h.costingmethod, dt.docsubtypeinv,
    (SELECT l.m_locator_id FROM m_locator l WHERE l.m_warehouse_id = h.m_warehouse_id AND l.isactive = 'Y' ORDER BY CASE WHEN l.isdefault = 'Y' THEN 0 ELSE 1 END, l.m_locator_id LIMIT 1) AS locator_id,
    (SELECT l.m_warehouse_id FROM m_locator l WHERE l.m_locator_id = $2) AS locator_warehouse_id,
    (SELECT COALESCE(max(x.line), 0) FROM m_inventoryline x WHERE x.m_inventory_id = h.m_inventory_id) AS max_line
  FROM m_inventory h LEFT JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id
 WHERE h.m_inventory_id = $1`;

const BOOK_SQL = `SELECT COALESCE(sum(qtyonhand), 0)::text AS qty FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = $2 AND m_attributesetinstance_id = $3`;

/** The quantity on hand of a product at a locator and attribute instance, as the count's book quantity. */
async function bookQuantity(e: ModelEvent): Promise<string> {
  const { rows } = await e.tx.query<{ qty: string }>(BOOK_SQL, [e.row.m_product_id, e.row.m_locator_id, e.row.m_attributesetinstance_id ?? 0], { name: 'doc_inventory_book' });
  return rows[0]?.qty ?? '0';
}

const changedAny = (e: ModelEvent, columns: readonly string[]): boolean => e.type === 'before-new' || columns.some((c) => e.changed.has(c));

/**
 * A count line (M_InventoryLine): the locator defaults to the count's warehouse's and must be one
 * of it; the product's unit. A physical inventory line (sub type PI) takes QtyBook from the stock
 * on hand at its locator whenever product, locator or attribute instance change, and counts its
 * book quantity when no count is given; QtyInternalUse is not its. An internal use line (IU)
 * issues QtyInternalUse to its charge, both required. A cost adjustment line (CA) is its own
 * (costAdjustmentLineBeforeSave). Lines of a processed count cannot change.
 */
export async function inventoryLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const { rows } = await e.tx.query<Row>(LINE_HEADER_SQL, [row.m_inventory_id, idOf(row.m_locator_id)], { name: 'doc_inventory_line_header' });
  const header = refuseProcessedHeader(rows[0], 'M_Inventory', 'M_Inventory_ID', row.m_inventory_id);
  if (idOf(row.m_locator_id) === null) fillEmpty(e, 'm_locator_id', header.locator_id);
  else if (idOf(header.m_warehouse_id) !== null && idOf(header.locator_warehouse_id) !== null && idOf(header.locator_warehouse_id) !== idOf(header.m_warehouse_id)) {
    throw invalid(`Locator ${String(row.m_locator_id)} is not a locator of the count's warehouse (column M_Locator_ID)`);
  }
  if (idOf(row.m_locator_id) === null) throw invalid('The line has no locator and the count no warehouse to take one from (column M_Locator_ID)');
  if (row.m_attributesetinstance_id === null || row.m_attributesetinstance_id === undefined) row.m_attributesetinstance_id = 0;
  if (row.qtycsv === null || row.qtycsv === undefined) row.qtycsv = 0;
  if (header.docsubtypeinv === 'CA') await costAdjustmentLineBeforeSave(e, header);
  else if (header.docsubtypeinv === 'IU') {
    if (isEmptyValue(row.qtyinternaluse)) throw invalid('An internal use line needs the quantity used (column QtyInternalUse)');
    if (idOf(row.c_charge_id) === null) throw invalid('An internal use line needs the charge the use is booked to (column C_Charge_ID)');
    row.qtybook = 0;
    row.qtycount = 0;
    await lineUnitAndQuantity(e, 'qtyinternaluse');
  } else {
    if (!isEmptyValue(row.qtyinternaluse)) throw invalid('A physical inventory line counts stock: internal use is a document of the Internal Use type (column QtyInternalUse)');
    if (changedAny(e, ['m_product_id', 'm_locator_id', 'm_attributesetinstance_id'])) row.qtybook = await bookQuantity(e);
    if (e.type === 'before-new' && !e.given?.has('qtycount') && !e.given?.has('qtyentered')) row.qtycount = row.qtybook;
    await lineUnitAndQuantity(e, 'qtycount');
    if (Number(row.qtycount) < 0) throw invalid('A count cannot be negative (column QtyCount)');
  }
  if (e.type === 'before-new' && isEmptyValue(row.line)) row.line = nextLineNo(header.max_line);
}
