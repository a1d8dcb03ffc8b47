import { insertRecord } from '../../records/write/persist.js';
import { add, compare, sub, toText, type DecimalInput } from '../decimal.js';
import { idOf, todayDate } from '../row-values.js';
import { postFacts, postReversingFacts } from '../accounting/facts.js';
import { chargeAccountOf } from '../accounting/charge-account.js';
import { current, definiteNumberAndDate, zeroAmounts, docId, docTypeOf, requireOpenPeriod, accrualOnVoid } from './common.js';
import { refuse, type DocumentContext, type DocumentType } from './document-type.js';
import { runDocumentAction } from './engine.js';
import { createReversal } from './reversal.js';
import { refreshAllocated, refreshPaid } from './settlement.js';
import { releasePrepaidOrder } from '../order-subtypes/prepayment.js';

const dayOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v ?? '')).slice(0, 10);

/**
 * A payment completed against an invoice allocates itself to it, as the original's payment does:
 * a Payment Allocation of one line, completed at once, in the payment's currency and the
 * original's signs (a payment's amounts negated). An overpayment (a negative OverUnderAmt) stays
 * unallocated; the allocation is dated like the payment, or like the invoice when that is later.
 */
async function allocateToInvoice(d: DocumentContext, invoiceId: number): Promise<void> {
  const table = d.wc.dict.byName.get('c_allocationhdr')!;
  const amount = (column: string) => toText((d.row[column] ?? 0) as DecimalInput);
  let allocated = amount('payamt');
  if (compare(amount('overunderamt'), 0) < 0 && compare(allocated, 0) > 0) allocated = toText(add(allocated, amount('overunderamt')));
  const signed = (v: string) => (d.row.isreceipt === 'Y' ? v : toText(sub(0, v)));
  const { rows } = await d.wc.tx.query<{ dateacct: unknown }>('SELECT dateacct FROM c_invoice WHERE c_invoice_id = $1', [invoiceId]);
  const paymentDate = current(d, 'dateacct');
  const invoiceDate = rows[0]?.dateacct;
  const later = invoiceDate !== undefined && invoiceDate !== null && dayOf(invoiceDate) > dayOf(paymentDate);
  const created = await insertRecord(d.wc, table, {
    AD_Org_ID: d.row.ad_org_id,
    C_Currency_ID: d.row.c_currency_id,
    DateTrx: current(d, 'datetrx'),
    DateAcct: later ? invoiceDate : paymentDate,
    Description: `Payment ${String(current(d, 'documentno'))}`,
    C_AllocationLine: [
      { AD_Org_ID: d.row.ad_org_id, C_Invoice_ID: invoiceId, C_Payment_ID: docId(d), C_BPartner_ID: d.row.c_bpartner_id, Amount: signed(allocated),
        DiscountAmt: signed(amount('discountamt')), WriteOffAmt: signed(amount('writeoffamt')), OverUnderAmt: signed(amount('overunderamt')) },
    ],
  });
  await d.wc.deferred.flush();
  await runDocumentAction(d.wc, table, String(created.row.c_allocationhdr_id), 'CO');
  await d.wc.tx.query('UPDATE c_invoice SET c_payment_id = $2 WHERE c_invoice_id = $1', [invoiceId, docId(d)]);
}

/** Completed allocations of a payment are reversed with it (by accrual with an accrual), re-opening the invoices. */
async function deallocate(d: DocumentContext, accrual: boolean): Promise<void> {
  const { rows } = await d.wc.tx.query<{ id: number }>(
    `SELECT DISTINCT h.c_allocationhdr_id AS id FROM c_allocationhdr h JOIN c_allocationline l ON l.c_allocationhdr_id = h.c_allocationhdr_id
      WHERE l.c_payment_id = $1 AND h.docstatus IN ('CO', 'CL') ORDER BY 1`,
    [docId(d)],
  );
  for (const r of rows) await runDocumentAction(d.wc, 'c_allocationhdr', String(r.id), accrual ? 'RA' : 'RC');
}

