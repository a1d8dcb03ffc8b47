import type { ModelEvent, Row } from '../events/model-events.js';
import { OPEN_AMOUNT_SQL } from './engine/settlement.js';
import { defaultDocTypeOf } from './inout-rules.js';
import { fillEmpty, fillUnset, idOf, invalid, isDefaulted, isEmptyValue, todayDate } from './row-values.js';
import { documentTypeRow, documentTypeRule } from './document-types.js';

const clientOf = (e: ModelEvent): number => Number(e.row.ad_client_id ?? e.auth.clientId);

/**
 * A new payment: from the invoice it pays (partner, currency, receipt or payment side, and the
 * open amount when no amount is given); the client's default bank account and its currency;
 * the document type of its side (AR Receipt, AP Payment).
 */
export async function paymentBeforeNew(e: ModelEvent): Promise<void> {
  const row = e.row;
  const invoiceId = idOf(row.c_invoice_id);
  if (invoiceId !== null) {
    const { rows } = await e.tx.query<Row>(
      `SELECT i.documentno, i.docstatus, i.c_bpartner_id, i.c_currency_id, i.issotrx, d.docbasetype, (${OPEN_AMOUNT_SQL('i')})::text AS open
         FROM c_invoice i LEFT JOIN c_doctype d ON d.c_doctype_id = i.c_doctype_id WHERE i.c_invoice_id = $1 AND i.ad_client_id = $2`,
      [invoiceId, clientOf(e)],
      { name: 'doc_payment_invoice' },
    );
    const inv = rows[0];
    if (!inv) throw invalid(`Invoice ${invoiceId} not found for column C_Invoice_ID`);
    if (inv.docstatus !== 'CO' && inv.docstatus !== 'CL') throw invalid(`Invoice ${String(inv.documentno)} is not completed (status ${String(inv.docstatus)})`);
    const credit = String(inv.docbasetype ?? '').endsWith('C');
    const receipt = (inv.issotrx === 'Y') !== credit;
    row.isreceipt = receipt ? 'Y' : 'N';
    await fillUnset(e, 'c_bpartner_id', inv.c_bpartner_id);
    await fillUnset(e, 'c_currency_id', inv.c_currency_id);
    if (isEmptyValue(row.payamt) || (await isDefaulted(e, 'payamt'))) row.payamt = Math.abs(Number(inv.open));
  }
  if (idOf(row.c_bankaccount_id) === null) {
    const { rows } = await e.tx.query<{ id: number }>(
      `SELECT c_bankaccount_id AS id FROM c_bankaccount WHERE ad_client_id = $1 AND isactive = 'Y' ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, c_bankaccount_id LIMIT 1`,
      [clientOf(e)],
    );
    fillEmpty(e, 'c_bankaccount_id', rows[0]?.id);
  }
  if (idOf(row.c_currency_id) === null && idOf(row.c_bankaccount_id) !== null) {
    const { rows } = await e.tx.query<{ c_currency_id: number }>('SELECT c_currency_id FROM c_bankaccount WHERE c_bankaccount_id = $1', [row.c_bankaccount_id]);
    fillEmpty(e, 'c_currency_id', rows[0]?.c_currency_id);
  }
  const rule = documentTypeRule('c_payment');
  const dt = idOf(row.c_doctype_id);
  if (dt === null || (await isDefaulted(e, 'c_doctype_id'))) {
    const receipt = row.isreceipt !== 'N';
    const id = await defaultDocTypeOf(e.tx, receipt ? rule.defaults.sales : rule.defaults.purchase, receipt, clientOf(e));
    if (id !== null) row.c_doctype_id = id;
  } else if (invoiceId === null) {
    // Without an invoice the named type decides the side (AR Receipt: a receipt); with one, the
    // invoice has decided it and a type of the other side is refused (documentTypeBeforeSave).
    const type = await documentTypeRow(e.tx, e.memo, dt);
    if (type && rule.baseTypes.includes(type.docbasetype) && (type.issotrx === 'Y' || type.issotrx === 'N')) row.isreceipt = type.issotrx;
  }
  for (const c of ['datetrx', 'dateacct']) fillEmpty(e, c, todayDate());
}

/** A new allocation: the Payment Allocation document type, the accounting schema's currency, today's dates. */
export async function allocationBeforeNew(e: ModelEvent): Promise<void> {
  const row = e.row;
  if (idOf(row.c_doctype_id) === null) row.c_doctype_id = await defaultDocTypeOf(e.tx, documentTypeRule('c_allocationhdr').defaults.sales, false, clientOf(e));
  if (idOf(row.c_currency_id) === null) {
    const { rows } = await e.tx.query<{ id: number }>('SELECT c_currency_id AS id FROM c_acctschema WHERE ad_client_id = $1 ORDER BY c_acctschema_id LIMIT 1', [clientOf(e)]);
    fillEmpty(e, 'c_currency_id', rows[0]?.id);
  }
  for (const c of ['datetrx', 'dateacct']) fillEmpty(e, c, todayDate());
}

/** An allocation line names its partner from its invoice or payment. */
export async function allocationLineBeforeNew(e: ModelEvent): Promise<void> {
  const row = e.row;
  if (idOf(row.c_bpartner_id) !== null) return;
  const { rows } = await e.tx.query<{ id: number | null }>(
    `SELECT COALESCE((SELECT c_bpartner_id FROM c_invoice WHERE c_invoice_id = $1), (SELECT c_bpartner_id FROM c_payment WHERE c_payment_id = $2)) AS id`,
    [idOf(row.c_invoice_id), idOf(row.c_payment_id)],
  );
  fillEmpty(e, 'c_bpartner_id', rows[0]?.id);
}
