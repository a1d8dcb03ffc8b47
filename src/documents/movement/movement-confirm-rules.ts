import type { ModelEvent, Row } from '../../events/model-events.js';
import { compare, sub, toText } from '../decimal.js';
import { invalid } from '../row-values.js';
import { refuseProcessedHeader } from '../stock/stock-document-rules.js';

/** Confirmations and their lines come only from the prepare of a move in transit, as in the original. */
export function refuseConfirmationCreate(e: ModelEvent): void {
  throw invalid(`${e.table.name} records are created by preparing a move of an in-transit document type`);
}

/** The original keeps confirmation lines (its beforeDelete refuses). */
export function refuseConfirmationLineDelete(): void {
  throw invalid('M_MovementLineConfirm records cannot be deleted: confirm zero instead (column ConfirmedQty)');
}

const CONFIRM_HEADER_SQL = `SELECT m_movementconfirm_id, documentno, processed FROM m_movementconfirm WHERE m_movementconfirm_id = $1`;

const quantity = (row: Row, column: string): string => String(row[column] ?? 0);

/**
 * A confirmation line: the confirmed and scrapped quantities cannot be negative, nor can more be
 * scrapped than arrived; the difference is the target less the confirmed quantity (the original's
 * beforeSave). A processed confirmation's lines cannot change.
 */
export async function confirmationLineBeforeChange(e: ModelEvent): Promise<void> {
  const row = e.row;
  const { rows } = await e.tx.query<Row>(CONFIRM_HEADER_SQL, [row.m_movementconfirm_id], { name: 'doc_move_confirm_line_header' });
  refuseProcessedHeader(rows[0], 'M_MovementConfirm', 'M_MovementConfirm_ID', row.m_movementconfirm_id);
  if (compare(quantity(row, 'confirmedqty'), 0) < 0) throw invalid('A confirmed quantity cannot be negative (column ConfirmedQty)');
  if (compare(quantity(row, 'scrappedqty'), 0) < 0) throw invalid('A scrapped quantity cannot be negative (column ScrappedQty)');
  if (compare(quantity(row, 'scrappedqty'), quantity(row, 'confirmedqty')) > 0) throw invalid('More is scrapped than was confirmed as arrived (column ScrappedQty)');
  row.differenceqty = toText(sub(quantity(row, 'targetqty'), quantity(row, 'confirmedqty')));
}
