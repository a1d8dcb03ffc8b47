import { definiteNumberAndDate, docId, noReactivation, requireLines } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { idOf, nowTimestamp } from '../row-values.js';
import { paymentCheckSql, paymentProblem } from './deposit-batch-rules.js';

/** The first reason a line's payment cannot be deposited now, or null. */
async function linesProblem(d: DocumentContext): Promise<string | null> {
  const { rows } = await d.wc.tx.query<Record<string, unknown>>(
    `SELECT l.line, c.* FROM c_depositbatchline l JOIN (${paymentCheckSql()}) c ON c.c_payment_id = l.c_payment_id
      WHERE l.c_depositbatch_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_depositbatchline_id`,
    [docId(d), docId(d)],
  );
  const batch = { id: docId(d), bankAccount: Number(d.row.c_bankaccount_id), currency: idOf(d.row.c_currency_id) };
  for (const r of rows) {
    const problem = paymentProblem(r, batch);
    if (problem) return `line ${String(r.line)}: ${problem}`;
  }
  return null;
}

/** DepositAmt: the sum of the active lines' amounts. */
async function depositAmount(d: DocumentContext): Promise<string> {
  const { rows } = await d.wc.tx.query<{ total: string }>(`SELECT COALESCE(sum(payamt), 0)::text AS total FROM c_depositbatchline WHERE c_depositbatch_id = $1 AND isactive = 'Y'`, [docId(d)]);
  return rows[0]!.total;
}

/**
 * Deposit batches (C_DepositBatch, the original's MDepositBatch): prepare needs lines whose
 * payments may still be deposited and sums them into DepositAmt; complete marks the payments
 * with the batch; void, while no bank statement line names the batch and no payment is
 * reconciled, clears the payments and zeroes the lines. A batch posts no facts: the bank
 * statement that shows it does.
 */
export const depositBatchDocument: DocumentType = {
  table: 'c_depositbatch',
  refusal: noReactivation,
  details: [{ table: 'c_depositbatchline', link: 'c_depositbatch_id' }],

  async prepare(d) {
    await requireLines(d, 'c_depositbatchline');
    const problem = await linesProblem(d);
    if (problem) throw refuse(problem);
    d.changes.depositamt = await depositAmount(d);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datedoc');
    await d.wc.tx.query(
      `UPDATE c_payment p SET c_depositbatch_id = $1, updated = $2::timestamp, updatedby = $3
         FROM c_depositbatchline l WHERE l.c_depositbatch_id = $1 AND l.isactive = 'Y' AND p.c_payment_id = l.c_payment_id`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    d.changes.depositamt = await depositAmount(d);
    return 'CO';
  },

  async void(d) {
    const { rows: shown } = await d.wc.tx.query<{ documentno: string }>(
      `SELECT s.documentno FROM c_bankstatementline l JOIN c_bankstatement s ON s.c_bankstatement_id = l.c_bankstatement_id
        WHERE l.c_depositbatch_id = $1 AND l.isactive = 'Y' AND s.docstatus NOT IN ('VO', 'RE') LIMIT 1`,
      [docId(d)],
    );
    if (shown[0]) throw refuse(`bank statement ${shown[0].documentno} has a line of the batch: void the statement first`);
    const { rows: reconciled } = await d.wc.tx.query<{ documentno: string }>(
      `SELECT p.documentno FROM c_depositbatchline l JOIN c_payment p ON p.c_payment_id = l.c_payment_id WHERE l.c_depositbatch_id = $1 AND p.isreconciled = 'Y' LIMIT 1`,
      [docId(d)],
    );
    if (reconciled[0]) throw refuse(`payment ${reconciled[0].documentno} is already reconciled`);
    const [now, user] = [nowTimestamp(), d.wc.auth.userId];
    await d.wc.tx.query(`UPDATE c_payment SET c_depositbatch_id = NULL, updated = $2::timestamp, updatedby = $3 WHERE c_depositbatch_id = $1`, [docId(d), now, user]);
    await d.wc.tx.query(`UPDATE c_depositbatchline SET payamt = 0, updated = $2::timestamp, updatedby = $3 WHERE c_depositbatch_id = $1`, [docId(d), now, user]);
    d.wc.memo.forget('c_depositbatchline');
    d.changes.depositamt = 0;
    d.changes.description = `${String(d.row.description ?? '').trim()} Voided`.trim();
  },

  async close() {},
};
