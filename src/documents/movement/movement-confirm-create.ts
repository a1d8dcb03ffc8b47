import { nextId, uuidv7 } from '../../db/ids.js';
import type { Tx } from '../../db/types.js';
import { assignDocumentNumbers } from '../../records/write/document-number.js';
import { docId } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { nowTimestamp } from '../row-values.js';

/** The lines of a new confirmation ($1) of a move ($2): one per active move line, its quantity the target and, as a suggestion, the confirmed quantity. */
const CONFIRM_LINES_SQL = `INSERT INTO m_movementlineconfirm (m_movementlineconfirm_id, m_movementlineconfirm_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_movementconfirm_id, m_movementline_id, targetqty, confirmedqty, differenceqty, scrappedqty, processed)
  SELECT nextval('m_movementlineconfirm_sq'), gen_random_uuid()::text, ml.ad_client_id, ml.ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4,
         $1, ml.m_movementline_id, ml.movementqty, ml.movementqty, 0, 0, 'N'
    FROM m_movementline ml WHERE ml.m_movement_id = $2 AND ml.isactive = 'Y' ORDER BY ml.line, ml.m_movementline_id`;

/**
 * Prepare of a move in transit creates its confirmation with a line per move line, as the
 * original's MMovement.prepareIt; a move that has one (open or done) keeps it.
 */
export async function createConfirmation(d: DocumentContext): Promise<void> {
  const tx = d.wc.tx;
  const moveId = docId(d);
  const { rows } = await tx.query('SELECT 1 FROM m_movementconfirm WHERE m_movement_id = $1 LIMIT 1', [moveId], { name: 'doc_move_has_confirm' });
  if (rows.length) return;
  const table = d.wc.dict.byName.get('m_movementconfirm')!;
  const clientId = Number(d.row.ad_client_id);
  const header: Record<string, unknown> = { documentno: null };
  await assignDocumentNumbers(tx, table, header, clientId);
  const id = await nextId(tx, 'M_MovementConfirm');
  const now = nowTimestamp();
  const user = d.wc.auth.userId;
  await tx.query(
    `INSERT INTO m_movementconfirm (m_movementconfirm_id, m_movementconfirm_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
            documentno, m_movement_id, docstatus, docaction, isapproved, processed, processing)
     VALUES ($1, $2, $3, $4, 'Y', $5::timestamp, $6, $5::timestamp, $6, $7, $8, 'DR', 'CO', 'N', 'N', 'N')`,
    [id, uuidv7(), clientId, d.row.ad_org_id, now, user, header.documentno, moveId],
  );
  await tx.query(CONFIRM_LINES_SQL, [id, moveId, now, user]);
  d.wc.memo.forget('m_movementconfirm');
  d.wc.memo.forget('m_movementlineconfirm');
}

/** The document number of a confirmation of the move that is not yet processed, or null. */
export async function openConfirmation(tx: Tx, movementId: number): Promise<string | null> {
  const { rows } = await tx.query<{ documentno: string }>(
    `SELECT documentno FROM m_movementconfirm WHERE m_movement_id = $1 AND processed = 'N' AND isactive = 'Y' ORDER BY m_movementconfirm_id LIMIT 1`,
    [movementId],
    { name: 'doc_move_open_confirm' },
  );
  return rows[0]?.documentno ?? null;
}
