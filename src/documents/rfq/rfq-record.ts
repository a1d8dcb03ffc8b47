import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest, notFound } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import type { ProcessCall } from '../../processes/runner.js';

/** The RfQ a process runs on (its record), as the caller may read it; locked for the run. */
export async function rfqOfCall(c: ProcessCall): Promise<Row> {
  const table = c.s.dictionary.current.byName.get('c_rfq')!;
  if (!c.record || c.record.table !== table) throw badRequest('Invalid parameter', 'The process runs on a request for quotation (C_RfQ): give its record');
  const sql = new SqlBuilder();
  const where = `r.c_rfq_id = ${sql.param(c.record.id)} AND r.ad_client_id = ${sql.param(c.auth.clientId)} AND ${readPredicate(c.auth, table, 'r', sql)}`;
  const { rows } = await c.tx.query<Row>(`SELECT r.* FROM c_rfq r WHERE ${where} FOR UPDATE`, sql.values);
  if (!rows[0]) throw notFound('Not found', `No RfQ ${c.record.id}`);
  return rows[0];
}

/** A response quantity's net amount: its price less its discount percentage. */
export function netAmount(price: unknown, discount: unknown): number {
  const p = Number(price ?? 0);
  return p - (p * Number(discount ?? 0)) / 100;
}

/** The complete, active responses of an RfQ, cheapest total first. */
export async function completeResponses(c: ProcessCall, rfqId: number): Promise<Row[]> {
  const { rows } = await c.tx.query<Row>(
    `SELECT * FROM c_rfqresponse WHERE c_rfq_id = $1 AND iscomplete = 'Y' AND isactive = 'Y' ORDER BY price, c_rfqresponse_id FOR UPDATE`,
    [rfqId],
  );
  return rows;
}

/** Quote total only asks for one quantity per line: an RfQ of that type with more is refused, as the original. */
export async function assertQuoteTotalValid(c: ProcessCall, rfq: Row): Promise<void> {
  if (rfq.quotetype !== 'T') return;
  const { rows } = await c.tx.query<{ line: number; n: number }>(
    `SELECT l.line, count(*)::int AS n FROM c_rfqline l JOIN c_rfqlineqty q ON q.c_rfqline_id = l.c_rfqline_id AND q.isactive = 'Y'
      WHERE l.c_rfq_id = $1 AND l.isactive = 'Y' GROUP BY l.c_rfqline_id, l.line HAVING count(*) > 1 ORDER BY l.line LIMIT 1`,
    [rfq.c_rfq_id],
  );
  if (rows[0]) throw badRequest('Invalid RfQ', `Line ${rows[0].line}: ${rows[0].n} quantities, but an RfQ quoting the total only has one quantity per line`);
}
