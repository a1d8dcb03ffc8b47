import { insertRecord } from '../../records/write/persist.js';
import { postFacts, postReversingFacts } from '../accounting/facts.js';
import { conversionRate } from '../accounting/conversion.js';

import { current, docId, noReactivation, requireLines } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { runDocumentAction } from '../engine/engine.js';
import { checkPeriod } from '../engine/period.js';
import { createReversal } from '../engine/reversal.js';
import { documentTypeRow } from '../document-types.js';
import { docTypeOfBase } from '../bankstatement/statement-rules.js';
import { recomputeBalance } from '../bankstatement/balance.js';
import { CASH_BALANCE, CASH_TYPE } from './cash-rules.js';
import { cashFacts, type CashLine } from './cash-posting.js';

/** Whether the period of the journal's accounting date is open for cash journals (CMC); its id. */
async function requireCashPeriod(d: DocumentContext, date: unknown = current(d, 'dateacct')): Promise<number> {
  const day = date instanceof Date ? date.toISOString() : String(date);
  const p = await d.wc.memo.get('c_periodcontrol', `period:${String(d.row.ad_client_id)}:${day}:CMC`, () => checkPeriod(d.wc.tx, d.row.ad_client_id, date, 'CMC'));
  if (!p.open) throw refuse(p.reason);
  return p.periodId;
}

const LINES_SQL = `SELECT l.c_cashline_id, l.line, l.cashtype, COALESCE(l.amount, 0) AS amount, COALESCE(l.discountamt, 0) AS discountamt,
    COALESCE(l.writeoffamt, 0) AS writeoffamt, l.c_invoice_id, l.c_bankaccount_id, l.c_charge_id, l.c_currency_id, l.description,
    i.docstatus AS invoice_status, i.c_bpartner_id AS invoice_bpartner, i.c_conversiontype_id AS conversion_type
  FROM c_cashline l LEFT JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id
 WHERE l.c_cash_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_cashline_id`;

const linesOf = async (d: DocumentContext): Promise<CashLine[]> => (await d.wc.tx.query<CashLine>(LINES_SQL, [docId(d)])).rows;

/** The cash book's currency. */
async function bookCurrency(d: DocumentContext): Promise<number> {
  const { rows } = await d.wc.tx.query<{ c: number }>('SELECT c_currency_id AS c FROM c_cashbook WHERE c_cashbook_id = $1', [d.row.c_cashbook_id]);
  if (!rows[0]) throw refuse('the cash journal has no cash book');
  return Number(rows[0].c);
}

/**
 * An invoice line settles its invoice by a completed allocation of the line's amount, discount
 * and write-off (the original's MCash.completeIt), in the line's currency and dated like the journal.
 */
async function allocateInvoice(d: DocumentContext, l: CashLine): Promise<void> {
  const table = d.wc.dict.byName.get('c_allocationhdr')!;
  const created = await insertRecord(d.wc, table, {
    AD_Org_ID: d.row.ad_org_id,
    C_Currency_ID: l.c_currency_id,
    DateTrx: current(d, 'statementdate'),
    DateAcct: current(d, 'dateacct'),
    Description: `Cash journal ${String(d.row.name ?? '')} line ${l.line}`,
    C_AllocationLine: [{ AD_Org_ID: d.row.ad_org_id, C_Invoice_ID: l.c_invoice_id, C_CashLine_ID: l.c_cashline_id, Amount: l.amount, DiscountAmt: l.discountamt, WriteOffAmt: l.writeoffamt }],
  });
  await d.wc.deferred.flush();
  await runDocumentAction(d.wc, table, String(created.row.c_allocationhdr_id), 'CO');
}

/**
 * A bank transfer line makes the payment of the bank account that takes or gives the cash: a
 * receipt of the negated amount, tender and transaction type X, closed, posted and allocated (it
 * posts nothing itself: the journal posts the bank's in-transit), as the original's MCash.
 */
async function transferPayment(d: DocumentContext, l: CashLine): Promise<void> {
  const id = await d.wc.ids.next(d.wc.tx, 'C_Payment');
  const docType = await docTypeOfBase(d.wc.tx, d.row.ad_client_id, 'ARR');
  await d.wc.tx.query(
    `INSERT INTO c_payment (c_payment_id, c_payment_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, documentno, description,
       c_doctype_id, isreceipt, c_bankaccount_id, c_bpartner_id, c_currency_id, datetrx, dateacct, payamt, discountamt, writeoffamt, overunderamt,
       tendertype, trxtype, docstatus, docaction, processed, posted, isallocated, isreconciled, isprepayment, processing)
     SELECT $1, gen_random_uuid()::text, $2, $3, 'Y', now(), $4, now(), $4, $5, $6, $7, 'Y', $8,
            (SELECT b.c_bpartner_id FROM c_bpartner b WHERE b.ad_orgbp_id = $3 ORDER BY b.c_bpartner_id LIMIT 1), $9, $10::timestamp, $11::timestamp, -($12::numeric), 0, 0, 0,
            'X', 'X', 'CL', '--', 'Y', 'Y', 'Y', 'N', 'N', 'N'`,
    [id, d.row.ad_client_id, d.row.ad_org_id, d.wc.auth.userId, String(d.row.name ?? ''), l.description, docType, l.c_bankaccount_id, l.c_currency_id, current(d, 'statementdate'), current(d, 'dateacct'), l.amount],
  );
  await d.wc.tx.query('UPDATE c_cashline SET c_payment_id = $2 WHERE c_cashline_id = $1', [l.c_cashline_id, id]);
}

