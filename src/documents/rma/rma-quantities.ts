import type { ModelEvent } from '../../events/model-events.js';
import { idOf } from '../row-values.js';

/**
 * An RMA line's delivered and invoiced quantities follow its completed return documents and
 * credit memos (a reversed or voided one counts no more): recomputed when one of an RMA changes status.
 */
export async function refreshRmaQuantities(e: ModelEvent): Promise<void> {
  const rmaId = idOf(e.row.m_rma_id);
  if (rmaId === null) return;
  await e.tx.query(
    `UPDATE m_rmaline r SET
        qtydelivered = COALESCE((SELECT sum(il.movementqty) FROM m_inoutline il JOIN m_inout io ON io.m_inout_id = il.m_inout_id
                                  WHERE il.m_rmaline_id = r.m_rmaline_id AND io.docstatus IN ('CO', 'CL')), 0),
        qtyinvoiced = COALESCE((SELECT sum(l.qtyinvoiced) FROM c_invoiceline l JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id
                                 WHERE l.m_rmaline_id = r.m_rmaline_id AND i.docstatus IN ('CO', 'CL')), 0)
      WHERE r.m_rma_id = $1`,
    [rmaId],
  );
  e.memo.forget('m_rmaline');
}
