import type { Tx } from '../../db/types.js';
import type { ModelEvent, Row } from '../../events/model-events.js';
import { add, compare, dec, sub, toText } from '../decimal.js';
import { fillEmpty, idOf, invalid, isEmptyValue, todayDate } from '../row-values.js';
import { INVOICE_SENSE_SQL, OPEN_AMOUNT_SQL } from '../engine/settlement.js';
import { convertedSql } from '../accounting/conversion.js';
import { lineHeader, numberLine, type BalanceDocument } from '../bankstatement/balance.js';

/** Cash types (reference list 217). */
export const CASH_TYPE = { charge: 'C', difference: 'D', expense: 'E', invoice: 'I', receipt: 'R', transfer: 'T' } as const;

/**
 * A new cash journal: the client's default cash book, today's date, and as beginning balance the
 * ending balance of the book's last completed journal; its ending balance follows.
 */
export async function cashBeforeNew(e: ModelEvent): Promise<void> {
  if (isEmptyValue(e.row.c_cashbook_id)) {
    const { rows } = await e.tx.query<{ id: number }>(
      `SELECT c_cashbook_id AS id FROM c_cashbook WHERE ad_client_id = $1 AND isactive = 'Y' AND ad_org_id IN (0, $2) ORDER BY isdefault DESC, ad_org_id DESC, c_cashbook_id LIMIT 1`,
      [e.row.ad_client_id, e.row.ad_org_id],
    );
    fillEmpty(e, 'c_cashbook_id', rows[0]?.id);
  }
  fillEmpty(e, 'statementdate', todayDate());
  fillEmpty(e, 'dateacct', e.row.statementdate);
  // The dictionary's default name is the login date and time: the statement's day reads better.
  if (!e.given?.has('name')) e.row.name = String(e.row.statementdate).slice(0, 10);
  if (!e.given?.has('beginningbalance')) {
    const { rows } = await e.tx.query<{ b: string }>(
      `SELECT endingbalance AS b FROM c_cash WHERE c_cashbook_id = $1 AND docstatus IN ('CO', 'CL') ORDER BY statementdate DESC, c_cash_id DESC LIMIT 1`,
      [e.row.c_cashbook_id],
    );
    e.row.beginningbalance = rows[0]?.b ?? 0;
  }
  e.row.beginningbalance ??= 0;
  e.row.statementdifference = 0;
  e.row.endingbalance = e.row.beginningbalance;
}

/** The open amount of an invoice in the sign of a cash line (customer invoices in, vendor invoices out) and its currency. */
async function invoiceOf(tx: Tx, invoiceId: number): Promise<{ open: string; currency: number } | null> {
  const { rows } = await tx.query<{ open: string; currency: number }>(
    `SELECT (${INVOICE_SENSE_SQL('i')} * (${OPEN_AMOUNT_SQL('i')}))::text AS open, i.c_currency_id AS currency FROM c_invoice i WHERE i.c_invoice_id = $1`,
    [invoiceId],
  );
  return rows[0] ?? null;
}

const LINE_HEADER_SQL = `SELECT c.processed, c.name, b.c_currency_id FROM c_cash c LEFT JOIN c_cashbook b ON b.c_cashbook_id = c.c_cashbook_id WHERE c.c_cash_id = $1`;

/**
 * A cash journal line, as the original's MCashLine: an invoice, bank transfer or charge line
 * without its invoice, bank account or charge is a general expense; expenses are negative and
 * receipts positive; an invoice line takes the invoice's open amount and currency, a transfer
 * the bank account's currency, the others the cash book's.
 */
export async function cashLineBeforeSave(e: ModelEvent): Promise<void> {
  const r = e.row;
  const header = await lineHeader(e, CASH_BALANCE, LINE_HEADER_SQL);
  if (!header) return;
  if (header.processed === 'Y') throw invalid(`C_Cash ${String(header.name ?? '')} is processed: its lines cannot change (column C_Cash_ID)`);
  if (e.type === 'before-new') await numberLine(e, CASH_BALANCE);
  const type = String(r.cashtype ?? CASH_TYPE.expense);
  const lacks = (type === CASH_TYPE.invoice && idOf(r.c_invoice_id) === null) || (type === CASH_TYPE.transfer && idOf(r.c_bankaccount_id) === null) || (type === CASH_TYPE.charge && idOf(r.c_charge_id) === null);
  r.cashtype = lacks ? CASH_TYPE.expense : type;
  let currency: unknown = header.c_currency_id;
  if (r.cashtype === CASH_TYPE.invoice) {
    const invoice = await invoiceOf(e.tx, idOf(r.c_invoice_id)!);
    if (!invoice) throw invalid(`No invoice ${String(r.c_invoice_id)} (column C_Invoice_ID)`);
    currency = invoice.currency;
    const amountGiven = e.type === 'before-new' ? e.given?.has('amount') : e.changed.has('amount');
    if (!amountGiven && (e.type === 'before-new' || e.changed.has('c_invoice_id'))) r.amount = invoice.open;
  } else if (r.cashtype === CASH_TYPE.transfer) {
    const { rows: bank } = await e.tx.query<{ c: number }>('SELECT c_currency_id AS c FROM c_bankaccount WHERE c_bankaccount_id = $1', [r.c_bankaccount_id]);
    currency = bank[0]?.c ?? currency;
  }
  if (e.type === 'before-new' || isEmptyValue(r.c_currency_id) || e.changed.has('c_invoice_id') || e.changed.has('c_bankaccount_id') || e.changed.has('cashtype')) r.c_currency_id = currency;
  for (const c of ['amount', 'discountamt', 'writeoffamt']) r[c] ??= 0;
  const amount = dec(r.amount as string);
  if (r.cashtype === CASH_TYPE.expense && compare(amount, 0) > 0) r.amount = toText(sub(0, amount));
  if (r.cashtype === CASH_TYPE.receipt && compare(amount, 0) < 0) r.amount = toText(sub(0, amount));
}

/**
 * The conversion type of a cash line (alias `l`): an invoice line's invoice's, so that its cash
 * transfer clears at the rate its allocation uses; else none (the client's default type).
 */
export const CASH_LINE_CONVERSION_TYPE_SQL = `(SELECT i.c_conversiontype_id FROM c_invoice i WHERE i.c_invoice_id = l.c_invoice_id)`;

/**
 * A cash journal's balance follows its lines' amounts, each converted to the cash book's currency
 * at the journal's accounting date (the original's MCashLine updateHeader); a line without a rate
 * counts nothing until one exists (prepare refuses it).
 */
export const CASH_BALANCE: BalanceDocument = {
  header: 'c_cash',
  key: 'c_cash_id',
  line: 'c_cashline',
  amount: 'amount',
  totalSql: `SELECT COALESCE(sum(${convertedSql('l.amount', 'l.c_currency_id', 'b.c_currency_id', CASH_LINE_CONVERSION_TYPE_SQL, 'c.dateacct', 'c.ad_client_id')}), 0) AS total
      FROM c_cashline l JOIN c_cash c ON c.c_cash_id = l.c_cash_id JOIN c_cashbook b ON b.c_cashbook_id = c.c_cashbook_id
     WHERE l.c_cash_id = $1 AND l.isactive = 'Y'`,
};
