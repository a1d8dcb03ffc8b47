import type { ModelEvent } from '../../events/model-events.js';
import { compare, dec, sub, toNumber, type Decimal } from '../decimal.js';
import { DISCOUNT_SQL } from '../payselection/create-from.js';
import { OPEN_AMOUNT_SQL } from '../engine/settlement.js';
import { idOf, invalid, todayDate } from '../row-values.js';
import { INSTALLMENTS_SQL } from './due-dates.js';

/**
 * The discount an invoice's term allows when it is paid on a date, as the pay selection computes
 * it: each installment's own discount until its discount date, an invoice without schedule its
 * term's discount on the grand total within the discount days (plus grace days), nothing for an
 * installment of which something was paid; with the invoice's open amount and number.
 */
const ALLOWED_SQL = `SELECT i.documentno, (${OPEN_AMOUNT_SQL('i')})::text AS open,
    COALESCE((SELECT sum(${DISCOUNT_SQL('$2::date')}) FROM ${INSTALLMENTS_SQL('i')} x), 0)::text AS allowed
  FROM c_invoice i WHERE i.c_invoice_id = $1`;

interface Allowed {
  documentno: string;
  open: string;
  allowed: string;
}

const abs = (v: Decimal): Decimal => (v.units < 0n ? { units: -v.units, scale: v.scale } : v);

/**
 * Payment-term discounts of a payment that pays an invoice (not yet processed): a new payment, or
 * one whose invoice or date changes, without a DiscountAmt of the caller's gets the discount the
 * term allows on its DateTrx (and, when the caller gave no PayAmt, pays the open amount less it);
 * a DiscountAmt beyond what the term allows on that date is refused.
 */
export async function paymentTermDiscount(e: ModelEvent): Promise<void> {
  const row = e.row;
  const invoiceId = idOf(row.c_invoice_id);
  if (invoiceId === null || row.processed === 'Y' || !e.table.byName.has('discountamt')) return;
  const isNew = e.type === 'before-new';
  const moved = isNew || e.changed.has('c_invoice_id') || e.changed.has('datetrx');
  const given = isNew ? (e.given?.has('discountamt') ?? false) : e.changed.has('discountamt');
  if (!moved && !given) return;
  const payDate = String(row.datetrx ?? todayDate()).slice(0, 10);
  const { rows } = await e.tx.query<Allowed>(ALLOWED_SQL, [invoiceId, payDate], { name: 'doc_payment_term_discount' });
  const inv = rows[0];
  if (!inv) return;
  const allowed = dec(inv.allowed);
  if (!given) {
    row.discountamt = toNumber(allowed);
    if (isNew && !e.given?.has('payamt')) row.payamt = toNumber(sub(abs(dec(inv.open)), allowed));
    return;
  }
  const discount = abs(dec(String(row.discountamt ?? 0)));
  if (compare(discount, allowed) > 0) {
    throw invalid(
      `DiscountAmt ${toNumber(discount)} exceeds the discount the payment term of invoice ${inv.documentno} allows on ${payDate}: ${toNumber(allowed)} (column DiscountAmt)`,
    );
  }
}
