import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { rfqOfCall } from './rfq-record.js';

/** Close RfQ (the original's RfQClose): the RfQ and its responses are processed and take no more responses. */
export async function closeRfq(c: ProcessCall): Promise<ProcessOutcome> {
  const rfq = await rfqOfCall(c);
  await c.tx.query(`UPDATE c_rfq SET processed = 'Y', isrfqresponseaccepted = 'N', updated = now(), updatedby = $2 WHERE c_rfq_id = $1`, [rfq.c_rfq_id, c.auth.userId]);
  const { rowCount } = await c.tx.query(`UPDATE c_rfqresponse SET processed = 'Y', updated = now(), updatedby = $2 WHERE c_rfq_id = $1 AND processed = 'N'`, [rfq.c_rfq_id, c.auth.userId]);
  return { summary: `RfQ ${String(rfq.documentno)} closed with ${rowCount ?? 0} response(s)` };
}
