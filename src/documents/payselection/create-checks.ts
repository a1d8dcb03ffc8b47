import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { insertRecord } from '../../records/write/persist.js';
import { nowTimestamp } from '../row-values.js';
import { add, toText, ZERO, type Decimal } from '../decimal.js';
import { flag, textParam } from '../process-record.js';
import { selectionOf } from './selection.js';

interface SelectedLine {
  c_payselectionline_id: number;
  c_bpartner_id: number;
  issotrx: string;
  paymentrule: string;
  payamt: string;
  discountamt: string;
  writeoffamt: string;
}

interface Check {
  partner: number;
  rule: string;
  receipt: boolean;
  lines: number[];
  pay: Decimal;
  discount: Decimal;
  writeOff: Decimal;
}

const DIRECT_DEBIT = 'D';

/**
 * Prepare Payment (the original's PaySelectionCreateCheck): groups the selection's active lines
 * into prepared payments (C_PaySelectionCheck), one per business partner, or one per invoice with
 * IsOnePaymentPerInvoice; a PaymentRule parameter overrides the lines' rule except Direct Debit.
 * The lines and the selection are processed then; the payments themselves come from Payment
 * Print/Export.
 */
export async function paySelectionCreateCheck(c: ProcessCall): Promise<ProcessOutcome> {
  const { wc, selection, id } = await selectionOf(c);
  if (selection.processed === 'Y') throw badRequest('Invalid parameter', 'The payment selection is processed: its payments are prepared');
  const onePerInvoice = flag(c, 'IsOnePaymentPerInvoice', selection.isonepaymentperinvoice === 'Y');
  const ruleParam = textParam(c, 'PaymentRule');
  const { rows } = await c.tx.query<SelectedLine>(
    `SELECT l.c_payselectionline_id, i.c_bpartner_id, l.issotrx, l.paymentrule, l.payamt::text AS payamt, l.discountamt::text AS discountamt, l.writeoffamt::text AS writeoffamt
       FROM c_payselectionline l JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id
      WHERE l.c_payselection_id = $1 AND l.isactive = 'Y' AND l.processed = 'N'
      ORDER BY l.line, l.c_payselectionline_id`,
    [id],
  );
  if (!rows.length) throw badRequest('Invalid parameter', 'The payment selection has no lines to pay');
  const checks: Check[] = [];
  for (const l of rows) {
    const rule = ruleParam && l.paymentrule !== DIRECT_DEBIT ? ruleParam : l.paymentrule;
    let check = onePerInvoice ? undefined : checks.find((k) => k.partner === Number(l.c_bpartner_id));
    if (!check) {
      check = { partner: Number(l.c_bpartner_id), rule, receipt: l.issotrx === 'Y', lines: [], pay: ZERO, discount: ZERO, writeOff: ZERO };
      checks.push(check);
    }
    check.lines.push(Number(l.c_payselectionline_id));
    check.pay = add(check.pay, l.payamt);
    check.discount = add(check.discount, l.discountamt);
    check.writeOff = add(check.writeOff, l.writeoffamt);
  }
  const table = c.s.dictionary.current.byName.get('c_payselectioncheck')!;
  for (const k of checks) {
    const created = await insertRecord(wc, table, {
      C_PaySelection_ID: id,
      AD_Org_ID: Number(selection.ad_org_id),
      C_BPartner_ID: k.partner,
      PaymentRule: k.rule,
      IsReceipt: k.receipt,
      PayAmt: toText(k.pay),
      DiscountAmt: toText(k.discount),
      WriteOffAmt: toText(k.writeOff),
      Qty: k.lines.length,
    });
    await wc.deferred.flush();
    await c.tx.query(`UPDATE c_payselectionline SET c_payselectioncheck_id = $1, processed = 'Y', updated = $3::timestamp, updatedby = $4 WHERE c_payselectionline_id = ANY($2::bigint[])`, [
      created.row.c_payselectioncheck_id,
      k.lines,
      nowTimestamp(),
      c.auth.userId,
    ]);
  }
  await c.tx.query(`UPDATE c_payselection SET processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_payselection_id = $1`, [id, nowTimestamp(), c.auth.userId]);
  return { summary: `Payments prepared: #${checks.length}` };
}
