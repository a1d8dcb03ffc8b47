import { idOf } from '../row-values.js';
import { current, docId, type DocTypeRow } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { invoiceOrder, orderTypeTargets, payInCash, shipOrder } from './generated-documents.js';

/** Sales order sub types that create documents on completion (the original's DocSubTypeSO). */
const POS = 'WR';
const ON_CREDIT = 'WI';
const WAREHOUSE = 'WP';
const PREPAY = 'PR';
const PAYMENT_RULE_CASH = 'B';

/**
 * The order is written completed before its generated documents are created: they are created
 * from completed orders only (the engine writes the header again with the same status after).
 */
async function writeCompletedFirst(d: DocumentContext): Promise<void> {
  await d.wc.tx.query(`UPDATE c_order SET docstatus = 'CO', documentno = $2, dateordered = $3, dateacct = $4 WHERE c_order_id = $1`, [
    docId(d),
    current(d, 'documentno'),
    current(d, 'dateordered'),
    current(d, 'dateacct'),
  ]);
  d.wc.memo.forget('c_order');
}

/**
 * What a sales order of a sub type generates on completion, as the original's MOrder.completeIt:
 * POS and On Credit orders their shipment and invoice (a cash payment of the invoice when the
 * payment rule is cash), Warehouse orders their shipment; a released prepay order its shipment and
 * invoice only where its document type asks for them (IsAutoGenerateInout / IsAutoGenerateInvoice).
 */
export async function generateSubTypeDocuments(d: DocumentContext, dt: DocTypeRow | null): Promise<void> {
  const sub = dt?.docsubtypeso ?? null;
  if (!dt || d.row.issotrx !== 'Y' || ![POS, ON_CREDIT, WAREHOUSE, PREPAY].includes(sub ?? '')) return;
  const targets = await orderTypeTargets(d, dt.c_doctype_id);
  const ships = sub !== PREPAY || targets.autoShipment;
  const invoices = sub === POS || sub === ON_CREDIT || (sub === PREPAY && targets.autoInvoice);
  if (!ships && !invoices) return;
  await writeCompletedFirst(d);
  const shipment = ships ? await shipOrder(d, targets.shipmentTypeId) : null;
  if (shipment) d.messages.push(`Shipment ${String(shipment.documentno)}`);
  if (!invoices) return;
  const invoice = await invoiceOrder(d, targets.invoiceTypeId, shipment);
  d.messages.push(`Invoice ${String(invoice.documentno)}`);
  // A prepay order is paid already (by the payment that released it).
  if (sub !== PREPAY && current(d, 'paymentrule') === PAYMENT_RULE_CASH) {
    const payment = await payInCash(d, invoice);
    d.messages.push(`Payment ${String(payment.documentno)}`);
  }
}

/** Whether a prepay order still waits for its payment. */
export const awaitsPrepayment = (d: DocumentContext, dt: DocTypeRow | null): boolean => dt?.docsubtypeso === PREPAY && idOf(current(d, 'c_payment_id')) === null;
