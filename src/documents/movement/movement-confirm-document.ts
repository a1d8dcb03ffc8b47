import { docId, noReactivation, requireLines } from '../engine/common.js';
import { runDocumentAction } from '../engine/engine.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { checkPeriod } from '../engine/period.js';
import { nowTimestamp, todayDate } from '../row-values.js';
import { writeOffDifferences } from './movement-confirm-differences.js';

/**
 * The move's lines take what the confirmation says: the target, the quantity confirmed (which is
 * what moves), and the quantity scrapped; the entered quantity follows in the line's unit.
 */
const CONFIRM_MOVE_LINES_SQL = `UPDATE m_movementline ml
    SET targetqty = c.targetqty, confirmedqty = c.confirmedqty, scrappedqty = c.scrappedqty,
        qtyentered = CASE WHEN ml.movementqty = 0 THEN c.confirmedqty ELSE round(ml.qtyentered * c.confirmedqty / ml.movementqty, 12) END,
        movementqty = c.confirmedqty, updated = $2::timestamp, updatedby = $3
   FROM m_movementlineconfirm c
  WHERE c.m_movementconfirm_id = $1 AND c.isactive = 'Y' AND ml.m_movementline_id = c.m_movementline_id`;

async function moveOf(d: DocumentContext): Promise<{ docstatus: string; documentno: string }> {
  const { rows } = await d.wc.tx.query<{ docstatus: string; documentno: string }>('SELECT docstatus, documentno FROM m_movement WHERE m_movement_id = $1', [d.row.m_movement_id]);
  const move = rows[0];
  if (!move) throw refuse(`its move ${String(d.row.m_movement_id)} does not exist`);
  if (!['DR', 'IN', 'IP'].includes(move.docstatus)) throw refuse(`its move ${move.documentno} is in status ${move.docstatus}`);
  return move;
}

/**
 * Move confirmations (M_MovementConfirm), as the original's MMovementConfirm: created by the
 * prepare of a move in transit; completing one writes the confirmed, target and scrapped
 * quantities into the move's lines, completes the move (which then moves what was confirmed), and
 * writes off the differences and the scrap by physical inventories. It cannot be voided, reversed
 * or re-activated (the original refuses those too); it can be closed.
 */
export const movementConfirmDocument: DocumentType = {
  table: 'm_movementconfirm',
  refusal: noReactivation,
  details: [{ table: 'm_movementlineconfirm', link: 'm_movementconfirm_id' }],

  async prepare(d) {
    // The original checks the moves' period (MMM) on the day of confirmation.
    const period = await checkPeriod(d.wc.tx, d.row.ad_client_id, todayDate(), 'MMM');
    if (!period.open) throw refuse(period.reason);
    await requireLines(d, 'm_movementlineconfirm');
    await moveOf(d);
  },

  async complete(d) {
    const move = await moveOf(d);
    await d.wc.tx.query(CONFIRM_MOVE_LINES_SQL, [docId(d), nowTimestamp(), d.wc.auth.userId]);
    d.wc.memo.forget('m_movementline');
    // Done before the move completes, so that the move no longer waits for it.
    await d.wc.tx.query(`UPDATE m_movementconfirm SET processed = 'Y', isapproved = 'Y' WHERE m_movementconfirm_id = $1`, [docId(d)]);
    const moved = await runDocumentAction(d.wc, 'm_movement', Number(d.row.m_movement_id), 'CO');
    if (moved.status !== 'CO') throw refuse(`its move ${move.documentno} ended in status ${moved.status}${moved.message ? `: ${moved.message}` : ''}`);
    d.changes.isapproved = 'Y';
    const inventories = await writeOffDifferences(d);
    if (inventories.length) {
      const info = `Inventory: ${inventories.join(',')}`;
      d.messages.push(info);
      d.changes.description = d.row.description ? `${String(d.row.description)} | ${info}` : info;
    }
    return 'CO';
  },

  async void() {
    throw refuse('a move confirmation cannot be voided');
  },

  async close() {},
};
