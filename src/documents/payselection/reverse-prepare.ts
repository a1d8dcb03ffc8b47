import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { nowTimestamp } from '../row-values.js';
import { selectionOf } from './selection.js';

/**
 * Reverse Prepare Payment (the original's PaySelectionCheckReverse, 200136): while none of its
 * prepared payments has a payment yet, deletes them and opens the selection and its lines again.
 */
export async function paySelectionReversePrepare(c: ProcessCall): Promise<ProcessOutcome> {
  const { id } = await selectionOf(c);
  const { rows } = await c.tx.query<{ prepared: number; paid: number }>(
    `SELECT count(*)::int AS prepared, count(c_payment_id)::int AS paid FROM c_payselectioncheck WHERE c_payselection_id = $1`,
    [id],
  );
  if (rows[0]!.paid > 0) throw badRequest('Invalid parameter', 'Payments of the payment selection are made already: reverse those payments instead');
  const stamp = [nowTimestamp(), c.auth.userId];
  await c.tx.query(`UPDATE c_payselectionline SET c_payselectioncheck_id = NULL, processed = 'N', updated = $2::timestamp, updatedby = $3 WHERE c_payselection_id = $1`, [id, ...stamp]);
  await c.tx.query(`DELETE FROM c_payselectioncheck WHERE c_payselection_id = $1`, [id]);
  await c.tx.query(`UPDATE c_payselection SET processed = 'N', updated = $2::timestamp, updatedby = $3 WHERE c_payselection_id = $1`, [id, ...stamp]);
  return { summary: `Prepared payments deleted: #${rows[0]!.prepared}` };
}
