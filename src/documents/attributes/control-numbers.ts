import type { Queryable } from '../../db/types.js';
import { nowTimestamp } from '../row-values.js';
import { controlNumber } from './instance-description.js';

const NEXT_SQL = {
  m_lotctl: `UPDATE m_lotctl SET currentnext = currentnext + incrementno, updated = $3::timestamp
              WHERE m_lotctl_id = $1 AND ad_client_id IN (0, $2) AND isactive = 'Y'
             RETURNING prefix, currentnext - incrementno AS no, suffix`,
  m_sernoctl: `UPDATE m_sernoctl SET currentnext = currentnext + incrementno, updated = $3::timestamp
                WHERE m_sernoctl_id = $1 AND ad_client_id IN (0, $2) AND isactive = 'Y'
               RETURNING prefix, currentnext - incrementno AS no, suffix`,
} as const;

/**
 * Takes the next number of a lot control (M_LotCtl) or serial number control (M_SerNoCtl) of the
 * client, as the original's MLotCtl.createLot and MSerNoCtl.createSerNo: prefix, CurrentNext and
 * suffix, CurrentNext then raised by IncrementNo in the same statement (the row lock orders
 * concurrent takers). Null when the control is not the client's or not active.
 */
export async function takeControlNumber(q: Queryable, table: keyof typeof NEXT_SQL, controlId: number, clientId: number): Promise<string | null> {
  const { rows } = await q.query<{ prefix: string | null; no: string; suffix: string | null }>(NEXT_SQL[table], [controlId, clientId, nowTimestamp()], { name: `attr_next_${table}` });
  const r = rows[0];
  return r ? controlNumber(r.prefix, r.no, r.suffix) : null;
}
