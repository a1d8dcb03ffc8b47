import { idOf, nowTimestamp } from '../row-values.js';
import { definiteNumberAndDate, docId, noReactivation, requireLines, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentType } from '../engine/document-type.js';

/**
 * Purchase requisitions (M_Requisition, POR): prepare needs the requesting user, price list,
 * warehouse and lines, with the period open; complete numbers and approves it (purchase orders
 * come from the process Create PO from Requisition); void, while no line is ordered, zeroes the
 * lines. Requisitions post no facts.
 */
export const requisitionDocument: DocumentType = {
  table: 'm_requisition',
  refusal: noReactivation,
  details: [{ table: 'm_requisitionline', link: 'm_requisition_id' }],

  async prepare(d) {
    await requireOpenPeriod(d, 'datedoc');
    for (const [column, name] of [['ad_user_id', 'user'], ['m_pricelist_id', 'price list'], ['m_warehouse_id', 'warehouse']] as const) {
      if (idOf(d.row[column]) === null) throw refuse(`the requisition has no ${name}`);
    }
    await requireLines(d, 'm_requisitionline');
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datedoc');
    d.changes.isapproved = 'Y';
    return 'CO';
  },

  async void(d) {
    const { rows } = await d.wc.tx.query('SELECT 1 FROM m_requisitionline WHERE m_requisition_id = $1 AND c_orderline_id IS NOT NULL LIMIT 1', [docId(d)]);
    if (rows.length) throw refuse('lines of the requisition are ordered: void the purchase orders first');
    await d.wc.tx.query(
      `UPDATE m_requisitionline SET description = btrim(COALESCE(description, '') || ' Voided (' || qty::text || ')'), qty = 0, linenetamt = 0, updated = $2::timestamp, updatedby = $3
        WHERE m_requisition_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    d.changes.totallines = 0;
  },

  async close() {},
};
