import { add } from '../decimal.js';
import { todayDate } from '../row-values.js';
import { postFacts, postReversingFacts, type Fact } from '../accounting/facts.js';
import { current, definiteNumberAndDate, zeroAmounts, docId, docTypeOf, requireLines, requireOpenPeriod, accrualOnVoid, noReactivation } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { createReversal } from './reversal.js';
import { refreshAllocated, refreshPaid } from './settlement.js';

interface AllocationLine {
  id: number;
  invoice: number | null;
  payment: number | null;
  amount: string;
  discount: string;
  writeoff: string;
  invoice_status: string | null;
  payment_status: string | null;
  sales: boolean | null;
}

const LINES_SQL = `SELECT al.c_allocationline_id AS id, al.c_invoice_id AS invoice, al.c_payment_id AS payment, al.amount::text AS amount,
    COALESCE(al.discountamt, 0)::text AS discount, COALESCE(al.writeoffamt, 0)::text AS writeoff,
    i.docstatus AS invoice_status, p.docstatus AS payment_status,
    CASE WHEN i.c_invoice_id IS NULL THEN p.isreceipt = 'Y' ELSE i.issotrx = 'Y' END AS sales
  FROM c_allocationline al
  LEFT JOIN c_invoice i ON i.c_invoice_id = al.c_invoice_id
  LEFT JOIN c_payment p ON p.c_payment_id = al.c_payment_id
 WHERE al.c_allocationhdr_id = $1 ORDER BY al.c_allocationline_id`;

/**
 * Facts of one line. With a payment: customer: unallocated cash, payment discount expense and
 * write-off against the receivable they settle; vendor: the liability against payment selection,
 * payment discount revenue and write-off. An invoice without a payment (set off against a credit
 * memo) posts only its discount and write-off; its amount nets out with the other invoice.
 */
export function lineFacts(l: Pick<AllocationLine, 'id' | 'invoice' | 'payment' | 'amount' | 'discount' | 'writeoff' | 'sales'>): Fact[] {
  if (l.invoice === null) return [];
  const paid = l.payment === null ? '0' : l.amount;
  const settled = add(add(paid, l.discount), l.writeoff);
  const lineId = l.id;
  if (l.sales) {
    return [
      { account: 'b_unallocatedcash_acct', dr: paid, lineId },
      { account: 'paydiscount_exp_acct', dr: l.discount, lineId },
      { account: 'writeoff_acct', dr: l.writeoff, lineId },
      { account: 'c_receivable_acct', cr: settled, lineId },
    ];
  }
  return [
    { account: 'v_liability_acct', dr: settled, lineId },
    { account: 'b_paymentselect_acct', cr: paid, lineId },
    { account: 'paydiscount_rev_acct', cr: l.discount, lineId },
    { account: 'writeoff_acct', cr: l.writeoff, lineId },
  ];
}

async function linesOf(d: DocumentContext, id = docId(d)): Promise<AllocationLine[]> {
  return (await d.wc.tx.query<AllocationLine>(LINES_SQL, [id], { name: 'doc_allocation_lines' })).rows;
}

/** Invoices and payments of allocation lines: their IsPaid and IsAllocated follow. */
async function refresh(d: DocumentContext, lines: AllocationLine[]): Promise<void> {
  const ids = (k: 'invoice' | 'payment') => [...new Set(lines.map((l) => l[k]).filter((x): x is number => x !== null).map(Number))];
  await refreshPaid(d.wc.tx, ids('invoice'));
  await refreshAllocated(d.wc.tx, ids('payment'));
}

async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, dateacct: date } });
  const reversalId = await createReversal(d, [{ table: 'c_allocationline', link: 'c_allocationhdr_id', negate: ['amount', 'discountamt', 'writeoffamt', 'overunderamt'] }], [], date);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await d.wc.tx.query(`UPDATE c_allocationhdr SET posted = 'Y' WHERE c_allocationhdr_id = $1`, [reversalId]);
  // The invoices and payments are open again once this allocation no longer counts as completed.
  d.changes.docstatus = 'RE';
  await d.wc.tx.query(`UPDATE c_allocationhdr SET docstatus = 'RE' WHERE c_allocationhdr_id = $1`, [docId(d)]);
  await refresh(d, await linesOf(d));
}

/**
 * Allocations (C_AllocationHdr / C_AllocationLine) settle invoices with payments (or invoices
 * with credit memos): complete posts unallocated cash against receivables (customers) or
 * liabilities against payment selection (vendors) for each line that pairs a payment with an
 * invoice, and the invoices' IsPaid and payments' IsAllocated follow; a reversal re-opens them.
 * Discounts and write-offs settle the invoice too and post to their own accounts; an over/under
 * payment is what stays unallocated and posts nothing.
 */
export const allocationDocument: DocumentType = {
  table: 'c_allocationhdr',
  refusal: noReactivation,
  details: [{ table: 'c_allocationline', link: 'c_allocationhdr_id' }],

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'c_allocationline');
    for (const l of await linesOf(d)) {
      if (l.invoice === null && l.payment === null) throw refuse('an allocation line names neither an invoice nor a payment');
      if (l.invoice !== null && !['CO', 'CL'].includes(String(l.invoice_status))) throw refuse(`invoice ${l.invoice} is not completed`);
      if (l.payment !== null && !['CO', 'CL', 'IP'].includes(String(l.payment_status))) throw refuse(`payment ${l.payment} is not completed`);
    }
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datetrx');
    const periodId = await requireOpenPeriod(d);
    const lines = await linesOf(d);
    const facts = lines.flatMap(lineFacts);
    const dt = await docTypeOf(d);
    await postFacts(d, { dateAcct: current(d, 'dateacct'), dateTrx: current(d, 'datetrx'), periodId, currencyId: Number(d.row.c_currency_id), glCategoryId: dt?.gl_category_id ?? null, facts });
    // Counted as completed from here on, so that the open amounts see it.
    await d.wc.tx.query(`UPDATE c_allocationhdr SET docstatus = 'CO' WHERE c_allocationhdr_id = $1`, [docId(d)]);
    await refresh(d, lines);
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO' || d.row.docstatus === 'CL') return reverse(d, await accrualOnVoid(d));
    await zeroAmounts(d, 'c_allocationline', 'c_allocationhdr_id', ['amount', 'discountamt', 'writeoffamt', 'overunderamt']);
  },

  async close() {},

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
