import { ORDER } from '../document-kinds.js';
import { nowTimestamp } from '../row-values.js';
import { awaitsPrepayment, generateSubTypeDocuments } from '../order-subtypes/sub-type-completion.js';
import { deleteFacts } from '../accounting/facts.js';
import { syncOrderReservations } from '../stock/reservations.js';
import { definiteNumberAndDate, docId, docTypeOf, requireLines, requireOpenPeriod } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { recomputeTotals } from './recompute.js';
import { distributeOrderLandedCosts } from '../landedcost/order-landed-cost-distribute.js';

/** Whether any line of the order was shipped or invoiced. */
async function hasMovements(d: DocumentContext): Promise<boolean> {
  const { rows } = await d.wc.tx.query('SELECT 1 FROM c_orderline WHERE c_order_id = $1 AND (qtydelivered <> 0 OR qtyinvoiced <> 0) LIMIT 1', [docId(d)]);
  return rows.length > 0;
}

/**
 * Sales and purchase orders (C_Order): prepare reserves (sales) or expects (purchase) the open
 * quantities, complete gives the definite number; void zeroes the lines and releases the
 * reservations; close keeps what was delivered and releases the rest; reactivate reopens a
 * completed order whose document type allows it; a purchase order's completion distributes its
 * estimated landed costs over its lines. Orders post no facts.
 */
export const orderDocument: DocumentType = {
  table: 'c_order',
  details: [
    { table: 'c_orderline', link: 'c_order_id' },
    { table: 'c_ordertax', link: 'c_order_id' },
  ],

  async refusal(d) {
    if (d.action === 'RE') {
      const dt = await docTypeOf(d);
      if (dt?.iscanbereactivated !== 'Y') return `the document type ${dt?.name ?? ''} does not allow reactivation`.replace('  ', ' ');
    }
    return null;
  },

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'c_orderline');
    d.changes.c_doctype_id = d.row.c_doctypetarget_id;
    const dt = await docTypeOf(d);
    // A proposal reserves nothing; every other order reserves what it still owes.
    if (dt?.docsubtypeso !== 'ON') await syncOrderReservations(d.wc.tx, docId(d), true, d.wc.auth.userId);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'dateordered');
    const dt = await docTypeOf(d);
    if (awaitsPrepayment(d, dt)) {
      d.messages.push('Waiting for the prepayment');
      return 'WP';
    }
    await generateSubTypeDocuments(d, dt);
    // A purchase order shares its estimated landed costs over its lines, which its receipts then take into their cost.
    if (d.row.issotrx === 'N') await distributeOrderLandedCosts(d);
    return 'CO';
  },

  async void(d) {
    if (await hasMovements(d)) throw refuse('lines of the order were shipped or invoiced: reverse those documents first');
    await d.wc.tx.query(
      `UPDATE c_orderline SET description = btrim(COALESCE(description, '') || ' Voided (' || qtyordered::text || ')'),
              qtyordered = 0, qtyentered = 0, linenetamt = 0, qtylostsales = 0, updated = $2::timestamp, updatedby = $3
        WHERE c_order_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    await syncOrderReservations(d.wc.tx, docId(d), false, d.wc.auth.userId);
    await recomputeTotals(d, ORDER);
    await deleteFacts(d);
  },

  async close(d) {
    const { rows } = await d.wc.tx.query(`SELECT documentno FROM m_inout WHERE c_order_id = $1 AND docstatus = 'IP' LIMIT 1`, [docId(d)]);
    if (rows.length) throw refuse(`shipment ${String((rows[0] as { documentno: unknown }).documentno)} of the order is in progress`);
    await d.wc.tx.query(
      `UPDATE c_orderline l SET qtylostsales = l.qtyordered - l.qtydelivered,
              description = btrim(COALESCE(l.description, '') || ' Close (' || l.qtyordered::text || ')'),
              qtyordered = l.qtydelivered,
              -- In the line's unit: the delivered share of what was entered.
              qtyentered = CASE WHEN l.qtyordered = 0 OR l.qtyentered = l.qtyordered THEN l.qtydelivered
                                ELSE round(l.qtyentered * l.qtydelivered / l.qtyordered, COALESCE((SELECT u.stdprecision FROM c_uom u WHERE u.c_uom_id = l.c_uom_id), 2)::int) END,
              linenetamt = round(l.priceactual * l.qtydelivered, COALESCE((SELECT c.stdprecision FROM c_currency c WHERE c.c_currency_id = l.c_currency_id), 2)::int),
              updated = $2::timestamp, updatedby = $3
        WHERE l.c_order_id = $1 AND l.qtyordered <> l.qtydelivered`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    await syncOrderReservations(d.wc.tx, docId(d), false, d.wc.auth.userId);
    await recomputeTotals(d, ORDER);
  },

  async reactivate(d) {
    await deleteFacts(d);
  },
};
