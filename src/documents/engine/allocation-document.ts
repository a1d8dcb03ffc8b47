import { add, compare, toText, ZERO, type Decimal } from '../decimal.js';
import { todayDate } from '../row-values.js';
import { postFacts, postReversingFacts } from '../accounting/facts.js';
import { allocationFacts } from '../accounting/allocation-facts.js';
import { current, definiteNumberAndDate, zeroAmounts, docId, docTypeOf, requireLines, requireOpenPeriod, accrualOnVoid, noReactivation } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { createReversal } from './reversal.js';
import { refreshAllocated, refreshPaid } from './settlement.js';
import { isReversalPair, settlementLines, type SettlementLine } from './allocation-lines.js';

const day = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v ?? '')).slice(0, 10);

/** Invoices and payments of allocation lines (read, when not given): their IsPaid and IsAllocated follow. */
async function refresh(d: DocumentContext, lines?: readonly SettlementLine[]): Promise<void> {
  let invoices: number[];
  let payments: number[];
  if (lines) {
    invoices = [...new Set(lines.flatMap((l) => (l.invoice ? [Number(l.invoice.id)] : [])))];
    payments = [...new Set(lines.flatMap((l) => (l.payment ? [Number(l.payment.id)] : [])))];
  } else {
    const { rows } = await d.wc.tx.query<{ invoices: number[] | null; payments: number[] | null }>(
      `SELECT array_agg(DISTINCT c_invoice_id) FILTER (WHERE c_invoice_id IS NOT NULL) AS invoices,
              array_agg(DISTINCT c_payment_id) FILTER (WHERE c_payment_id IS NOT NULL) AS payments
         FROM c_allocationline WHERE c_allocationhdr_id = $1`,
      [docId(d)],
      { name: 'doc_allocation_documents' },
    );
    invoices = (rows[0]?.invoices ?? []).map(Number);
    payments = (rows[0]?.payments ?? []).map(Number);
  }
  await refreshPaid(d.wc.tx, invoices);
  await refreshAllocated(d.wc.tx, payments);
}

/**
 * What the lines pay (lines naming a payment) must equal what they settle (lines naming an
 * invoice), Amount by Amount in the allocation's currency: a line pairing a payment with an
 * invoice counts on both sides, an invoice set off against a credit memo or a payment against a
 * refund nets out with the other line. Discounts and write-offs settle with accounts of their
 * own. Otherwise the facts could not balance (the original completes such an allocation and fails
 * to post it).
 */
function requireNetting(lines: readonly SettlementLine[]): void {
  let paid: Decimal = ZERO;
  let settled: Decimal = ZERO;
  for (const l of lines) {
    if (l.payment || l.cash) paid = add(paid, l.amount);
    if (l.invoice) settled = add(settled, l.amount);
  }
  if (compare(paid, settled) !== 0) {
    throw refuse(
      `the lines do not net out: the lines naming a payment pay ${toText(paid)} and the lines naming an invoice settle ${toText(settled)}; ` +
        'an invoice needs a payment, a credit memo or another invoice against it',
    );
  }
}

/** The original's checks of each line (MAllocationHdr.prepareIt) and Dictum's: documents completed, rates known. */
function requireLine(d: DocumentContext, l: SettlementLine, pair: boolean): void {
  if (!l.invoice && !l.payment) throw refuse('an allocation line names neither an invoice nor a payment');
  if (l.cash && l.cash.account === null) throw refuse(`the cash book of cash journal line ${l.cash.id} has no cash transfer account (C_CashBook_Acct)`);
  if (l.bpartnerId === null) throw refuse(`allocation line ${l.id} names no business partner`);
  const dateAcct = day(current(d, 'dateacct'));
  const date = day(current(d, 'datetrx'));
  const i = l.invoice;
  if (i) {
    if (!['CO', 'CL'].includes(i.status) && !pair) throw refuse(`invoice ${i.documentno} is not completed`);
    if (i.isPaid && !['RE', 'VO'].includes(i.status) && compare(l.amount, 0) > 0) throw refuse(`invoice ${i.documentno} is already paid`);
    if (day(i.dateAcct) > dateAcct) throw refuse(`wrong allocation date: invoice ${i.documentno} is accounted on ${day(i.dateAcct)}, after the allocation`);
    if (i.settled === null) throw refuse(`no conversion rate from ${l.allocationIso} to ${i.iso} on ${date} for invoice ${i.documentno}`);
  }
  const p = l.payment;
  if (p) {
    // In Progress: the payment that is completing allocates itself.
    if (!['CO', 'CL', 'IP'].includes(p.status)) throw refuse(`payment ${p.documentno} is not completed`);
    if (day(p.dateAcct) > dateAcct) throw refuse(`wrong allocation date: payment ${p.documentno} is accounted on ${day(p.dateAcct)}, after the allocation`);
    if (p.taken === null) throw refuse(`no conversion rate from ${l.allocationIso} to ${p.iso} on ${date} for payment ${p.documentno}`);
  }
}

/** Lines read by prepare, kept for the complete of the same action while the transaction date stays. */
const prepared = new WeakMap<DocumentContext, { date: unknown; lines: SettlementLine[] }>();

async function linesOf(d: DocumentContext): Promise<SettlementLine[]> {
  const date = current(d, 'datetrx');
  const kept = prepared.get(d);
  if (kept && String(kept.date) === String(date)) return kept.lines;
  const lines = await settlementLines(d.wc.tx, docId(d), date);
  prepared.set(d, { date, lines });
  return lines;
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
  await refresh(d);
}

/**
 * Allocations (C_AllocationHdr / C_AllocationLine) settle invoices with payments, invoices with
 * credit memos, or payments with each other, in the original's sign convention (customer
 * invoices and receipts positive, vendor invoices, customer credit memos and payments negative).
 * Prepare refuses lines that do not net out; complete posts the original's facts, with realized
 * exchange differences where currencies differ, and the invoices' IsPaid and payments'
 * IsAllocated follow. A reversal re-opens them. See accounting/allocation-facts.ts.
 */
export const allocationDocument: DocumentType = {
  table: 'c_allocationhdr',
  refusal: noReactivation,
  details: [{ table: 'c_allocationline', link: 'c_allocationhdr_id' }],

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'c_allocationline');
    const lines = await linesOf(d);
    const pair = isReversalPair(lines);
    for (const l of lines) requireLine(d, l, pair);
    requireNetting(lines);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datetrx');
    const periodId = await requireOpenPeriod(d);
    const lines = await linesOf(d);
    const dateAcct = current(d, 'dateacct');
    const facts = await allocationFacts(d, lines, dateAcct, isReversalPair(lines));
    const dt = await docTypeOf(d);
    await postFacts(d, { dateAcct, dateTrx: current(d, 'datetrx'), periodId, currencyId: Number(d.row.c_currency_id), glCategoryId: dt?.gl_category_id ?? null, facts });
    // Counted as completed from here on, so that the open amounts see it.
    await d.wc.tx.query(`UPDATE c_allocationhdr SET docstatus = 'CO' WHERE c_allocationhdr_id = $1`, [docId(d)]);
    prepared.delete(d);
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
