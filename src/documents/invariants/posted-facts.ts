import type { Queryable } from '../../db/types.js';
import type { Violation } from './violation.js';
import { CASH_TRANSFER } from './partner-balances.js';

const TABLE_ID = (name: string) => `(SELECT t.ad_table_id FROM ad_table t WHERE lower(t.tablename) = '${name}')`;

/** Documents of a table: their id, number, Posted flag and whether they have an amount that must post. */
const DOCUMENTS = `
  SELECT ${TABLE_ID('c_invoice')} AS ad_table_id, c_invoice_id AS id, documentno, posted, grandtotal <> 0 AS must_post FROM c_invoice WHERE ad_client_id = $1
  UNION ALL SELECT ${TABLE_ID('c_payment')}, p.c_payment_id, p.documentno, p.posted, p.payamt <> 0 AND NOT ${CASH_TRANSFER('p')} FROM c_payment p WHERE p.ad_client_id = $1
  UNION ALL SELECT ${TABLE_ID('m_inout')}, m_inout_id, documentno, posted, false FROM m_inout WHERE ad_client_id = $1
  UNION ALL SELECT ${TABLE_ID('c_allocationhdr')}, c_allocationhdr_id, documentno, posted, false FROM c_allocationhdr WHERE ad_client_id = $1
  UNION ALL SELECT ${TABLE_ID('m_matchinv')}, m_matchinv_id, documentno, posted, false FROM m_matchinv WHERE ad_client_id = $1
  UNION ALL SELECT ${TABLE_ID('c_cash')}, c.c_cash_id, c.name, c.posted, c.docstatus IN ('CO', 'CL', 'RE', 'VO')
      AND EXISTS (SELECT 1 FROM c_cashline l WHERE l.c_cash_id = c.c_cash_id AND l.isactive = 'Y' AND l.amount <> 0) FROM c_cash c WHERE c.ad_client_id = $1`;

/**
 * Posted documents with an amount (invoices, payments but a cash journal's transfer payments,
 * cash journals with a line of an amount) that have no facts, and facts of documents that are not posted. Posted documents without facts
 * are otherwise right: a shipment at no cost, an allocation of an invoice with its reversal, a
 * match of a service post nothing.
 */
const POSTED_SQL = `WITH d AS (${DOCUMENTS}), f AS (SELECT DISTINCT ad_table_id, record_id FROM fact_acct WHERE ad_client_id = $1 AND postingtype = 'A')
  SELECT d.ad_table_id, d.id, d.documentno, d.posted, f.record_id IS NOT NULL AS has_facts
    FROM d LEFT JOIN f ON f.ad_table_id = d.ad_table_id AND f.record_id = d.id
   WHERE (d.posted = 'Y' AND d.must_post AND f.record_id IS NULL) OR (COALESCE(d.posted, 'N') <> 'Y' AND f.record_id IS NOT NULL)
   ORDER BY 1, 2`;

/** (e) Posted documents have their facts, and only posted documents have facts. */
export async function postingDifferences(q: Queryable, clientId: number): Promise<Violation[]> {
  const { rows } = await q.query<{ ad_table_id: number; id: number; documentno: string; posted: string | null; has_facts: boolean }>(POSTED_SQL, [clientId]);
  return rows.map((r) => ({
    check: 'posted-facts',
    subject: { table: Number(r.ad_table_id), record: Number(r.id), documentNo: r.documentno },
    expected: r.has_facts ? 'posted' : 'facts',
    actual: r.has_facts ? `Posted ${r.posted ?? 'null'}` : 'no facts',
    detail: r.has_facts ? `document ${r.documentno} has facts but is not posted` : `document ${r.documentno} is posted with an amount and has no facts`,
  }));
}
