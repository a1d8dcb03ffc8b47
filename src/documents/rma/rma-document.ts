import { nowTimestamp } from '../row-values.js';
import { docId, noReactivation, requireLines } from '../engine/common.js';
import { refuse, type DocumentType } from '../engine/document-type.js';
import { returnableQty } from './rma-rules.js';

/**
 * Return material authorizations (M_RMA): prepare checks that each line still returns no more
 * than its shipment line moved minus what other RMAs return; complete approves it (the return documents and credit memos come from the processes 52001 and 52002); void, while
 * nothing was returned yet, zeroes the lines. RMAs post no facts.
 */
export const rmaDocument: DocumentType = {
  table: 'm_rma',
  refusal: noReactivation,
  details: [{ table: 'm_rmaline', link: 'm_rma_id' }],

  async prepare(d) {
    await requireLines(d, 'm_rmaline');
    const { rows } = await d.wc.tx.query<{ m_rmaline_id: number; m_inoutline_id: number; qty: string; line: number }>(
      `SELECT m_rmaline_id, m_inoutline_id, qty::text, line FROM m_rmaline WHERE m_rma_id = $1 AND isactive = 'Y' ORDER BY line`,
      [docId(d)],
    );
    for (const l of rows) {
      const returnable = await returnableQty(d.wc.tx, Number(l.m_inoutline_id), Number(l.m_rmaline_id));
      if (Number(l.qty) > returnable) throw refuse(`line ${l.line} returns ${Number(l.qty)}, more than its shipment line can still return (${returnable})`);
    }
  },

  async complete() {
    return 'CO';
  },

  async void(d) {
    const { rows } = await d.wc.tx.query(
      `SELECT 1 FROM m_inout WHERE m_rma_id = $1 AND docstatus IN ('DR', 'IP', 'CO', 'CL') UNION ALL SELECT 1 FROM c_invoice WHERE m_rma_id = $1 AND docstatus IN ('DR', 'IP', 'CO', 'CL') LIMIT 1`,
      [docId(d)],
    );
    if (rows.length) throw refuse('return documents or credit memos of the RMA exist: void or reverse them first');
    await d.wc.tx.query(
      `UPDATE m_rmaline SET description = btrim(COALESCE(description, '') || ' Voided (' || qty::text || ')'), qty = 0, linenetamt = 0, updated = $2::timestamp, updatedby = $3 WHERE m_rma_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    d.changes.amt = 0;
  },

  async close() {},
};
