import type { Row } from '../../events/model-events.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { toText } from '../decimal.js';
import { PAYMENT_AMOUNT_SQL, STATEMENT_BALANCE } from './statement-rules.js';
import { recomputeBalance } from './balance.js';
import { matchDepositBatches } from './statement-batch-lines.js';
import { draftStatementOf } from './statement-process-target.js';

interface OpenLine {
  id: number;
  amount: string;
  bpartner: number | null;
  references: string[];
}

interface OpenPayment {
  id: number;
  amount: string;
  bpartner: number | null;
  invoice: number | null;
  documentno: string | null;
  checkno: string | null;
}

/**
 * Completed payments of the bank account that are neither reconciled nor on a line of another
 * statement still in force, nor on a line of this one, nor deposited with a batch (the statement
 * shows the batch). The lines' payments are read once (a hashed
 * subplan): lines written in the same minute have no statistics yet, and a correlated look-up
 * then scanned every line for every payment (2.8 s for 1,000 of each). $1 the bank account, $2 the client.
 */
export const OPEN_PAYMENTS_WHERE = `p.c_bankaccount_id = $1 AND p.docstatus IN ('CO', 'CL') AND p.isreconciled = 'N' AND p.ad_client_id = $2 AND p.c_depositbatch_id IS NULL
    AND p.c_payment_id NOT IN (SELECT l.c_payment_id FROM c_bankstatementline l JOIN c_bankstatement s ON s.c_bankstatement_id = l.c_bankstatement_id
                                WHERE l.c_payment_id IS NOT NULL AND l.isactive = 'Y' AND s.docstatus NOT IN ('VO', 'RE'))`;

const OPEN_PAYMENTS_SQL = `SELECT p.c_payment_id AS id, ${PAYMENT_AMOUNT_SQL} AS amount, p.c_bpartner_id AS bpartner, p.c_invoice_id AS invoice, p.documentno, p.checkno
   FROM c_payment p
  WHERE ${OPEN_PAYMENTS_WHERE}
  ORDER BY p.datetrx, p.c_payment_id`;

/** Lines without a payment: the amount a payment must have is the statement amount less the interest. */
const OPEN_LINES_SQL = `SELECT l.c_bankstatementline_id AS id, COALESCE(l.stmtamt, 0) - COALESCE(l.interestamt, 0) AS amount, l.c_bpartner_id AS bpartner,
    l.referenceno, l.eftreference, l.eftcheckno, l.efttrxid, l.memo
   FROM c_bankstatementline l WHERE l.c_bankstatement_id = $1 AND l.isactive = 'Y' AND l.c_payment_id IS NULL AND l.c_depositbatch_id IS NULL
  ORDER BY l.line, l.c_bankstatementline_id`;

const clean = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** An amount as a key: equal amounts give the same text whatever their scale (10.5 and 10.50). */
const amountKey = (v: string): string => {
  const t = toText(v);
  return t.includes('.') ? t.replace(/\.?0+$/, '') : t;
};

/**
 * The payment of a line among the open payments of its amount, as the original's matchers look for
 * it: by reference (the payment's document number or check number); else the one payment to the
 * line's partner; else, for a line without a partner, the one payment of that amount.
 */
export function matchPayment(line: OpenLine, same: readonly OpenPayment[]): OpenPayment | null {
  const byReference = same.find((p) => line.references.some((r) => r === clean(p.documentno) || r === clean(p.checkno)));
  if (byReference) return byReference;
  const candidates = line.bpartner === null ? same : same.filter((p) => Number(p.bpartner) === line.bpartner);
  return candidates.length === 1 ? candidates[0]! : null;
}

/** Matches lines to payments in order, a payment once; returns the pairs. */
export function matchLines(lines: readonly OpenLine[], payments: readonly OpenPayment[]): { line: OpenLine; payment: OpenPayment }[] {
  const byAmount = new Map<string, OpenPayment[]>();
  for (const p of payments) {
    const key = amountKey(p.amount);
    const list = byAmount.get(key);
    if (list) list.push(p);
    else byAmount.set(key, [p]);
  }
  const out: { line: OpenLine; payment: OpenPayment }[] = [];
  for (const line of lines) {
    const same = byAmount.get(amountKey(line.amount));
    const p = same ? matchPayment(line, same) : null;
    if (!p) continue;
    same!.splice(same!.indexOf(p), 1);
    out.push({ line, payment: p });
  }
  return out;
}

/**
 * Bank Statement Matcher (the original's BankStatementMatcher) on one draft statement: each line
 * without a payment gets the payment it matches, with the payment's partner, invoice
 * and amount; the matched lines are written with one statement. Lines left then may match a
 * deposit batch (statement-batch-lines.ts).
 */
export async function bankStatementMatcher(c: ProcessCall): Promise<ProcessOutcome> {
  const { id, statement } = await draftStatementOf(c, 'its lines cannot be matched');
  const lines = (await c.tx.query<Row>(OPEN_LINES_SQL, [id])).rows.map((l) => ({
    id: Number(l.id),
    amount: toText(l.amount as string),
    bpartner: l.bpartner === null ? null : Number(l.bpartner),
    references: ['referenceno', 'eftreference', 'eftcheckno', 'efttrxid', 'memo'].map((k) => clean(l[k])).filter((r): r is string => r !== null),
  }));
  if (!lines.length) return { summary: 'Matched 0 of 0 lines' };
  const payments = (await c.tx.query<OpenPayment>(OPEN_PAYMENTS_SQL, [statement.c_bankaccount_id, statement.ad_client_id])).rows;
  const matches = matchLines(lines, payments);
  if (matches.length) {
    // The matches as one JSON parameter: a thousand lines are two parameters, not five thousand.
    const rows = matches.map(({ line, payment }) => ({ line: line.id, payment: payment.id, bpartner: payment.bpartner, invoice: payment.invoice, amount: toText(payment.amount) }));
    await c.tx.query(
      `UPDATE c_bankstatementline l SET c_payment_id = m.payment, c_bpartner_id = m.bpartner, c_invoice_id = m.invoice, trxamt = m.amount,
              chargeamt = COALESCE(l.stmtamt, 0) - m.amount - COALESCE(l.interestamt, 0), updated = now(), updatedby = $1
         FROM json_to_recordset($2::json) AS m(line bigint, payment bigint, bpartner bigint, invoice bigint, amount numeric)
        WHERE l.c_bankstatementline_id = m.line`,
      [c.auth.userId, JSON.stringify(rows)],
    );
    await recomputeBalance(c.tx, STATEMENT_BALANCE, id);
  }
  const batches = await matchDepositBatches(c.tx, { id, bankAccountId: statement.c_bankaccount_id, clientId: statement.ad_client_id }, c.auth.userId);
  return { summary: `Matched ${matches.length + batches} of ${lines.length} lines` };
}
