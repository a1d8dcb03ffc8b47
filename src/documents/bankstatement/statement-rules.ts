import type { Tx } from '../../db/types.js';
import type { ModelEvent, PrepareNewEvent, Row } from '../../events/model-events.js';
import { add, dec, isZero, sub, toText } from '../decimal.js';
import { lineHeader, numberLine, type BalanceDocument } from './balance.js';
import { fillEmpty, idOf, invalid, isEmptyValue, todayDate } from '../row-values.js';

/** The signed amount of a payment as a bank statement shows it: receipts in, payments out. */
export const PAYMENT_AMOUNT_SQL = `CASE WHEN p.isreceipt = 'Y' THEN p.payamt ELSE -p.payamt END`;

/** The client's document type of a base type (the default one first), or null. */
export async function docTypeOfBase(tx: Tx, clientId: unknown, baseType: string): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT c_doctype_id AS id FROM c_doctype WHERE ad_client_id = $1 AND docbasetype = $2 AND isactive = 'Y' ORDER BY isdefault DESC, c_doctype_id LIMIT 1`,
    [clientId, baseType],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * A new statement: the Bank Statement document type, today's date, and as beginning balance the
 * bank account's current balance (the original's MBankStatement), its ending balance following.
 */
export async function statementBeforeNew(e: ModelEvent): Promise<void> {
  fillEmpty(e, 'c_doctype_id', await docTypeOfBase(e.tx, e.row.ad_client_id, 'CMB'));
  fillEmpty(e, 'statementdate', todayDate());
  fillEmpty(e, 'dateacct', e.row.statementdate);
  // The dictionary's default name is the login date and time: the statement's day reads better.
  if (!e.given?.has('name')) e.row.name = String(e.row.statementdate).slice(0, 10);
  const account = idOf(e.row.c_bankaccount_id);
  if (account !== null && !e.given?.has('beginningbalance')) {
    const { rows } = await e.tx.query<{ b: string }>('SELECT currentbalance AS b FROM c_bankaccount WHERE c_bankaccount_id = $1', [account]);
    e.row.beginningbalance = rows[0]?.b ?? 0;
  }
  e.row.beginningbalance ??= 0;
  e.row.statementdifference = 0;
  e.row.endingbalance = e.row.beginningbalance;
}

interface PaymentRow {
  amount: string;
  c_bpartner_id: number | null;
  c_invoice_id: number | null;
  c_currency_id: number;
}

/** The payments (by id, $1 an array) as statement lines take them. */
const PAYMENTS_SQL = `SELECT p.c_payment_id AS id, ${PAYMENT_AMOUNT_SQL} AS amount, p.c_bpartner_id, p.c_invoice_id, p.c_currency_id FROM c_payment p WHERE p.c_payment_id = ANY($1::bigint[])`;

const paymentKey = (id: number): string => `statement-line-payment:${id}`;

/** A payment a line names, from the operation's memo (see preparePaymentsOfLines) or read alone. */
function paymentOfLine(e: ModelEvent, id: number): Promise<PaymentRow | undefined> {
  return e.memo.get('c_payment', paymentKey(id), async () => (await e.tx.query<PaymentRow>(PAYMENTS_SQL, [[id]])).rows[0]);
}

/** New lines naming payments (created from payments, or sent with their statement): their payments read in one statement. */
export async function preparePaymentsOfLines(e: PrepareNewEvent): Promise<void> {
  const ids = [...new Set(e.rows.map((r) => idOf(r.c_payment_id)).filter((id): id is number => id !== null))];
  if (ids.length < 2) return;
  const { rows } = await e.tx.query<PaymentRow & { id: number }>(PAYMENTS_SQL, [ids]);
  const found = new Map(rows.map((r) => [Number(r.id), r]));
  for (const id of ids) e.memo.set('c_payment', paymentKey(id), found.get(id));
}

/** A line's dates that default to its statement's date, and its amounts that default to zero. */
const LINE_DATES = ['statementlinedate', 'dateacct', 'valutadate'];
const LINE_AMOUNTS = ['stmtamt', 'trxamt', 'interestamt'];

const LINE_HEADER_SQL = `SELECT s.processed, s.documentno, s.statementdate, s.c_bankaccount_id, b.c_currency_id FROM c_bankstatement s
   LEFT JOIN c_bankaccount b ON b.c_bankaccount_id = s.c_bankaccount_id WHERE s.c_bankstatement_id = $1`;

/**
 * A statement line: its number, dates and currency from the statement; a payment gives its
 * partner, invoice and amount; the charge amount is what the statement amount leaves after the
 * transaction and the interest, and needs a charge (the original's MBankStatementLine). Waits
 * only for what the operation has not read yet (the header, the line count, a payment), so that
 * the lines of a long statement after the first run through without waiting.
 */
export function statementLineBeforeSave(e: ModelEvent): Promise<void> | undefined {
  const header = lineHeader(e, STATEMENT_BALANCE, LINE_HEADER_SQL);
  return header instanceof Promise ? header.then((h) => lineOfHeader(e, h)) : lineOfHeader(e, header);
}

/** The line rule once the statement is read. */
function lineOfHeader(e: ModelEvent, header: Row | undefined): Promise<void> | undefined {
  if (!header) return undefined;
  if (header.processed === 'Y') throw invalid(`C_BankStatement ${String(header.documentno ?? '')} is processed: its lines cannot change (column C_BankStatement_ID)`);
  const numbering = e.type === 'before-new' ? numberLine(e, STATEMENT_BALANCE) : undefined;
  return numbering ? numbering.then(() => numberedLine(e, header)) : numberedLine(e, header);
}

/** The line rule once the line has its number: dates, currency, the payment's values and the charge amount. */
function numberedLine(e: ModelEvent, header: Row): Promise<void> | undefined {
  const r = e.row;
  for (const c of LINE_DATES) fillEmpty(e, c, header.statementdate);
  fillEmpty(e, 'c_currency_id', header.c_currency_id);
  if (idOf(r.c_payment_id) !== null && idOf(r.c_depositbatch_id) !== null) throw invalid('A bank statement line has either a payment or a deposit batch, not both (column C_Payment_ID)');
  const paymentChanged = e.type === 'before-new' || e.changed.has('c_payment_id');
  const payment = idOf(r.c_payment_id);
  if (paymentChanged && payment !== null) {
    return paymentOfLine(e, payment).then((p) => {
      if (p) {
        r.c_bpartner_id = p.c_bpartner_id;
        r.c_invoice_id = p.c_invoice_id;
        if (!(e.type === 'before-new' ? e.given?.has('trxamt') : e.changed.has('trxamt'))) r.trxamt = p.amount;
        if (isEmptyValue(r.stmtamt)) r.stmtamt = r.trxamt;
      }
      chargeOfLine(e);
    });
  }
  if (paymentChanged && e.type === 'before-change' && !e.changed.has('trxamt')) r.trxamt = 0;
  chargeOfLine(e);
  return undefined;
}

/** Empty amounts become zero; the charge amount is what the statement amount leaves, and needs a charge. */
function chargeOfLine(e: ModelEvent): void {
  const r = e.row;
  for (const c of LINE_AMOUNTS) r[c] ??= 0;
  const charge = sub(sub(dec(r.stmtamt as string), dec(r.trxamt as string)), dec(r.interestamt as string));
  r.chargeamt = toText(charge);
  if (!isZero(charge) && idOf(r.c_charge_id) === null) {
    throw invalid(`The line's charge amount ${String(r.chargeamt)} (statement amount less transaction and interest amounts) needs a charge (column C_Charge_ID)`);
  }
}

/** A statement's balance follows its lines' statement amounts. */
export const STATEMENT_BALANCE: BalanceDocument = { header: 'c_bankstatement', key: 'c_bankstatement_id', line: 'c_bankstatementline', amount: 'stmtamt' };
