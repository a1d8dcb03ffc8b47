import { badRequest } from '../../errors.js';
import type { ProcessCall } from '../../processes/runner.js';
import { dateParam, idParam } from './params.js';

/** The accounting schema a ledger report reads: the parameter's, else the client's primary one. */
export async function acctSchemaOf(c: ProcessCall): Promise<number> {
  const given = idParam(c, 'C_AcctSchema_ID');
  const { rows } = await c.tx.query<{ id: string | null }>(
    `SELECT CASE WHEN $1::numeric IS NULL
                 THEN COALESCE((SELECT ci.c_acctschema1_id FROM ad_clientinfo ci WHERE ci.ad_client_id = $2),
                               (SELECT min(a.c_acctschema_id) FROM c_acctschema a WHERE a.ad_client_id = $2))
                 ELSE (SELECT a.c_acctschema_id FROM c_acctschema a WHERE a.c_acctschema_id = $1 AND a.ad_client_id = $2) END AS id`,
    [given, c.auth.clientId],
  );
  if (!rows[0]?.id) throw badRequest('Invalid parameter', given !== null ? `No accounting schema ${given} of this client` : 'The client has no accounting schema');
  return Number(rows[0].id);
}

/** A standard period of the client's calendar. */
export interface PeriodInfo {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  yearId: number;
}

const PERIOD_COLUMNS = `p.c_period_id AS id, p.name, to_char(p.startdate, 'YYYY-MM-DD') AS start, to_char(p.enddate, 'YYYY-MM-DD') AS end, p.c_year_id AS year`;
const toPeriod = (r: Record<string, unknown>): PeriodInfo => ({ id: Number(r.id), name: String(r.name), startDate: String(r.start), endDate: String(r.end), yearId: Number(r.year) });

/** The client's period by id; 400 when it is not one of the client's. */
export async function periodById(c: ProcessCall, id: number): Promise<PeriodInfo> {
  const { rows } = await c.tx.query<Record<string, unknown>>(`SELECT ${PERIOD_COLUMNS} FROM c_period p WHERE p.c_period_id = $1 AND p.ad_client_id = $2 AND p.isactive = 'Y'`, [id, c.auth.clientId]);
  if (!rows[0]) throw badRequest('Invalid parameter', `No period ${id} of this client`);
  return toPeriod(rows[0]);
}

/** The client's standard period holding a date, or null. */
export async function periodOfDate(c: ProcessCall, date: string): Promise<PeriodInfo | null> {
  const { rows } = await c.tx.query<Record<string, unknown>>(
    `SELECT ${PERIOD_COLUMNS} FROM c_period p WHERE p.ad_client_id = $1 AND p.isactive = 'Y' AND COALESCE(p.periodtype, 'S') = 'S'
        AND p.startdate <= $2::date AND p.enddate >= $2::date ORDER BY p.startdate DESC LIMIT 1`,
    [c.auth.clientId, date],
  );
  return rows[0] ? toPeriod(rows[0]) : null;
}

/**
 * The dates a ledger report covers: the period's when C_Period_ID is given, else the DateAcct
 * range (open ends allowed); 400 when the range is reversed.
 */
export async function dateRangeOf(c: ProcessCall): Promise<{ from: string | null; to: string | null }> {
  const periodId = idParam(c, 'C_Period_ID');
  if (periodId !== null) {
    const p = await periodById(c, periodId);
    return { from: p.startDate, to: p.endDate };
  }
  const from = dateParam(c, 'DateAcct');
  const to = dateParam(c, 'DateAcct', 'to');
  if (from && to && from > to) throw badRequest('Invalid parameter', `The account date range ends (${to}) before it starts (${from})`);
  return { from, to };
}
