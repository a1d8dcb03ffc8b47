import type { Queryable } from '../../db/types.js';
import { convertedSql } from '../accounting/conversion.js';

/**
 * Allocation lines count when their allocation was completed: a voided or reversed allocation and
 * its reversal, whose lines are negated, cancel each other out.
 */
const COUNTED = `ah.docstatus IN ('CO', 'CL', 'RE', 'VO')`;

/**
 * The sense of an invoice in allocation lines, as the original's: +1 when a settling line is
 * positive (customer invoices, vendor credit memos), -1 when it is negative (customer credit
 * memos, vendor invoices).
 */
export const INVOICE_SENSE_SQL = (i: string): string =>
  `(CASE WHEN (${i}.issotrx = 'Y') = ((SELECT dt.docbasetype FROM c_doctype dt WHERE dt.c_doctype_id = COALESCE(${i}.c_doctype_id, ${i}.c_doctypetarget_id)) IN ('ARC', 'APC')) THEN -1 ELSE 1 END)`;

/** The sense of a payment in allocation lines: +1 for receipts, -1 for payments. */
export const PAYMENT_SENSE_SQL = (p: string): string => `(CASE WHEN ${p}.isreceipt = 'Y' THEN 1 ELSE -1 END)`;

/**
 * What allocation lines settle of an invoice, in the invoice's currency: Amount + DiscountAmt +
 * WriteOffAmt of each line, converted from the allocation's currency at its transaction date and
 * the invoice's conversion type (the original's getAllocatedAmt), in the lines' sign.
 */
const ALLOCATED_TO_INVOICE = (i: string) => `COALESCE((SELECT sum(${convertedSql(
  'al.amount + COALESCE(al.discountamt, 0) + COALESCE(al.writeoffamt, 0)',
  'ah.c_currency_id',
  `${i}.c_currency_id`,
  `${i}.c_conversiontype_id`,
  'ah.datetrx',
  `${i}.ad_client_id`,
)})
    FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id AND ${COUNTED}
   WHERE al.c_invoice_id = ${i}.c_invoice_id), 0)`;

/** What allocation lines take of a payment, in the payment's currency and the lines' sign. */
const ALLOCATED_FROM_PAYMENT = (p: string) => `COALESCE((SELECT sum(${convertedSql('al.amount', 'ah.c_currency_id', `${p}.c_currency_id`, `${p}.c_conversiontype_id`, 'ah.datetrx', `${p}.ad_client_id`)})
    FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id AND ${COUNTED}
   WHERE al.c_payment_id = ${p}.c_payment_id), 0)`;

/**
 * Open amount of an invoice or credit memo, positive while something is left to settle: its grand
 * total less what its allocations settle in its own sense (the original's invoiceOpen with the
 * credit memo adjusted); 0 for a reversed or voided one.
 */
export const OPEN_AMOUNT_SQL = (alias: string): string =>
  `CASE WHEN ${alias}.docstatus IN ('RE', 'VO') THEN 0 ELSE ${alias}.grandtotal - ${INVOICE_SENSE_SQL(alias)} * ${ALLOCATED_TO_INVOICE(alias)} END`;

/** Unallocated amount of a payment: its amount less what allocations take in its own sense; 0 for a reversed or voided one. */
export const UNALLOCATED_SQL = (alias: string): string =>
  `CASE WHEN ${alias}.docstatus IN ('RE', 'VO') THEN 0 ELSE ${alias}.payamt - ${PAYMENT_SENSE_SQL(alias)} * ${ALLOCATED_FROM_PAYMENT(alias)} END`;

/** IsPaid of invoices follows their open amount. */
export async function refreshPaid(q: Queryable, invoiceIds: number[]): Promise<void> {
  if (!invoiceIds.length) return;
  await q.query(
    `UPDATE c_invoice i SET ispaid = x.paid FROM (SELECT i2.c_invoice_id, CASE WHEN (${OPEN_AMOUNT_SQL('i2')}) = 0 THEN 'Y' ELSE 'N' END AS paid
        FROM c_invoice i2 WHERE i2.c_invoice_id = ANY($1::bigint[])) x
      WHERE i.c_invoice_id = x.c_invoice_id AND i.ispaid IS DISTINCT FROM x.paid`,
    [invoiceIds],
    { name: 'doc_invoice_paid' },
  );
}

/** IsAllocated of payments: nothing of their amount is left unallocated. */
export async function refreshAllocated(q: Queryable, paymentIds: number[]): Promise<void> {
  if (!paymentIds.length) return;
  await q.query(
    `UPDATE c_payment p SET isallocated = x.allocated FROM (SELECT p2.c_payment_id, CASE WHEN (${UNALLOCATED_SQL('p2')}) = 0 THEN 'Y' ELSE 'N' END AS allocated
        FROM c_payment p2 WHERE p2.c_payment_id = ANY($1::bigint[])) x
      WHERE p.c_payment_id = x.c_payment_id AND p.isallocated IS DISTINCT FROM x.allocated`,
    [paymentIds],
    { name: 'doc_payment_allocated' },
  );
}

/** Open amount of one invoice. */
export async function openAmount(q: Queryable, invoiceId: number): Promise<number> {
  const { rows } = await q.query<{ open: string }>(`SELECT (${OPEN_AMOUNT_SQL('i')})::text AS open FROM c_invoice i WHERE i.c_invoice_id = $1`, [invoiceId], { name: 'doc_invoice_open' });
  return Number(rows[0]?.open ?? 0);
}