/** Reverses a completed journal: its allocations, its transfer payments, a reversal journal and reversing facts. */
async function reverse(d: DocumentContext): Promise<void> {
  const date = d.row.dateacct;
  const periodId = await requireCashPeriod(d, date);
  const { rows } = await d.wc.tx.query<{ id: number }>(
    `SELECT DISTINCT h.c_allocationhdr_id AS id FROM c_allocationhdr h JOIN c_allocationline al ON al.c_allocationhdr_id = h.c_allocationhdr_id
       JOIN c_cashline l ON l.c_cashline_id = al.c_cashline_id WHERE l.c_cash_id = $1 AND h.docstatus IN ('CO', 'CL') ORDER BY 1`,
    [docId(d)],
  );
  for (const r of rows) await runDocumentAction(d.wc, 'c_allocationhdr', String(r.id), 'RC');
  await d.wc.tx.query(
    `UPDATE c_payment SET docstatus = 'VO', docaction = '--', isvoided = 'Y' WHERE c_payment_id IN (SELECT c_payment_id FROM c_cashline WHERE c_cash_id = $1 AND cashtype = 'T')`,
    [docId(d)],
  );
  const reversalId = await createReversal(d, [{ table: 'c_cashline', link: 'c_cash_id', negate: ['amount', 'discountamt', 'writeoffamt'] }], ['statementdifference'], date);
  await d.wc.tx.query(`UPDATE c_cash SET endingbalance = COALESCE(beginningbalance, 0) + statementdifference, posted = 'Y' WHERE c_cash_id = $1`, [reversalId]);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  d.messages.push(`Reversal ${String(reversalId)}`);
}

/**
 * Cash journals (CMC): lines of invoices settled in cash, general receipts and expenses, charges,
 * differences and transfers with a bank account; complete allocates the invoices, makes the
 * transfers' payments and posts as the original's Doc_Cash; void and reverse-correct reverse it.
 */
export const cashDocument: DocumentType = {
  table: 'c_cash',
  details: [{ table: 'c_cashline', link: 'c_cash_id' }],
  refusal: noReactivation,

  async prepare(d) {
    await requireCashPeriod(d);
    await requireLines(d, 'c_cashline');
    const currency = await bookCurrency(d);
    for (const l of await linesOf(d)) {
      if (Number(l.c_currency_id) !== currency) {
        // A line in another currency (an invoice's, a bank account's) counts in the book's at the journal's date.
        const found = await conversionRate(d.wc.tx, Number(l.c_currency_id), currency, l.conversion_type === null ? null : Number(l.conversion_type), current(d, 'dateacct'), d.row.ad_client_id);
        if ('missing' in found) throw refuse(`line ${l.line}: ${found.missing}`);
      }
      if (l.cashtype === CASH_TYPE.invoice && l.invoice_status !== 'CO' && l.invoice_status !== 'CL') throw refuse(`line ${l.line}: invoice ${String(l.c_invoice_id)} is not completed`);
    }
    await recomputeBalance(d.wc.tx, CASH_BALANCE, docId(d));
  },

  async complete(d) {
    const periodId = await requireCashPeriod(d);
    const lines = await linesOf(d);
    for (const l of lines) {
      if (l.cashtype === CASH_TYPE.invoice) await allocateInvoice(d, l);
      else if (l.cashtype === CASH_TYPE.transfer) await transferPayment(d, l);
    }
    const currency = await bookCurrency(d);
    const docType = await docTypeOfBase(d.wc.tx, d.row.ad_client_id, 'CMC');
    const dt = docType === null ? null : await documentTypeRow(d.wc.tx, d.wc.memo, docType);
    await postFacts(d, {
      dateAcct: current(d, 'dateacct'),
      dateTrx: current(d, 'statementdate'),
      periodId,
      currencyId: currency,
      glCategoryId: dt?.gl_category_id ?? null,
      facts: await cashFacts(d, lines, currency),
    });
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO' || d.row.docstatus === 'CL') return reverse(d);
    await d.wc.tx.query(`UPDATE c_cashline SET amount = 0, discountamt = 0, writeoffamt = 0 WHERE c_cash_id = $1`, [docId(d)]);
    d.changes.statementdifference = 0;
    d.changes.endingbalance = d.row.beginningbalance ?? 0;
  },

  async close() {},

  reverseCorrect: (d) => reverse(d),
};

