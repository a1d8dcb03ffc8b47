import { idOf } from '../row-values.js';
import { docId } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { runDocumentAction } from '../engine/engine.js';

/**
 * A payment that names a prepay order waiting for its payment (status WP) releases it, as the
 * original's payment completion: the order names the payment and completes. Answers the order's
 * last completed invoice (one its document type generated), which the payment then pays, or null.
 */
export async function releasePrepaidOrder(d: DocumentContext): Promise<number | null> {
  const orderId = idOf(d.row.c_order_id);
  if (orderId === null || idOf(d.row.c_invoice_id) !== null) return null;
  const { rows } = await d.wc.tx.query<{ docstatus: string }>('SELECT docstatus FROM c_order WHERE c_order_id = $1 FOR UPDATE', [orderId]);
  if (rows[0]?.docstatus !== 'WP') return null;
  await d.wc.tx.query('UPDATE c_order SET c_payment_id = $2 WHERE c_order_id = $1', [orderId, docId(d)]);
  d.wc.memo.forget('c_order');
  const released = await runDocumentAction(d.wc, 'c_order', orderId, 'CO');
  d.messages.push(`Order ${String(released.row.documentno)} released`);
  const invoice = await d.wc.tx.query<{ id: number }>(
    `SELECT c_invoice_id AS id FROM c_invoice WHERE c_order_id = $1 AND docstatus IN ('CO', 'CL') ORDER BY c_invoice_id DESC LIMIT 1`,
    [orderId],
  );
  return idOf(invoice.rows[0]?.id);
}
