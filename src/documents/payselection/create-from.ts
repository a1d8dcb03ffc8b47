import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { insertRecord } from '../../records/write/persist.js';
import { add, compare, sub, toText, ZERO, type Decimal } from '../decimal.js';
import { INSTALLMENTS_SQL, TERM_DISCOUNT_SQL } from '../payschedule/due-dates.js';
import { dayText, flag, idParam, textParam } from '../process-record.js';
import { refreshSelectionTotal, selectionOf } from './selection.js';

interface InstallmentRow {
  c_invoice_id: number;
  ad_org_id: number;
  issotrx: string;
  paymentrule: string;
  openamt: string;
  discountamt: string;
  isdue: boolean;
}

const DIRECT_DEBIT = 'D';

/**
 * The discount of an installment paid on the pay date: a scheduled installment's own discount
 * while its discount date has not passed, an invoice without schedule its term's discount on the
 * grand total (paymentTermDiscount); only for an installment nothing was paid of yet.
 */
export const DISCOUNT_SQL = (payDate: string) => `CASE WHEN x.openamt <> x.dueamt THEN 0
    WHEN x.c_invoicepayschedule_id IS NOT NULL THEN CASE WHEN x.discountdate::date >= ${payDate} THEN x.discountamt ELSE 0 END
    ELSE ${TERM_DISCOUNT_SQL('i.c_paymentterm_id', 'i.grandtotal', 'i.c_currency_id', 'i.dateinvoiced', payDate)} END`;

/**
 * Create From Invoices (the original's PaySelectionCreateFrom): adds to a payment selection the
 * completed, unpaid vendor invoices (customer invoices with the Direct Debit rule) in the bank
 * account's currency that no other selection pays with a valid payment, one line per invoice: its
 * open amount, the discount of its term when paid on the selection's pay date, and the amount to
 * pay (open less discount). Parameters: OnlyDue (installments due by DueDate, default the pay
 * date), OnlyDiscount (installments with a discount in time; with OnlyDue, either), IncludeInDispute,
 * PaymentRule, C_BPartner_ID, C_BP_Group_ID.
 */
export async function paySelectionCreateFrom(c: ProcessCall): Promise<ProcessOutcome> {
  const { wc, selection, id } = await selectionOf(c);
  if (selection.processed === 'Y') throw badRequest('Invalid parameter', 'The payment selection is processed: its payments are prepared');
  const onlyDue = flag(c, 'OnlyDue', true);
  const onlyDiscount = flag(c, 'OnlyDiscount', false);
  const rule = textParam(c, 'PaymentRule');
  const partner = idParam(c, 'C_BPartner_ID');
  const group = idParam(c, 'C_BP_Group_ID');
  const invoice = c.s.dictionary.current.byName.get('c_invoice')!;
  const sql = new SqlBuilder();
  const payDate = `${sql.param(dayText(selection.paydate))}::date`;
  const due = c.param('DueDate')?.value;
  const dueDate = typeof due === 'string' ? `${sql.param(dayText(due))}::date` : payDate;
  const where = [
    `i.ad_client_id = ${sql.param(c.auth.clientId)}`,
    `i.docstatus IN ('CO', 'CL')`,
    `i.ispaid = 'N'`,
    `i.isactive = 'Y'`,
    rule === DIRECT_DEBIT ? `i.issotrx = 'Y' AND dt.docbasetype = 'ARI'` : `i.issotrx = 'N' AND dt.docbasetype = 'API'`,
    `i.c_currency_id = (SELECT b.c_currency_id FROM c_bankaccount b WHERE b.c_bankaccount_id = ${sql.param(selection.c_bankaccount_id)})`,
    // Not paid by another selection whose payment still stands, and not in this one yet.
    `NOT EXISTS (SELECT 1 FROM c_payselectionline psl JOIN c_payselectioncheck psc ON psc.c_payselectioncheck_id = psl.c_payselectioncheck_id
        LEFT JOIN c_payment pmt ON pmt.c_payment_id = psc.c_payment_id
       WHERE psl.c_invoice_id = i.c_invoice_id AND psl.isactive = 'Y' AND (pmt.docstatus IS NULL OR pmt.docstatus NOT IN ('VO', 'RE')))`,
    `NOT EXISTS (SELECT 1 FROM c_payselectionline psl WHERE psl.c_invoice_id = i.c_invoice_id AND psl.c_payselection_id = ${sql.param(id)})`,
    readPredicate(c.auth, invoice, 'i', sql),
  ];
  if (!flag(c, 'IncludeInDispute', false)) where.push(`i.isindispute = 'N'`);
  if (rule) where.push(`i.paymentrule = ${sql.param(rule)}`);
  if (partner !== null) where.push(`i.c_bpartner_id = ${sql.param(partner)}`);
  else if (group !== null) where.push(`EXISTS (SELECT 1 FROM c_bpartner bp WHERE bp.c_bpartner_id = i.c_bpartner_id AND bp.c_bp_group_id = ${sql.param(group)})`);
  const { rows } = await c.tx.query<InstallmentRow>(
    `SELECT i.c_invoice_id, i.ad_org_id, i.issotrx, i.paymentrule, x.openamt::text AS openamt, (${DISCOUNT_SQL(payDate)})::text AS discountamt,
            x.duedate::date <= ${dueDate} AS isdue
       FROM c_invoice i JOIN c_doctype dt ON dt.c_doctype_id = i.c_doctype_id
       CROSS JOIN LATERAL ${INSTALLMENTS_SQL('i')} x
      WHERE ${where.join(' AND ')} AND x.openamt > 0
      ORDER BY i.c_bpartner_id, x.duedate, i.c_invoice_id`,
    sql.values,
  );
  const lines = new Map<number, { row: InstallmentRow; open: Decimal; discount: Decimal }>();
  for (const r of rows) {
    const hasDiscount = compare(r.discountamt, 0) > 0;
    const wanted = onlyDiscount && onlyDue ? hasDiscount || r.isdue : onlyDiscount ? hasDiscount : onlyDue ? r.isdue : true;
    if (!wanted) continue;
    const line = lines.get(Number(r.c_invoice_id)) ?? { row: r, open: ZERO, discount: ZERO };
    line.open = add(line.open, r.openamt);
    line.discount = add(line.discount, r.discountamt);
    lines.set(Number(r.c_invoice_id), line);
  }
  const lineTable = c.s.dictionary.current.byName.get('c_payselectionline')!;
  const { rows: last } = await c.tx.query<{ n: number }>(`SELECT COALESCE(max(line), 0) AS n FROM c_payselectionline WHERE c_payselection_id = $1`, [id]);
  let no = Number(last[0]?.n ?? 0);
  for (const [invoiceId, l] of lines) {
    no += 10;
    await insertRecord(wc, lineTable, {
      C_PaySelection_ID: id,
      AD_Org_ID: Number(selection.ad_org_id),
      Line: no,
      C_Invoice_ID: invoiceId,
      IsSOTrx: l.row.issotrx === 'Y',
      PaymentRule: l.row.paymentrule,
      OpenAmt: toText(l.open),
      DiscountAmt: toText(l.discount),
      WriteOffAmt: 0,
      PayAmt: toText(sub(l.open, l.discount)),
      DifferenceAmt: 0,
    });
  }
  await wc.deferred.flush();
  await refreshSelectionTotal(wc, id);
  c.log({ msg: `Payment selection lines: ${lines.size}` });
  return { summary: `Payment Selection Lines: #${lines.size}` };
}
