import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { nowTimestamp } from '../row-values.js';
import { dunningRunOf } from './dunning-run.js';

/**
 * Process Dunning Run: the run, its entries and lines are processed, and each dunned invoice takes
 * the level it was dunned at and the collection status Dunning (the level's own collection type,
 * none for a statement level), as the original's processed run lines do. A level that sets a credit
 * stop stops the partner's credit; one that sets a payment term gives it to the invoices.
 */
export async function dunningRunProcess(c: ProcessCall): Promise<ProcessOutcome> {
  const { run, id } = await dunningRunOf(c);
  if (run.processed === 'Y') throw badRequest('Invalid parameter', 'The dunning run is already processed');
  const { rows } = await c.tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM c_dunningrunentry WHERE c_dunningrun_id = $1 AND isactive = 'Y'`, [id]);
  if (!rows[0]?.n) throw badRequest('Invalid parameter', 'The dunning run has no entries (run Create Dunning Run first)');
  const stamp = [nowTimestamp(), c.auth.userId];
  const { rows: invoices } = await c.tx.query(
    `UPDATE c_invoice i SET c_dunninglevel_id = x.level,
            invoicecollectiontype = COALESCE(x.collection, CASE WHEN x.statement = 'Y' THEN i.invoicecollectiontype ELSE 'D' END),
            c_paymentterm_id = CASE WHEN x.setterm = 'Y' AND x.term IS NOT NULL THEN x.term ELSE i.c_paymentterm_id END,
            updated = $2::timestamp, updatedby = $3
       FROM (SELECT DISTINCT l.c_invoice_id, dl.c_dunninglevel_id AS level, dl.invoicecollectiontype AS collection, dl.isstatement AS statement,
                    dl.issetpaymentterm AS setterm, dl.c_paymentterm_id AS term
               FROM c_dunningrunline l JOIN c_dunningrunentry e ON e.c_dunningrunentry_id = l.c_dunningrunentry_id
               JOIN c_dunninglevel dl ON dl.c_dunninglevel_id = e.c_dunninglevel_id
              WHERE e.c_dunningrun_id = $1 AND l.c_invoice_id IS NOT NULL AND l.isactive = 'Y') x
      WHERE i.c_invoice_id = x.c_invoice_id RETURNING i.c_invoice_id`,
    [id, ...stamp],
  );
  await c.tx.query(
    `UPDATE c_bpartner bp SET socreditstatus = 'S', updated = $2::timestamp, updatedby = $3
      WHERE bp.c_bpartner_id IN (SELECT e.c_bpartner_id FROM c_dunningrunentry e JOIN c_dunninglevel dl ON dl.c_dunninglevel_id = e.c_dunninglevel_id
                                  WHERE e.c_dunningrun_id = $1 AND dl.issetcreditstop = 'Y')`,
    [id, ...stamp],
  );
  await c.tx.query(
    `UPDATE c_dunningrunline SET processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_dunningrunentry_id IN (SELECT c_dunningrunentry_id FROM c_dunningrunentry WHERE c_dunningrun_id = $1)`,
    [id, ...stamp],
  );
  await c.tx.query(`UPDATE c_dunningrunentry SET processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_dunningrun_id = $1`, [id, ...stamp]);
  await c.tx.query(`UPDATE c_dunningrun SET processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_dunningrun_id = $1`, [id, ...stamp]);
  return { summary: `Dunning run processed: ${invoices.length} invoices dunned` };
}
