import type { ModelEvent, Row } from '../../events/model-events.js';
import { idOf, invalid, isEmptyValue } from '../row-values.js';
import { defaultStockDocType, lineUnitAndQuantity, nextLineNo, refuseProcessedHeader } from '../stock/stock-document-rules.js';

/** A new move gets the client's Material Movement document type (MMM) when it names none. */
export const movementBeforeSave = (e: ModelEvent): Promise<void> => defaultStockDocType(e, 'MMM');

const LINE_HEADER_SQL = `SELECT h.m_movement_id, h.documentno, h.processed,
    (SELECT COALESCE(max(x.line), 0) FROM m_movementline x WHERE x.m_movement_id = h.m_movement_id) AS max_line,
    (SELECT c.documentno FROM m_movementconfirm c WHERE c.m_movement_id = h.m_movement_id AND c.processed = 'N' AND c.isactive = 'Y' LIMIT 1) AS open_confirm
  FROM m_movement h WHERE h.m_movement_id = $1`;

/**
 * A move line: the product's unit, MovementQty and QtyEntered one from the other, the next line
 * number. It moves from M_Locator_ID to M_LocatorTo_ID (another warehouse's too); a line that
 * moves nothing anywhere (same locator, same attribute instance) or a negative quantity is
 * refused, and so is any change to a processed move's lines. While a confirmation of the move is
 * open, its lines are fixed: no new line, no other quantity (the confirmation decides what arrives).
 */
export async function movementLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const { rows } = await e.tx.query<Row>(LINE_HEADER_SQL, [row.m_movement_id], { name: 'doc_movement_line_header' });
  const header = refuseProcessedHeader(rows[0], 'M_Movement', 'M_Movement_ID', row.m_movement_id);
  if (header.open_confirm && (e.type === 'before-new' || e.changed.has('movementqty') || e.changed.has('qtyentered'))) {
    throw invalid(`Open: Move Confirm ${String(header.open_confirm)}: the move's lines cannot change until it is confirmed (column MovementQty)`);
  }
  await lineUnitAndQuantity(e, 'movementqty');
  if (Number(row.movementqty) < 0) throw invalid('A move line cannot move a negative quantity (column MovementQty)');
  const from = idOf(row.m_locator_id);
  const to = idOf(row.m_locatorto_id);
  const asiTo = idOf(row.m_attributesetinstanceto_id) ?? idOf(row.m_attributesetinstance_id);
  if (from !== null && from === to && asiTo === idOf(row.m_attributesetinstance_id)) {
    throw invalid('The locator to move to is the locator to move from: the line moves nothing (column M_LocatorTo_ID)');
  }
  if (e.type === 'before-new' && isEmptyValue(row.line)) row.line = nextLineNo(header.max_line);
}
