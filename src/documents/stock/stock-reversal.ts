import { ident } from '../../db/sql.js';
import { postReversingFacts } from '../accounting/facts.js';
import { postStandardReversalDifference } from '../costadjust/standard-reversal.js';
import { docId, periodOf, requireOpenPeriod } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { createReversal, type ReversalDetail } from '../engine/reversal.js';
import { todayDate } from '../row-values.js';

/** Void of a completed move or count reverses it by accrual (today) when its movement date's period is closed. */
export async function accrualOnVoidByMovementDate(d: DocumentContext): Promise<boolean> {
  return !(await periodOf(d, 'movementdate')).open;
}

/**
 * Reverses a completed move or count, as the original's reverse-correct (on its own movement
 * date) and reverse-accrual (today): a copy numbered "<number>^" whose lines `lines` negates,
 * adjusted by `adjust`, whose stock `move` applies, and whose facts are the original's negated
 * (with the difference a standard cost changed since, see postStandardReversalDifference).
 */
export async function reverseStockDocument(
  d: DocumentContext,
  accrual: boolean,
  lines: ReversalDetail,
  move: (reversalId: number, date: unknown) => Promise<void>,
  adjust?: (reversalId: number) => Promise<void>,
): Promise<void> {
  const date = accrual ? todayDate() : d.row.movementdate;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, movementdate: date } }, 'movementdate');
  const reversalId = await createReversal(d, [lines], [], date);
  const table = ident(d.table.dbName);
  const key = ident(d.table.keyColumn!.dbName);
  if (accrual) await d.wc.tx.query(`UPDATE ${table} SET movementdate = $2::timestamp WHERE ${key} = $1`, [reversalId, date]);
  if (adjust) await adjust(reversalId);
  await move(reversalId, date);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await postStandardReversalDifference(d, lines.table, reversalId, date, periodId);
  await d.wc.tx.query(`UPDATE ${table} SET posted = 'Y' WHERE ${key} = $1`, [reversalId]);
  d.changes.posted = d.row.posted;
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}
