import type { Queryable } from '../../db/types.js';
import type { Row } from '../../events/model-events.js';
import type { ProcessCall } from '../../processes/runner.js';
import type { WriteContext } from '../../records/write/write-context.js';
import { processRecordOf } from '../process-record.js';

export interface SelectionRun {
  wc: WriteContext;
  selection: Row;
  id: number;
}

/** The payment selection a process runs on (its record), locked and writable by the caller. */
export async function selectionOf(c: ProcessCall): Promise<SelectionRun> {
  const { wc, row, id } = await processRecordOf(c, 'c_payselection', 'a payment selection');
  return { wc, selection: row, id };
}

/** The selection's total follows its active lines' pay amounts (the original's line after-save). */
export async function refreshSelectionTotal(wc: { tx: Queryable }, selectionId: number): Promise<void> {
  await wc.tx.query(
    `UPDATE c_payselection s SET totalamt = COALESCE((SELECT sum(l.payamt) FROM c_payselectionline l WHERE l.c_payselection_id = s.c_payselection_id AND l.isactive = 'Y'), 0)
      WHERE s.c_payselection_id = $1`,
    [selectionId],
  );
}
