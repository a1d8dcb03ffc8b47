import { add, compare, div, mul, sub, toText, ZERO, type Decimal, type DecimalInput } from '../decimal.js';

/** One row of a payment term's schedule (C_PaySchedule). */
export interface ScheduleRow {
  id: number;
  percentage: DecimalInput;
  discount: DecimalInput;
  netDays: number;
  discountDays: number;
}

/** One installment of an invoice (C_InvoicePaySchedule) before it is written. */
export interface Installment {
  scheduleId: number;
  dueAmt: string;
  discountAmt: string;
  /** Days after the invoice date. */
  netDays: number;
  discountDays: number;
}

const HUNDRED = 100;

/**
 * The installments of an invoice's grand total by its term's schedule, as the original's
 * MInvoicePaySchedule: each its percentage of the total, its discount a percentage of that, both
 * rounded half up to the currency's precision; the last installment takes what rounding left over.
 */
export function splitInstallments(grandTotal: DecimalInput, precision: number, schedule: readonly ScheduleRow[]): Installment[] {
  const out: Installment[] = [];
  let rest: Decimal = sub(grandTotal, ZERO);
  for (const s of schedule) {
    const due = div(mul(grandTotal, s.percentage), HUNDRED, precision);
    const discount = div(mul(due, s.discount), HUNDRED, precision);
    rest = sub(rest, due);
    out.push({ scheduleId: s.id, dueAmt: toText(due), discountAmt: toText(discount), netDays: s.netDays, discountDays: s.discountDays });
  }
  const last = out[out.length - 1];
  if (last && compare(rest, 0) !== 0) last.dueAmt = toText(add(last.dueAmt, rest));
  return out;
}

/** Whether a schedule's percentages add up to 100 (the original's MPaymentTerm.validate). */
export function isValidSchedule(percentages: readonly DecimalInput[]): boolean {
  let total: Decimal = ZERO;
  for (const p of percentages) total = add(total, p ?? 0);
  return compare(total, HUNDRED) === 0;
}
