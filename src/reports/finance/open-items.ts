import { OPEN_AMOUNT_SQL } from '../../documents/engine/settlement.js';

/**
 * The due date of an invoice by its payment term, as the original's paymentTermDueDate: the
 * invoice date plus the term's net days (the invoice date when it has no term).
 */
export const DUE_DATE_SQL = (i: string): string =>
  `(${i}.dateinvoiced::date + COALESCE((SELECT pt.netdays::int FROM c_paymentterm pt WHERE pt.c_paymentterm_id = ${i}.c_paymentterm_id), 0))`;

/** -1 for credit memos (AR and AP), whose open amount lowers what the partner owes or is owed. */
export const CREDIT_MEMO_SIGN_SQL = (i: string): string =>
  `(CASE WHEN (SELECT dt.docbasetype FROM c_doctype dt WHERE dt.c_doctype_id = COALESCE(${i}.c_doctype_id, ${i}.c_doctypetarget_id)) IN ('ARC', 'APC') THEN -1 ELSE 1 END)`;

/** The signed open amount of an invoice: what is left to settle, negative for credit memos. */
export const SIGNED_OPEN_AMOUNT_SQL = (i: string): string => `(${CREDIT_MEMO_SIGN_SQL(i)} * (${OPEN_AMOUNT_SQL(i)}))`;

/** Invoices that count as open items: completed or closed, never drafts, voided or reversed ones. */
export const OPEN_ITEM_STATUS_SQL = (i: string): string => `${i}.docstatus IN ('CO', 'CL')`;

/** The aging buckets of the original's T_Aging, by days past the due date. */
export const AGING_BUCKETS = [
  { name: 'Current', label: 'Current', test: (d: string) => `${d} <= 0` },
  { name: 'Due1_30', label: '1-30', test: (d: string) => `${d} BETWEEN 1 AND 30` },
  { name: 'Due31_60', label: '31-60', test: (d: string) => `${d} BETWEEN 31 AND 60` },
  { name: 'Due61_90', label: '61-90', test: (d: string) => `${d} BETWEEN 61 AND 90` },
  { name: 'Due91_Plus', label: '91+', test: (d: string) => `${d} > 90` },
] as const;
