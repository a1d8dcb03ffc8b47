import type { Queryable } from '../../db/types.js';

/**
 * What is allocated to an invoice: allocation lines of allocations that were completed (a voided
 * or reversed allocation and its reversal cancel each other out), amount plus discount plus
 * write-off, in the invoice's own sense.
 */
const ALLOCATED = (invoice: string) => `COALESCE((SELECT sum(al.amount + al.discountamt + al.writeoffamt)
    FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id AND ah.docstatus IN ('CO', 'CL', 'RE', 'VO')
   WHERE al.c_invoice_id = ${invoice}), 0)`;

/** Open amount of an invoice: its grand total less what is allocated to it (0 for a reversed or voided one). */
export const OPEN_AMOUNT_SQL = (alias: string): string =>
  `CASE WHEN ${alias}.docstatus IN ('RE', 'VO') THEN 0 ELSE ${alias}.grandtotal - ${ALLOCATED(`${alias}.c_invoice_id`)} END`;

/** IsPaid of invoices follows their open amount. */
export async function refreshPaid(q: Queryable, invoiceIds: number[]): Promise<void> {
  if (!invoiceIds.length) return;
  await q.query(
    `UPDATE c_invoice i SET ispaid = CASE WHEN (${OPEN_AMOUNT_SQL('i')}) = 0 THEN 'Y' ELSE 'N' END
      WHERE i.c_invoice_id = ANY($1::bigint[]) AND i.ispaid IS DISTINCT FROM (CASE WHEN (${OPEN_AMOUNT_SQL('i')}) = 0 THEN 'Y' ELSE 'N' END)`,
    [invoiceIds],
    { name: 'doc_invoice_paid' },
  );
}

/** IsAllocated of payments: the amount allocated from them reaches their amount. */
export async function refreshAllocated(q: Queryable, paymentIds: number[]): Promise<void> {
  if (!paymentIds.length) return;
  await q.query(
    `UPDATE c_payment p SET isallocated = CASE WHEN p.docstatus IN ('RE', 'VO') OR p.payamt = COALESCE((SELECT sum(al.amount)
         FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id AND ah.docstatus IN ('CO', 'CL', 'RE', 'VO')
        WHERE al.c_payment_id = p.c_payment_id), 0) THEN 'Y' ELSE 'N' END
      WHERE p.c_payment_id = ANY($1::bigint[])`,
    [paymentIds],
    { name: 'doc_payment_allocated' },
  );
}

/** Open amount of one invoice. */
export async function openAmount(q: Queryable, invoiceId: number): Promise<number> {
  const { rows } = await q.query<{ open: string }>(`SELECT (${OPEN_AMOUNT_SQL('i')})::text AS open FROM c_invoice i WHERE i.c_invoice_id = $1`, [invoiceId], { name: 'doc_invoice_open' });
  return Number(rows[0]?.open ?? 0);
}
