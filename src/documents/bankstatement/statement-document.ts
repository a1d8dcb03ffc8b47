import { postFacts, deleteFacts } from '../accounting/facts.js';
import { isZero } from '../decimal.js';
import { current, definiteNumberAndDate, docId, docTypeOf, requireLines, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { STATEMENT_BALANCE } from './statement-rules.js';
import { recomputeBalance } from './balance.js';
import { statementFacts, type StatementLine } from './statement-posting.js';
import { batchLinesProblem, setBatchPaymentsReconciled } from './statement-batch-lines.js';

interface CheckedLine extends StatementLine {
  line: number;
  c_payment_id: number | null;
  c_depositbatch_id: number | null;
  payment_status: string | null;
  payment_bankaccount: number | null;
  isreconciled: string | null;
  times: number;
}

/**
 * The active lines of the statement with what prepare checks of their payments, read once per
 * operation: completing a draft prepares it first, and both steps need all lines (the memo
 * forgets them when the operation writes lines).
 */
function linesOf(d: DocumentContext): Promise<CheckedLine[]> {
  return d.wc.memo.get('c_bankstatementline', `checked-lines:${String(docId(d))}`, () => readLines(d));
}

async function readLines(d: DocumentContext): Promise<CheckedLine[]> {
  const { rows } = await d.wc.tx.query<CheckedLine>(
    `SELECT l.c_bankstatementline_id, l.line, l.c_payment_id, l.c_depositbatch_id, l.c_bpartner_id, l.c_charge_id, COALESCE(l.stmtamt, 0) AS stmtamt, COALESCE(l.trxamt, 0) AS trxamt,
            COALESCE(l.chargeamt, 0) AS chargeamt, COALESCE(l.interestamt, 0) AS interestamt, l.description,
            p.docstatus AS payment_status, p.c_bankaccount_id AS payment_bankaccount, p.isreconciled,
            count(*) OVER (PARTITION BY l.c_payment_id) AS times
       FROM c_bankstatementline l LEFT JOIN c_payment p ON p.c_payment_id = l.c_payment_id
      WHERE l.c_bankstatement_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_bankstatementline_id`,
    [docId(d)],
  );
  return rows;
}

/** Why a line cannot be completed, or null (lines checked in order, the first refusal named). */
function lineProblem(l: CheckedLine, bankAccountId: number): string | null {
  const name = `line ${l.line}`;
  if (!isZero(l.chargeamt) && l.c_charge_id === null) return `${name} has a charge amount ${l.chargeamt} without a charge`;
  if (l.c_payment_id === null) {
    // A deposit batch's line is checked with the batch (statement-batch-lines.ts).
    if (l.c_depositbatch_id !== null) return null;
    // A line read from the bank but not matched yet (its transaction amount waits for a payment).
    if (!isZero(l.trxamt)) return `${name} has a transaction amount ${l.trxamt} but no payment: match it to a payment or give it a charge`;
    return null;
  }
  if (Number(l.times) > 1) return `payment ${l.c_payment_id} is matched to more than one line`;
  if (l.payment_status !== 'CO' && l.payment_status !== 'CL') return `${name}: payment ${l.c_payment_id} is not completed (status ${String(l.payment_status)})`;
  if (Number(l.payment_bankaccount) !== bankAccountId) return `${name}: payment ${l.c_payment_id} is of another bank account`;
  if (l.isreconciled === 'Y') return `${name}: payment ${l.c_payment_id} is already reconciled`;
  return null;
}

const setReconciled = (d: DocumentContext, flag: 'Y' | 'N') =>
  d.wc.tx.query(
    `UPDATE c_payment SET isreconciled = $2 WHERE c_payment_id IN (SELECT c_payment_id FROM c_bankstatementline WHERE c_bankstatement_id = $1 AND isactive = 'Y' AND c_payment_id IS NOT NULL)`,
    [docId(d), flag],
  );

/** Moves the bank account's current balance by the statement's difference (negated on undo). */
const moveBalance = (d: DocumentContext, sign: 1 | -1) =>
  d.wc.tx.query(
    `UPDATE c_bankaccount b SET currentbalance = COALESCE(b.currentbalance, 0) + $2 * COALESCE(s.statementdifference, 0)
       FROM c_bankstatement s WHERE s.c_bankstatement_id = $1 AND b.c_bankaccount_id = s.c_bankaccount_id`,
    [docId(d), sign],
  );

/** Undoes a completed statement: its facts, the payments' reconciliation and the bank account's balance. */
async function undo(d: DocumentContext): Promise<void> {
  await requireOpenPeriod(d);
  await deleteFacts(d);
  await setReconciled(d, 'N');
  await setBatchPaymentsReconciled(d.wc.tx, docId(d), 'N');
  await moveBalance(d, -1);
}

/**
 * Bank statements (CMB): prepare checks the lines (a payment or a charge, a payment completed, of
 * the statement's bank account, matched once and not yet reconciled) and sums them; complete
 * posts them, reconciles the payments and moves the bank account's current balance; void and
 * re-activation undo all of it, as the original's MBankStatement.
 */
export const bankStatementDocument: DocumentType = {
  table: 'c_bankstatement',
  details: [{ table: 'c_bankstatementline', link: 'c_bankstatement_id' }],

  async refusal(d) {
    if (d.action !== 'RE') return null;
    const dt = await docTypeOf(d);
    return dt?.iscanbereactivated === 'Y' ? null : `document type ${String(dt?.name ?? '')} does not allow re-activation`;
  },

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'c_bankstatementline');
    const bankAccountId = Number(d.row.c_bankaccount_id);
    for (const l of await linesOf(d)) {
      const problem = lineProblem(l, bankAccountId);
      if (problem) throw refuse(problem);
    }
    const batchProblem = await batchLinesProblem(d.wc.tx, docId(d), bankAccountId);
    if (batchProblem) throw refuse(batchProblem);
    await recomputeBalance(d.wc.tx, STATEMENT_BALANCE, docId(d));
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'statementdate');
    const periodId = await requireOpenPeriod(d);
    const lines = await linesOf(d);
    const dt = await docTypeOf(d);
    const { rows } = await d.wc.tx.query<{ c_currency_id: number }>('SELECT c_currency_id FROM c_bankaccount WHERE c_bankaccount_id = $1', [d.row.c_bankaccount_id]);
    await postFacts(d, {
      dateAcct: current(d, 'dateacct'),
      dateTrx: current(d, 'statementdate'),
      periodId,
      currencyId: rows[0] ? Number(rows[0].c_currency_id) : null,
      glCategoryId: dt?.gl_category_id ?? null,
      facts: await statementFacts(d, lines),
    });
    await setReconciled(d, 'Y');
    await setBatchPaymentsReconciled(d.wc.tx, docId(d), 'Y');
    await moveBalance(d, 1);
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO' || d.row.docstatus === 'CL') await undo(d);
    // The lines keep no amounts and no payments, the statement no difference (the original's voidIt).
    await d.wc.tx.query(
      `UPDATE c_bankstatementline SET stmtamt = 0, trxamt = 0, chargeamt = 0, interestamt = 0, c_payment_id = NULL, c_depositbatch_id = NULL,
              description = btrim(COALESCE(description, '') || ' Voided (' || COALESCE(stmtamt, 0)::text || ')')
        WHERE c_bankstatement_id = $1`,
      [docId(d)],
    );
    d.wc.memo.forget('c_bankstatementline');
    d.changes.statementdifference = 0;
    d.changes.endingbalance = d.row.beginningbalance ?? 0;
  },

  async close() {},

  async reactivate(d) {
    await undo(d);
  },
};
