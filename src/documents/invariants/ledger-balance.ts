import type { Queryable } from '../../db/types.js';
import { text, type Violation } from './violation.js';

/** Documents (AD_Table_ID, Record_ID) per accounting schema whose accounted debits and credits differ. */
const ACCOUNTED_SQL = `SELECT f.c_acctschema_id, f.ad_table_id, f.record_id, sum(f.amtacctdr)::text AS dr, sum(f.amtacctcr)::text AS cr
  FROM fact_acct f
 WHERE f.ad_client_id = $1 AND f.postingtype = 'A'
 GROUP BY f.c_acctschema_id, f.ad_table_id, f.record_id
HAVING sum(f.amtacctdr) <> sum(f.amtacctcr)
 ORDER BY f.ad_table_id, f.record_id`;

/**
 * The same per source currency: a document's source amounts in each currency balance (a fact that
 * carries only an accounted amount, as a rounding correction, has no source amount).
 */
const SOURCE_SQL = `SELECT f.c_acctschema_id, f.ad_table_id, f.record_id, f.c_currency_id, sum(f.amtsourcedr)::text AS dr, sum(f.amtsourcecr)::text AS cr
  FROM fact_acct f
 WHERE f.ad_client_id = $1 AND f.postingtype = 'A'
 GROUP BY f.c_acctschema_id, f.ad_table_id, f.record_id, f.c_currency_id
HAVING sum(f.amtsourcedr) <> sum(f.amtsourcecr)
 ORDER BY f.ad_table_id, f.record_id, f.c_currency_id`;

interface Row {
  c_acctschema_id: number;
  ad_table_id: number;
  record_id: number;
  c_currency_id?: number;
  dr: string;
  cr: string;
}

/** (a) Debits equal credits per document and accounting schema, accounted and per source currency. */
export async function unbalancedDocuments(q: Queryable, clientId: number): Promise<Violation[]> {
  const accounted = await q.query<Row>(ACCOUNTED_SQL, [clientId]);
  const source = await q.query<Row>(SOURCE_SQL, [clientId]);
  const subject = (r: Row) => ({ schema: Number(r.c_acctschema_id), table: Number(r.ad_table_id), record: Number(r.record_id) });
  return [
    ...accounted.rows.map((r) => ({ check: 'balanced-document' as const, subject: subject(r), expected: text(r.dr), actual: text(r.cr), detail: `accounted debits ${r.dr}, credits ${r.cr}` })),
    ...source.rows.map((r) => ({
      check: 'balanced-source' as const,
      subject: { ...subject(r), currency: Number(r.c_currency_id) },
      expected: text(r.dr),
      actual: text(r.cr),
      detail: `source debits ${r.dr}, credits ${r.cr} in currency ${String(r.c_currency_id)}`,
    })),
  ];
}
