import type { Row } from '../../events/model-events.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { runDocumentAction } from '../engine/engine.js';
import { insertRecord } from '../../records/write/persist.js';
import { docId } from '../engine/common.js';

/** The shipment and invoice document types an order type names, and whether a prepay order generates them. */
export interface OrderTypeTargets {
  shipmentTypeId: number | null;
  invoiceTypeId: number | null;
  autoShipment: boolean;
  autoInvoice: boolean;
}

export async function orderTypeTargets(d: DocumentContext, docTypeId: number): Promise<OrderTypeTargets> {
  const { rows } = await d.wc.tx.query<Row>(
    'SELECT c_doctypeshipment_id, c_doctypeinvoice_id, isautogenerateinout, isautogenerateinvoice FROM c_doctype WHERE c_doctype_id = $1',
    [docTypeId],
  );
  const r = rows[0] ?? {};
  const id = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { shipmentTypeId: id(r.c_doctypeshipment_id), invoiceTypeId: id(r.c_doctypeinvoice_id), autoShipment: r.isautogenerateinout === 'Y', autoInvoice: r.isautogenerateinvoice === 'Y' };
}

/** Creates a document through the record engine (its rules run as for any client) and completes it; answers its row. */
async function createCompleted(d: DocumentContext, tableName: string, body: Record<string, unknown>): Promise<Row> {
  const table = d.wc.dict.byName.get(tableName)!;
  const created = await insertRecord(d.wc, table, body);
  await d.wc.deferred.flush();
  const id = String(created.row[table.keyColumn!.dbName]);
  const done = await runDocumentAction(d.wc, table, id, 'CO');
  if (done.status !== 'CO') throw refuse(`the generated ${table.name} ${String(done.row.documentno ?? id)} did not complete (status ${done.status})`);
  return done.row;
}

/**
 * The order's shipment of everything it still owes (ordered minus delivered, per line), with the
 * order's shipment document type, completed: as the original's createShipment for POS, On Credit
 * and Warehouse orders. Null when nothing is owed.
 */
export async function shipOrder(d: DocumentContext, shipmentTypeId: number | null): Promise<Row | null> {
  const { rows } = await d.wc.tx.query<{ c_orderline_id: number; qty: string }>(
    `SELECT c_orderline_id, (qtyordered - qtydelivered)::text AS qty FROM c_orderline
      WHERE c_order_id = $1 AND isactive = 'Y' AND qtyordered <> qtydelivered AND (m_product_id IS NOT NULL OR c_charge_id IS NOT NULL)
      ORDER BY line, c_orderline_id`,
    [docId(d)],
  );
  if (!rows.length) return null;
  return createCompleted(d, 'm_inout', {
    C_Order_ID: docId(d),
    AD_Org_ID: d.row.ad_org_id,
    ...(shipmentTypeId !== null ? { C_DocType_ID: shipmentTypeId } : {}),
    M_InOutLine: rows.map((l) => ({ C_OrderLine_ID: Number(l.c_orderline_id), MovementQty: Number(l.qty) })),
  });
}

/**
 * The order's invoice, completed: of the shipment's lines when there is one (the shipment lines
 * are invoiced then), else of what each order line has not invoiced yet.
 */
export async function invoiceOrder(d: DocumentContext, invoiceTypeId: number | null, shipment: Row | null): Promise<Row> {
  let lines: Record<string, unknown>[];
  if (shipment) {
    const { rows } = await d.wc.tx.query<Row>(
      'SELECT m_inoutline_id, c_orderline_id, movementqty, qtyentered FROM m_inoutline WHERE m_inout_id = $1 ORDER BY line, m_inoutline_id',
      [shipment.m_inout_id],
    );
    lines = rows.map((l) => ({ M_InOutLine_ID: Number(l.m_inoutline_id), C_OrderLine_ID: Number(l.c_orderline_id), QtyInvoiced: Number(l.movementqty) }));
  } else {
    const { rows } = await d.wc.tx.query<Row>(
      `SELECT c_orderline_id, qtyordered - qtyinvoiced AS qty FROM c_orderline WHERE c_order_id = $1 AND isactive = 'Y' AND qtyordered <> qtyinvoiced ORDER BY line, c_orderline_id`,
      [docId(d)],
    );
    lines = rows.map((l) => ({ C_OrderLine_ID: Number(l.c_orderline_id), QtyInvoiced: Number(l.qty) }));
  }
  if (!lines.length) throw refuse('the order has nothing to invoice');
  const invoice = await createCompleted(d, 'c_invoice', {
    C_Order_ID: docId(d),
    AD_Org_ID: d.row.ad_org_id,
    ...(invoiceTypeId !== null ? { C_DocTypeTarget_ID: invoiceTypeId } : {}),
    C_InvoiceLine: lines,
  });
  if (shipment) await d.wc.tx.query(`UPDATE m_inoutline SET isinvoiced = 'Y' WHERE m_inout_id = $1`, [shipment.m_inout_id]);
  return invoice;
}

/**
 * A cash payment of the whole invoice (the original's payment of an invoice whose payment rule is
 * cash): tender type cash, the org's bank account in the invoice's currency (the default one
 * first), a receipt document type; completed, so it allocates itself to the invoice.
 */
export async function payInCash(d: DocumentContext, invoice: Row): Promise<Row> {
  const account = await d.wc.tx.query<{ id: number }>(
    `SELECT c_bankaccount_id AS id FROM c_bankaccount WHERE ad_client_id = $1 AND ad_org_id IN ($2, 0) AND c_currency_id = $3 AND isactive = 'Y'
      ORDER BY CASE WHEN ad_org_id = $2 THEN 0 ELSE 1 END, CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, c_bankaccount_id LIMIT 1`,
    [invoice.ad_client_id, invoice.ad_org_id, invoice.c_currency_id],
  );
  if (!account.rows[0]) throw refuse('no bank account of the organization in the invoice currency takes the cash payment');
  const docType = await d.wc.tx.query<{ id: number }>(
    `SELECT c_doctype_id AS id FROM c_doctype WHERE ad_client_id IN (0, $1) AND docbasetype = 'ARR' AND isactive = 'Y'
      ORDER BY CASE WHEN ad_org_id = $2 THEN 0 ELSE 1 END, CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, c_doctype_id LIMIT 1`,
    [invoice.ad_client_id, invoice.ad_org_id],
  );
  if (!docType.rows[0]) throw refuse('the client has no receipt document type (ARR) for the cash payment');
  return createCompleted(d, 'c_payment', {
    AD_Org_ID: invoice.ad_org_id,
    C_DocType_ID: Number(docType.rows[0].id),
    IsReceipt: true,
    TenderType: 'X',
    C_BankAccount_ID: Number(account.rows[0].id),
    C_BPartner_ID: invoice.c_bpartner_id,
    C_Invoice_ID: invoice.c_invoice_id,
    C_Currency_ID: invoice.c_currency_id,
    PayAmt: invoice.grandtotal,
    DateTrx: invoice.dateinvoiced,
    DateAcct: invoice.dateacct,
  });
}
