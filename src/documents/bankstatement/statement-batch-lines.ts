import type { Tx } from '../../db/types.js';
import type { ModelEvent } from '../../events/model-events.js';
import { compare, dec } from '../decimal.js';
import { idOf, invalid, isEmptyValue } from '../row-values.js';

/** A processed deposit batch as a statement line reads it; $1 the batch, $2 the statement line (to leave out). */
const BATCH_SQL = `SELECT b.documentno, b.docstatus, b.c_bankaccount_id, b.depositamt, b.datedeposit,
    (SELECT s.documentno FROM c_bankstatementline l JOIN c_bankstatement s ON s.c_bankstatement_id = l.c_bankstatement_id
      WHERE l.c_depositbatch_id = b.c_depositbatch_id AND l.isactive = 'Y' AND s.docstatus NOT IN ('VO', 'RE')
        AND l.c_bankstatementline_id IS DISTINCT FROM $2 LIMIT 1) AS shown_on
   FROM c_depositbatch b WHERE b.c_depositbatch_id = $1`;

/**
 * A statement line naming a deposit batch (the original's MBankStatementLine): the batch must be
 * processed, of the statement's bank account and on no other statement in force; the line's
 * transaction amount is the batch's deposit amount (400 when the line gives another one), its
 * statement amount follows where none is given, and the line names no partner. Runs before the
 * statement line's own rule, which then takes the charge amount from these amounts.
 */
export async function batchLineBeforeSave(e: ModelEvent): Promise<void> {
  const r = e.row;
  const batch = idOf(r.c_depositbatch_id);
  if (batch === null || idOf(r.c_payment_id) !== null) return;
  const relevant = e.type === 'before-new' || ['c_depositbatch_id', 'trxamt', 'stmtamt'].some((c) => e.changed.has(c));
  if (!relevant) return;
  const { rows } = await e.tx.query<Record<string, unknown>>(BATCH_SQL, [batch, r.c_bankstatementline_id ?? null]);
  const b = rows[0];
  if (!b) return;
  const name = `Deposit batch ${String(b.documentno)}`;
  if (b.docstatus !== 'CO' && b.docstatus !== 'CL') throw invalid(`${name} is not processed (status ${String(b.docstatus)}) (column C_DepositBatch_ID)`);
  const { rows: st } = await e.tx.query<{ c_bankaccount_id: number }>('SELECT c_bankaccount_id FROM c_bankstatement WHERE c_bankstatement_id = $1', [r.c_bankstatement_id]);
  if (st[0] && Number(st[0].c_bankaccount_id) !== Number(b.c_bankaccount_id)) throw invalid(`${name} is of another bank account than the statement (column C_DepositBatch_ID)`);
  if (b.shown_on) throw invalid(`${name} is on bank statement ${String(b.shown_on)} already (column C_DepositBatch_ID)`);
  const given = e.type === 'before-new' ? e.given?.has('trxamt') : e.changed.has('trxamt');
  if (given && !isEmptyValue(r.trxamt) && compare(dec(r.trxamt as string), dec(b.depositamt as string)) !== 0) {
    throw invalid(`The line's transaction amount ${String(r.trxamt)} is not the deposit amount ${String(b.depositamt)} of ${name.toLowerCase()} (column TrxAmt)`);
  }
  r.trxamt = b.depositamt;
  if (isEmptyValue(r.stmtamt) && (e.type === 'before-new' || e.changed.has('c_depositbatch_id'))) r.stmtamt = b.depositamt;
  r.c_bpartner_id = null;
  r.c_invoice_id = null;
}

/** Reconciles (or, undoing, un-reconciles) the payments of the deposit batches the statement's lines name. */
export async function setBatchPaymentsReconciled(tx: Tx, statementId: number, flag: 'Y' | 'N'): Promise<void> {
  await tx.query(
    `UPDATE c_payment SET isreconciled = $2 WHERE c_depositbatch_id IN
       (SELECT c_depositbatch_id FROM c_bankstatementline WHERE c_bankstatement_id = $1 AND isactive = 'Y' AND c_depositbatch_id IS NOT NULL)`,
    [statementId, flag],
  );
}

/**
 * Why a statement's batch lines cannot complete, or null: each batch processed, of the
 * statement's bank account, on one line only and on no other statement in force, with the
 * line's transaction amount its deposit amount.
 */
