import { assertWritableRow } from '../../access/access.js';
import type { ModelEvent } from '../../events/model-events.js';
import { lineHeader, numberLine, type BalanceDocument } from '../bankstatement/balance.js';
import { docTypeOfBase, PAYMENT_AMOUNT_SQL } from '../bankstatement/statement-rules.js';
import { fillEmpty, idOf, invalid, todayDate } from '../row-values.js';

/** The batch and its lines: DepositAmt sums the lines' PayAmt. */
export const DEPOSIT_BATCH: BalanceDocument = { header: 'c_depositbatch', key: 'c_depositbatch_id', line: 'c_depositbatchline', amount: 'payamt' };

/**
 * Why a payment cannot be deposited with a batch, or null: it must be completed, of the batch's
 * bank account and currency, not reconciled, and on no other batch still in force. `p` is a row of
 * paymentCheckSql().
 */
export function paymentProblem(p: Record<string, unknown>, batch: { id: number; bankAccount: number; currency: number | null }): string | null {
  const name = `payment ${String(p.documentno)}`;
  if (p.docstatus !== 'CO' && p.docstatus !== 'CL') return `${name} is not completed (status ${String(p.docstatus)})`;
  if (Number(p.c_bankaccount_id) !== batch.bankAccount) return `${name} is of another bank account`;
  if (batch.currency !== null && Number(p.c_currency_id) !== batch.currency) return `${name} is in another currency than the batch`;
  if (p.isreconciled === 'Y') return `${name} is already reconciled`;
  if (p.other_batch !== null && p.other_batch !== undefined && Number(p.other_batch) !== batch.id) return `${name} is in deposit batch ${String(p.other_batch_no)}`;
  return null;
}

/**
 * A payment with what a deposit checks: its signed amount, and the batch in force (not voided)
 * it is deposited with or listed on, other than the batch $2. A function, not a constant: the
 * payment amount's expression comes from a module in an import cycle with this one, not yet
 * evaluated when this module is.
 */
export const paymentCheckSql = (): string => `SELECT p.c_payment_id, p.documentno, p.docstatus, p.c_bankaccount_id, p.c_currency_id, p.isreconciled, ${PAYMENT_AMOUNT_SQL} AS amount,
    o.c_depositbatch_id AS other_batch, o.documentno AS other_batch_no
   FROM c_payment p
   LEFT JOIN LATERAL (SELECT b.c_depositbatch_id, b.documentno FROM c_depositbatch b
                       WHERE b.c_depositbatch_id <> $2 AND b.docstatus NOT IN ('VO', 'RE')
                         AND (b.c_depositbatch_id = p.c_depositbatch_id
                              OR EXISTS (SELECT 1 FROM c_depositbatchline x WHERE x.c_depositbatch_id = b.c_depositbatch_id AND x.c_payment_id = p.c_payment_id AND x.isactive = 'Y'))
                       LIMIT 1) o ON true`;

/** A new batch: the client's Bank Statement (CMB) document type, today's dates, the bank account's currency, no amount yet. */
export async function depositBatchBeforeSave(e: ModelEvent): Promise<void> {
  if (e.type === 'before-new') {
    fillEmpty(e, 'c_doctype_id', await docTypeOfBase(e.tx, e.row.ad_client_id, 'CMB'));
    fillEmpty(e, 'datedoc', todayDate());
    fillEmpty(e, 'datedeposit', e.row.datedoc);
    e.row.depositamt = 0;
  }
  const account = idOf(e.row.c_bankaccount_id);
  if (account === null || !(e.type === 'before-new' || e.changed.has('c_bankaccount_id'))) return;
  if (e.type === 'before-change') {
    // The lines' payments are of the bank account the batch had (the original refuses a currency change once there are lines).
    const { rows } = await e.tx.query('SELECT 1 FROM c_depositbatchline WHERE c_depositbatch_id = $1 LIMIT 1', [e.row.c_depositbatch_id]);
    if (rows.length) throw invalid('The bank account of a deposit batch with lines cannot change (column C_BankAccount_ID)');
  }
  const { rows } = await e.tx.query<{ c: number }>('SELECT c_currency_id AS c FROM c_bankaccount WHERE c_bankaccount_id = $1', [account]);
  if (rows[0]) e.row.c_currency_id = rows[0].c;
}

const LINE_HEADER_SQL = `SELECT processed, documentno, c_bankaccount_id, c_currency_id, ad_client_id, ad_org_id FROM c_depositbatch WHERE c_depositbatch_id = $1`;

/**
 * A batch line: the batch's organization (a line written changes the batch, so the role must
 * be able to write the batch), its number, and its payment checked, with the payment's signed
 * amount as PayAmt (the original's MDepositBatchLine).
 */
export async function depositBatchLineBeforeSave(e: ModelEvent): Promise<void> {
  const header = await lineHeader(e, DEPOSIT_BATCH, LINE_HEADER_SQL);
  if (!header) return;
  assertWritableRow(e.auth, e.table, Number(header.ad_client_id), Number(header.ad_org_id), 'update');
  if (e.type === 'before-new' && !e.given?.has('ad_org_id')) e.row.ad_org_id = header.ad_org_id;
  if (header.processed === 'Y') throw invalid(`C_DepositBatch ${String(header.documentno ?? '')} is processed: its lines cannot change (column C_DepositBatch_ID)`);
  if (e.type === 'before-new') await numberLine(e, DEPOSIT_BATCH);
  const payment = idOf(e.row.c_payment_id);
  if (payment === null || !(e.type === 'before-new' || e.changed.has('c_payment_id'))) return;
  const { rows } = await e.tx.query<Record<string, unknown>>(`${paymentCheckSql()} WHERE p.c_payment_id = $1 AND p.ad_client_id = $3`, [payment, e.row.c_depositbatch_id, e.row.ad_client_id]);
  const p = rows[0];
  if (!p) return;
  const batch = { id: Number(e.row.c_depositbatch_id), bankAccount: Number(header.c_bankaccount_id), currency: idOf(header.c_currency_id) };
  const problem = paymentProblem(p, batch);
  if (problem) throw invalid(`${problem[0]!.toUpperCase()}${problem.slice(1)} (column C_Payment_ID)`);
  const { rows: twice } = await e.tx.query(
    'SELECT 1 FROM c_depositbatchline WHERE c_depositbatch_id = $1 AND c_payment_id = $2 AND isactive = \'Y\' AND c_depositbatchline_id IS DISTINCT FROM $3 LIMIT 1',
    [e.row.c_depositbatch_id, payment, e.row.c_depositbatchline_id ?? null],
  );
  if (twice.length) throw invalid(`Payment ${String(p.documentno)} is already on this deposit batch (column C_Payment_ID)`);
  e.row.payamt = p.amount;
}

/** After a line is written or deleted, the batch's DepositAmt, once per write operation. */
export function depositAmountAfterLineSave(e: ModelEvent): void {
  const id = idOf(e.row.c_depositbatch_id ?? e.old?.c_depositbatch_id);
  if (id === null) return;
  e.defer(`totals:c_depositbatch:${id}`, async () => {
    await e.tx.query(
      `UPDATE c_depositbatch SET depositamt = (SELECT COALESCE(sum(payamt), 0) FROM c_depositbatchline WHERE c_depositbatch_id = $1 AND isactive = 'Y') WHERE c_depositbatch_id = $1`,
      [id],
    );
    e.memo.forget('c_depositbatch');
  });
}
