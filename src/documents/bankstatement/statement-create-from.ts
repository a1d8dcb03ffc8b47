import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { insertRecords } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import { OPEN_PAYMENTS_WHERE } from './statement-matcher.js';
import { draftStatementOf } from './statement-process-target.js';

/**
 * The open payments of the bank account (as the matcher finds them) with an amount, oldest first;
 * $3 and $4 bound their transaction date (either may be null).
 */
const PAYMENTS_IN_RANGE_SQL = `SELECT p.c_payment_id AS id, to_char(p.datetrx, 'YYYY-MM-DD') AS day
   FROM c_payment p
  WHERE ${OPEN_PAYMENTS_WHERE} AND p.payamt <> 0
    AND ($3::timestamp IS NULL OR p.datetrx::date >= $3::timestamp::date)
    AND ($4::timestamp IS NULL OR p.datetrx::date <= $4::timestamp::date)
  ORDER BY p.datetrx, p.c_payment_id`;

const dateParam = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * Create Lines from Payments (the original's Create From of a bank statement): a draft statement
 * gets a line per payment of its bank account that no statement in force shows yet and that is
 * not reconciled, within the DateTrx range when given. Each line is written as a client's line
 * naming the payment would be: dated on the payment's transaction date, with the payment's
 * amount, partner and invoice, the statement's balance following.
 */
export async function statementCreateFromPayments(c: ProcessCall): Promise<ProcessOutcome> {
  const dict = c.s.dictionary.current;
  const { table, statement } = await draftStatementOf(c, 'no lines can be added');
  const range = c.param('DateTrx');
  const from = dateParam(range?.value);
  const to = dateParam(range?.to);
  const payments = (await c.tx.query<{ id: number; day: string }>(PAYMENTS_IN_RANGE_SQL, [statement.c_bankaccount_id, statement.ad_client_id, from, to])).rows;
  if (!payments.length) return { summary: 'Created 0 lines' };
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const bodies = payments.map((p) => ({ C_Payment_ID: Number(p.id), StatementLineDate: p.day, ValutaDate: p.day }));
  await insertRecords(wc, dict.byName.get('c_bankstatementline')!, bodies, { table, row: statement });
  await wc.deferred.flush();
  return { summary: `Created ${payments.length} line${payments.length === 1 ? '' : 's'}` };
}
