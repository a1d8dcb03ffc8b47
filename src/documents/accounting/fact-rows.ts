import type { Row } from '../../events/model-events.js';
import { docId } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { nowTimestamp } from '../row-values.js';
import { accountSchema } from './facts.js';

export interface FactRowsPosting {
  periodId: number;
  dateAcct: unknown;
  glCategoryId: number | null;
  /** CTEs (without WITH) the facts are selected from; they use the caller's parameters. */
  ctes: string;
  /**
   * Selects the facts: ad_org_id, account_id (C_ElementValue_ID), dr, cr, qty, line_id,
   * m_product_id and ord (their order). Each pair of rows it gives must balance.
   */
  facts: string;
  /** The caller's parameters ($1, $2, ...). */
  params: unknown[];
  /** A last SELECT over the CTEs whose rows are answered (a check of the lines). */
  answer?: string;
}

/**
 * Writes the facts of a stock document computed in SQL, in one statement however many lines it
 * has (a count of thousands of lines would pass the parameter limit of one INSERT of values, see
 * postFacts): Fact_Acct rows of PostingType A in the schema's currency, source and accounted
 * amounts equal; rows of zero amount are left out. Marks the document posted.
 */
export async function postFactRows(d: DocumentContext, p: FactRowsPosting): Promise<Row[]> {
  const schema = await accountSchema(d);
  const n = p.params.length;
  const at = (i: number) => `$${n + i}`;
  const { rows } = await d.wc.tx.query<Row>(
    `WITH ${p.ctes}, f AS (${p.facts}), facts AS (
       INSERT INTO fact_acct (fact_acct_id, fact_acct_uu, ad_client_id, ad_org_id, c_acctschema_id, ad_table_id, record_id, c_period_id, dateacct, datetrx,
         c_currency_id, gl_category_id, c_bpartner_id, account_id, amtsourcedr, amtsourcecr, amtacctdr, amtacctcr, line_id, m_product_id, c_tax_id, qty,
         description, postingtype, isactive, created, createdby, updated, updatedby)
       SELECT nextval('fact_acct_sq'), gen_random_uuid()::text, ${at(1)}, f.ad_org_id, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}, ${at(6)}::timestamp, ${at(6)}::timestamp,
              ${at(7)}, ${at(8)}, NULL, f.account_id, f.dr, f.cr, f.dr, f.cr, f.line_id, f.m_product_id, NULL, f.qty, NULL, 'A', 'Y',
              ${at(9)}::timestamp, ${at(10)}, ${at(9)}::timestamp, ${at(10)}
         FROM f WHERE f.dr <> 0 OR f.cr <> 0 ORDER BY f.ord
     )
     ${p.answer ?? 'SELECT 1'}`,
    [...p.params, d.row.ad_client_id, schema.schemaId, d.table.id, docId(d), p.periodId, p.dateAcct, schema.currencyId, p.glCategoryId ?? 0, nowTimestamp(), d.wc.auth.userId],
    { name: `doc_fact_rows_${d.table.dbName}` },
  );
  d.changes.posted = 'Y';
  return rows;
}
