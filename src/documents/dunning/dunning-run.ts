import type { Row } from '../../events/model-events.js';
import type { ProcessCall } from '../../processes/runner.js';
import type { WriteContext } from '../../records/write/write-context.js';
import { processRecordOf } from '../process-record.js';

/** The dunning run a process runs on (its record), locked and writable by the caller. */
export async function dunningRunOf(c: ProcessCall): Promise<{ wc: WriteContext; run: Row; id: number }> {
  const { wc, row, id } = await processRecordOf(c, 'c_dunningrun', 'a dunning run');
  return { wc, run: row, id };
}

/** The amount and count of an entry follow its lines (the original's MDunningRunLine.updateEntry: fees count in the amount, not as items). */
export async function refreshEntries(wc: WriteContext, runId: number): Promise<void> {
  await wc.tx.query(
    `UPDATE c_dunningrunentry e SET amt = COALESCE((SELECT sum(l.convertedamt) + sum(l.feeamt) + sum(l.interestamt) FROM c_dunningrunline l WHERE l.c_dunningrunentry_id = e.c_dunningrunentry_id), 0),
            qty = (SELECT count(*) FROM c_dunningrunline l WHERE l.c_dunningrunentry_id = e.c_dunningrunentry_id AND (l.c_invoice_id IS NOT NULL OR l.c_payment_id IS NOT NULL))
      WHERE e.c_dunningrun_id = $1`,
    [runId],
  );
}