export async function batchLinesProblem(tx: Tx, statementId: number, bankAccountId: number): Promise<string | null> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT l.line, l.trxamt, b.documentno, b.docstatus, b.c_bankaccount_id, b.depositamt,
            count(*) OVER (PARTITION BY l.c_depositbatch_id) AS times,
            (SELECT s.documentno FROM c_bankstatementline o JOIN c_bankstatement s ON s.c_bankstatement_id = o.c_bankstatement_id
              WHERE o.c_depositbatch_id = l.c_depositbatch_id AND o.isactive = 'Y' AND o.c_bankstatement_id <> $1 AND s.docstatus NOT IN ('VO', 'RE') LIMIT 1) AS shown_on
       FROM c_bankstatementline l JOIN c_depositbatch b ON b.c_depositbatch_id = l.c_depositbatch_id
      WHERE l.c_bankstatement_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_bankstatementline_id`,
    [statementId],
  );
  for (const l of rows) {
    const name = `line ${String(l.line)}: deposit batch ${String(l.documentno)}`;
    if (l.docstatus !== 'CO' && l.docstatus !== 'CL') return `${name} is not processed (status ${String(l.docstatus)})`;
    if (Number(l.c_bankaccount_id) !== bankAccountId) return `${name} is of another bank account`;
    if (Number(l.times) > 1) return `${name} is on more than one line`;
    if (l.shown_on) return `${name} is on bank statement ${String(l.shown_on)} already`;
    if (compare(dec(l.trxamt as string), dec(l.depositamt as string)) !== 0) return `${name}: the transaction amount ${String(l.trxamt)} is not the deposit amount ${String(l.depositamt)}`;
  }
  return null;
}

/** Lines of the statement with neither a payment nor a batch: the amount a batch must have, the line's date and references. */
const UNMATCHED_LINES_SQL = `SELECT l.c_bankstatementline_id AS id, COALESCE(l.stmtamt, 0) - COALESCE(l.interestamt, 0) AS amount, to_char(l.statementlinedate, 'YYYY-MM-DD') AS day,
    l.referenceno, l.eftreference, l.memo
   FROM c_bankstatementline l WHERE l.c_bankstatement_id = $1 AND l.isactive = 'Y' AND l.c_payment_id IS NULL AND l.c_depositbatch_id IS NULL
  ORDER BY l.line, l.c_bankstatementline_id`;

/** Processed batches of the bank account on no line of a statement in force. */
const OPEN_BATCHES_SQL = `SELECT b.c_depositbatch_id AS id, b.depositamt AS amount, to_char(b.datedeposit, 'YYYY-MM-DD') AS day, b.documentno
   FROM c_depositbatch b
  WHERE b.c_bankaccount_id = $1 AND b.ad_client_id = $2 AND b.docstatus IN ('CO', 'CL')
    AND NOT EXISTS (SELECT 1 FROM c_bankstatementline l JOIN c_bankstatement s ON s.c_bankstatement_id = l.c_bankstatement_id
                     WHERE l.c_depositbatch_id = b.c_depositbatch_id AND l.isactive = 'Y' AND s.docstatus NOT IN ('VO', 'RE'))
  ORDER BY b.datedeposit, b.c_depositbatch_id`;

interface Candidate {
  id: number;
  amount: string;
  day: string;
  documentno: string;
}

/**
 * The batch of a line among the open batches of its amount: the one its reference names (the
 * batch's document number), else the one deposited on the line's date.
 */
export function matchBatch(line: { day: string; references: string[] }, same: readonly Candidate[]): Candidate | null {
  const byReference = same.find((b) => line.references.includes(b.documentno));
  if (byReference) return byReference;
  const onDay = same.filter((b) => b.day === line.day);
  return onDay.length === 1 ? onDay[0]! : null;
}

/**
 * The Bank Statement Matcher's second pass: lines still without a payment are matched to deposit
 * batches of their amount by reference or deposit date, a batch once; returns how many matched.
 */
export async function matchDepositBatches(tx: Tx, statement: { id: number; bankAccountId: unknown; clientId: unknown }, userId: number): Promise<number> {
  const lines = (await tx.query<Record<string, unknown>>(UNMATCHED_LINES_SQL, [statement.id])).rows;
  if (!lines.length) return 0;
  const open = (await tx.query<Candidate>(OPEN_BATCHES_SQL, [statement.bankAccountId, statement.clientId])).rows;
  let matched = 0;
  for (const l of lines) {
    const same = open.filter((b) => compare(dec(b.amount), dec(l.amount as string)) === 0);
    const references = ['referenceno', 'eftreference', 'memo'].map((k) => (typeof l[k] === 'string' ? (l[k] as string).trim() : '')).filter((r) => r !== '');
    const b = same.length ? matchBatch({ day: String(l.day), references }, same) : null;
    if (!b) continue;
    open.splice(open.indexOf(b), 1);
    await tx.query(
      `UPDATE c_bankstatementline SET c_depositbatch_id = $2, trxamt = $3::numeric, chargeamt = COALESCE(stmtamt, 0) - $3::numeric - COALESCE(interestamt, 0),
              c_bpartner_id = NULL, c_invoice_id = NULL, updated = now(), updatedby = $4
        WHERE c_bankstatementline_id = $1`,
      [l.id, b.id, b.amount, userId],
    );
    matched++;
  }
  return matched;
}
