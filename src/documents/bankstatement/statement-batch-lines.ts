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
