import type { ModelEvent, ModelEvents, Row } from '../../events/model-events.js';
import { createWriteContext, type WriteContext } from '../../records/write/write-context.js';
import { nowTimestamp } from '../row-values.js';
import { isValidSchedule, splitInstallments, type ScheduleRow } from './installments.js';

/** Payment rules a term's schedule applies to (the original's On Credit and Direct Debit). */
const SCHEDULED_RULES = new Set(['P', 'D']);

/**
 * Writes the installments of a completed invoice from its payment term's schedule, as the
 * original's MPaymentTerm.apply: the invoice's former installments go; a term without a valid
 * schedule, a payment rule other than On Credit or Direct Debit, or a zero total leave none, and
 * the invoice's IsPayScheduleValid says whether its installments add up to its grand total.
 */
export async function applyPaymentTerm(wc: WriteContext, invoice: Row): Promise<void> {
  const invoiceId = Number(invoice.c_invoice_id);
  // One statement in the common case (a term without schedule and no installments yet).
  const { rows } = await wc.tx.query<{ had: boolean; termvalid: string | null; precision: number | null; schedule: unknown }>(
    `SELECT EXISTS (SELECT 1 FROM c_invoicepayschedule x WHERE x.c_invoice_id = i.c_invoice_id) AS had, pt.isvalid AS termvalid,
            (SELECT c.stdprecision FROM c_currency c WHERE c.c_currency_id = i.c_currency_id) AS precision,
            (SELECT json_agg(json_build_object('id', s.c_payschedule_id, 'percentage', s.percentage::text, 'discount', s.discount::text, 'netDays', s.netdays,
                     'discountDays', s.discountdays) ORDER BY s.netdays, s.c_payschedule_id)
               FROM c_payschedule s WHERE s.c_paymentterm_id = pt.c_paymentterm_id AND s.isactive = 'Y') AS schedule
       FROM c_invoice i LEFT JOIN c_paymentterm pt ON pt.c_paymentterm_id = i.c_paymentterm_id WHERE i.c_invoice_id = $1`,
    [invoiceId],
    { name: 'doc_invoice_payschedule' },
  );
  const r = rows[0];
  const raw = r?.schedule ?? null;
  const schedule = ((typeof raw === 'string' ? JSON.parse(raw) : raw) ?? []) as ScheduleRow[];
  if (r?.had) await wc.tx.query('DELETE FROM c_invoicepayschedule WHERE c_invoice_id = $1', [invoiceId]);
  const applies = schedule.length > 0 && r?.termvalid === 'Y' && SCHEDULED_RULES.has(String(invoice.paymentrule)) && Number(invoice.grandtotal) !== 0;
  if (!applies) {
    if (invoice.ispayschedulevalid !== 'N') await wc.tx.query(`UPDATE c_invoice SET ispayschedulevalid = 'N' WHERE c_invoice_id = $1`, [invoiceId]);
    return;
  }
  const now = nowTimestamp();
  for (const inst of splitInstallments(invoice.grandtotal as string, Number(r?.precision ?? 2), schedule)) {
    const id = await wc.ids.next(wc.tx, 'C_InvoicePaySchedule');
    await wc.tx.query(
      `INSERT INTO c_invoicepayschedule (c_invoicepayschedule_id, c_invoicepayschedule_uu, ad_client_id, ad_org_id, c_invoice_id, c_payschedule_id,
              dueamt, discountamt, duedate, discountdate, isvalid, processed, isactive, created, createdby, updated, updatedby)
       SELECT $1, gen_random_uuid()::text, i.ad_client_id, i.ad_org_id, i.c_invoice_id, $2, $3, $4, i.dateinvoiced::date + $5::int, i.dateinvoiced::date + $6::int,
              'Y', 'Y', 'Y', $7::timestamp, $8, $7::timestamp, $8
         FROM c_invoice i WHERE i.c_invoice_id = $9`,
      [id, inst.scheduleId, inst.dueAmt, inst.discountAmt, inst.netDays, inst.discountDays, now, wc.auth.userId, invoiceId],
    );
  }
  // The installments were split from the grand total: they add up to it.
  await wc.tx.query(`UPDATE c_invoice SET ispayschedulevalid = 'Y' WHERE c_invoice_id = $1`, [invoiceId]);
}

/** IsValid of a payment term and its schedule rows follows whether the percentages add up to 100 (the original's validate). */
async function validateTerm(e: ModelEvent): Promise<void> {
  const termId = Number(e.row.c_paymentterm_id ?? e.old?.c_paymentterm_id);
  const { rows } = await e.tx.query<{ percentage: string }>(`SELECT percentage FROM c_payschedule WHERE c_paymentterm_id = $1 AND isactive = 'Y'`, [termId]);
  // A term without a schedule is valid: its due date is its net days.
  const valid = rows.length === 0 || isValidSchedule(rows.map((r) => r.percentage));
  const flag = valid ? 'Y' : 'N';
  await e.tx.query(`UPDATE c_paymentterm SET isvalid = $2 WHERE c_paymentterm_id = $1 AND isvalid IS DISTINCT FROM $2`, [termId, flag]);
  await e.tx.query(`UPDATE c_payschedule SET isvalid = $2 WHERE c_paymentterm_id = $1 AND isvalid IS DISTINCT FROM $2`, [termId, flag]);
}

/** Payment schedules: a term's schedule keeps the term's validity; a completed invoice gets its installments. */
export function registerPaymentSchedules(events: ModelEvents): void {
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, 'c_payschedule', validateTerm);
  events.on('after-complete', 'c_invoice', (e: ModelEvent) => applyPaymentTerm(createWriteContext(e.dict, e.auth, e.tx, events), e.row));
}