async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, dateacct: date } });
  await deallocate(d, accrual);
  const reversalId = await createReversal(d, [], ['payamt', 'discountamt', 'writeoffamt', 'overunderamt', 'taxamt'], date);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await d.wc.tx.query(`UPDATE c_payment SET posted = 'Y', isvoided = 'Y' WHERE c_payment_id = $1`, [reversalId]);
  d.changes.isallocated = 'Y';
  d.changes.isvoided = 'Y';
  const invoice = idOf(d.row.c_invoice_id);
  if (invoice !== null) {
    // The invoice no longer names a reversed payment (the original's deAllocate unlinks it).
    await d.wc.tx.query('UPDATE c_invoice SET c_payment_id = NULL WHERE c_invoice_id = $1 AND c_payment_id = $2', [invoice, docId(d)]);
    await refreshPaid(d.wc.tx, [invoice]);
  }
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}

/**
 * Receipts from customers and payments to vendors: complete posts the bank in transit against
 * unallocated cash (receipts) or payment selection against the bank in transit (payments), or
 * against the charge's account for a charge payment, and allocates the payment to the invoice it
 * names; a completed one is voided or reversed by a reversal payment, after its allocations are
 * reversed.
 */
export const paymentDocument: DocumentType = {
  table: 'c_payment',
  details: [],

  async prepare(d) {
    await requireOpenPeriod(d);
    if (Number(d.row.payamt ?? 0) === 0) throw refuse('the payment has no amount');
    if (idOf(d.row.c_bankaccount_id) === null) throw refuse('the payment has no bank account');
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datetrx');
    const periodId = await requireOpenPeriod(d);
    const receipt = d.row.isreceipt === 'Y';
    const amount = d.row.payamt as string;
    const dt = await docTypeOf(d);
    // A charge payment (bank fees, commissions) settles nothing: it posts to its charge's account
    // in place of unallocated cash or payment selection, and is allocated at once, as the original's.
    const chargeId = idOf(d.row.c_charge_id);
    const charge = chargeId === null ? null : await chargeAccountOf(d, chargeId);
    if (chargeId !== null && charge === null) throw refuse(`charge ${chargeId} has no account (C_Charge_Acct) in the accounting schema`);
    await postFacts(d, {
      dateAcct: current(d, 'dateacct'),
      dateTrx: current(d, 'datetrx'),
      periodId,
      currencyId: Number(d.row.c_currency_id),
      bpartnerId: Number(d.row.c_bpartner_id),
      glCategoryId: dt?.gl_category_id ?? null,
      facts: receipt
        ? [
            { account: 'b_intransit_acct', dr: amount },
            { account: charge ?? 'b_unallocatedcash_acct', cr: amount },
          ]
        : [
            { account: charge ?? 'b_paymentselect_acct', dr: amount },
            { account: 'b_intransit_acct', cr: amount },
          ],
    });
    if (chargeId !== null) {
      d.changes.isallocated = 'Y';
      return 'CO';
    }
    const prepaid = await releasePrepaidOrder(d);
    if (prepaid !== null) d.changes.c_invoice_id = prepaid;
    const invoice = prepaid ?? idOf(d.row.c_invoice_id);
    if (invoice !== null) {
      // The allocation is written before this payment's status: the header goes first.
      await d.wc.tx.query(`UPDATE c_payment SET documentno = $2, posted = 'Y' WHERE c_payment_id = $1`, [docId(d), current(d, 'documentno')]);
      await allocateToInvoice(d, invoice);
    }
    await refreshAllocated(d.wc.tx, [docId(d)]);
    d.changes.isallocated = (await d.wc.tx.query<{ a: string }>('SELECT isallocated AS a FROM c_payment WHERE c_payment_id = $1', [docId(d)])).rows[0]?.a ?? 'N';
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO' || d.row.docstatus === 'CL') return reverse(d, await accrualOnVoid(d));
    await zeroAmounts(d, 'c_payment', 'c_payment_id', ['payamt', 'discountamt', 'writeoffamt', 'overunderamt']);
    d.changes.isvoided = 'Y';
  },

  async close() {},

  // The original re-activates a payment by reversing it (reverse-correct); the payment itself is then In Progress again.
  async reactivate(d) {
    await reverse(d, false);
    d.changes.isvoided = 'N';
    d.changes.isallocated = 'N';
    d.changes.posted = 'N';
  },

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
