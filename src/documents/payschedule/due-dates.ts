import { OPEN_AMOUNT_SQL } from '../engine/settlement.js';

/**
 * The due date of a document dated `date` under payment term `term` (SQL expressions), as the
 * original's paymentTermDueDate: a fixed due date is the term's day of the month, its months
 * later, one month more after the cut-off day; otherwise the date plus the term's net days.
 */
export const TERM_DUE_DATE_SQL = (term: string, date: string): string =>
  `(SELECT CASE WHEN pt.isduefixed = 'Y'
      THEN (date_trunc('month', (${date})::date) + make_interval(days => COALESCE(pt.fixmonthday, 1)::int - 1,
             months => COALESCE(pt.fixmonthoffset, 0)::int + CASE WHEN extract(day FROM (${date})::date) - 1 > COALESCE(pt.fixmonthcutoff, 31) THEN 1 ELSE 0 END))::date
      ELSE (${date})::date + pt.netdays::int END
     FROM c_paymentterm pt WHERE pt.c_paymentterm_id = ${term})`;

/**
 * The discount of a document's amount paid on `payDate` under its term, as the original's
 * paymentTermDiscount: Discount % within DiscountDays (+ GraceDays) of the document date,
 * else Discount2 % within DiscountDays2 (+ GraceDays), else none; rounded to the currency.
 */
export const TERM_DISCOUNT_SQL = (term: string, amount: string, currency: string, date: string, payDate: string): string =>
  `COALESCE((SELECT round(${amount} * CASE WHEN (${date})::date + (pt.discountdays + pt.gracedays)::int >= (${payDate})::date THEN pt.discount
                                       WHEN (${date})::date + (pt.discountdays2 + pt.gracedays)::int >= (${payDate})::date THEN pt.discount2 ELSE 0 END / 100,
                         (SELECT c.stdprecision::int FROM c_currency c WHERE c.c_currency_id = ${currency}))
     FROM c_paymentterm pt WHERE pt.c_paymentterm_id = ${term}), 0)`;

/**
 * The installments of invoice `i` with what is open of each, as the original's C_Invoice_v: one
 * row per installment of a valid payment schedule (C_InvoicePaySchedule), else one row for the
 * whole invoice due by its term. What was paid settles the installments in the order they fall
 * due. Columns: c_invoicepayschedule_id (null for a whole invoice), duedate, dueamt,
 * discountdate, discountamt (of the whole installment; null for a whole invoice, whose discount
 * depends on the pay date: see TERM_DISCOUNT_SQL), openamt.
 */
export const INSTALLMENTS_SQL = (i: string): string => `(
  SELECT s.c_invoicepayschedule_id, s.duedate, s.dueamt, s.discountdate, s.discountamt,
         GREATEST(0, LEAST(s.dueamt, sum(s.dueamt) OVER (ORDER BY s.duedate, s.c_invoicepayschedule_id) - (${i}.grandtotal - (${OPEN_AMOUNT_SQL(i)})))) AS openamt
    FROM c_invoicepayschedule s
   WHERE s.c_invoice_id = ${i}.c_invoice_id AND s.isactive = 'Y' AND s.isvalid = 'Y' AND ${i}.ispayschedulevalid = 'Y'
  UNION ALL
  SELECT NULL::numeric, ${TERM_DUE_DATE_SQL(`${i}.c_paymentterm_id`, `${i}.dateinvoiced`)}, ${i}.grandtotal, NULL::date, NULL::numeric, (${OPEN_AMOUNT_SQL(i)})
   WHERE ${i}.ispayschedulevalid IS DISTINCT FROM 'Y'
)`;

/** The due date of invoice `i`: of its first installment still open (else its last), or by its term. */
export const INVOICE_DUE_DATE_SQL = (i: string): string =>
  `(SELECT x.duedate FROM ${INSTALLMENTS_SQL(i)} x ORDER BY (x.openamt > 0) DESC, CASE WHEN x.openamt > 0 THEN x.duedate END, x.duedate DESC LIMIT 1)`;
