import type { ModelEvent, Row } from '../../events/model-events.js';
import { defaultDocTypeOf, productUnit } from '../inout-rules.js';
import { applyQuantities } from '../line-rules.js';
import { idOf, invalid, isDefaulted, fillUnset } from '../row-values.js';
import { unitConversion } from '../units.js';

/**
 * A new move or count without a document type of its own gets the client's default one of its
 * base type (MMM, MMI: the default, else the first); a type the caller names is kept and checked
 * by documentTypeBeforeSave.
 */
export async function defaultStockDocType(e: ModelEvent, docBaseType: string): Promise<void> {
  if (e.type !== 'before-new') return;
  if (idOf(e.row.c_doctype_id) !== null && !(await isDefaulted(e, 'c_doctype_id'))) return;
  const id = await defaultDocTypeOf(e.tx, docBaseType, false, Number(e.row.ad_client_id ?? e.auth.clientId));
  if (id !== null) e.row.c_doctype_id = id;
}

/** Lines of a processed move or count cannot change (400 naming the header column). */
export function refuseProcessedHeader(header: Row | undefined, tableName: string, headerColumn: string, id: unknown): Row {
  if (!header) throw invalid(`${tableName} ${String(id)} not found for column ${headerColumn}`);
  if (header.processed === 'Y') throw invalid(`${tableName} ${String(header.documentno)} is processed: its lines cannot change (column ${headerColumn})`);
  return header;
}

/**
 * The unit and quantities of a stock line: the product's unit when the line names none, and the
 * quantity in the product's unit (`qtyColumn`) and QtyEntered one from the other.
 */
export async function lineUnitAndQuantity(e: ModelEvent, qtyColumn: string): Promise<number | null> {
  const row = e.row;
  const productId = idOf(row.m_product_id);
  const productUom = productId === null ? null : await productUnit(e, productId);
  if (productUom !== null) {
    if (e.type !== 'before-new' && e.changed.has('m_product_id') && !e.changed.has('c_uom_id')) row.c_uom_id = productUom;
    else await fillUnset(e, 'c_uom_id', productUom);
  }
  const units = await unitConversion(e.tx, e.memo, productId, idOf(row.c_uom_id), productUom, Number(row.ad_client_id ?? e.auth.clientId));
  await applyQuantities(e, qtyColumn, units);
  return productId;
}

/** The next line number of a new line (tens, after the highest of the document). */
export const nextLineNo = (maxLine: unknown): number => (Math.floor(Number(maxLine ?? 0) / 10) + 1) * 10;
