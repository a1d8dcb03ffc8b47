import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { buildReport, type CellValue, type ReportColumn } from '../report-model.js';
import { describeParams, MAX_REPORT_ROWS, reportOutcome } from '../report-process.js';
import { acctSchemaOf, dateRangeOf } from './ledger-scope.js';
import { idConditions } from './params.js';

const COLUMNS: ReportColumn[] = [
  { name: 'Account', label: 'Account', type: 'text', sum: false },
  { name: 'DateAcct', label: 'Account Date', type: 'date', sum: false },
  { name: 'TableName', label: 'Document', type: 'text', sum: false },
  { name: 'Record_ID', label: 'Record ID', type: 'number', sum: false },
  { name: 'BPartner', label: 'Business Partner', type: 'text', sum: false },
  { name: 'Description', label: 'Description', type: 'text', sum: false },
  { name: 'AmtAcctDr', label: 'Debit', type: 'amount', sum: true },
  { name: 'AmtAcctCr', label: 'Credit', type: 'amount', sum: true },
  { name: 'Balance', label: 'Balance', type: 'amount', sum: false },
];

/**
 * General ledger detail: the actual accounting facts of each account in the date range (or
 * period), in date order, with the account's running balance (debit less credit) that starts
 * from its balance before the range.
 */
export async function generalLedgerDetail(c: ProcessCall): Promise<ProcessOutcome> {
  const schemaId = await acctSchemaOf(c);
  const { from, to } = await dateRangeOf(c);
  const factTable = c.s.dictionary.current.byName.get('fact_acct')!;
  const sql = new SqlBuilder();
  const where = [`f.c_acctschema_id = ${sql.param(schemaId)}`, `f.postingtype = 'A'`, `f.isactive = 'Y'`, readPredicate(c.auth, factTable, 'f', sql)];
  if (to) where.push(`f.dateacct < ${sql.param(to)}::date + 1`);
  where.push(...idConditions(c, sql, [['Account_ID', 'f.account_id'], ['AD_Org_ID', 'f.ad_org_id'], ['C_BPartner_ID', 'f.c_bpartner_id']]));
  const shown = from ? `x.dateacct >= ${sql.param(from)}::date` : 'TRUE';
  const { rows } = await c.tx.query<Record<string, CellValue>>(
    `SELECT ev.value || ' ' || ev.name AS account, to_char(x.dateacct, 'YYYY-MM-DD') AS dateacct, t.tablename, x.record_id::float8 AS record_id,
            bp.name AS bpartner, x.description, x.amtacctdr::float8 AS amtacctdr, x.amtacctcr::float8 AS amtacctcr, x.balance::float8 AS balance
       FROM (SELECT f.fact_acct_id, f.account_id, f.dateacct, f.ad_table_id, f.record_id, f.c_bpartner_id, f.description, f.amtacctdr, f.amtacctcr,
                    sum(f.amtacctdr - f.amtacctcr) OVER (PARTITION BY f.account_id ORDER BY f.dateacct, f.fact_acct_id) AS balance
               FROM fact_acct f WHERE ${where.join(' AND ')}) x
       JOIN c_elementvalue ev ON ev.c_elementvalue_id = x.account_id
       LEFT JOIN ad_table t ON t.ad_table_id = x.ad_table_id
       LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = x.c_bpartner_id
      WHERE ${shown}
      ORDER BY ev.value, x.dateacct, x.fact_acct_id
      LIMIT ${MAX_REPORT_ROWS + 1}`,
    sql.values,
  );
  if (rows.length > MAX_REPORT_ROWS) throw badRequest('Invalid parameter', `More than ${MAX_REPORT_ROWS} facts match; narrow the parameters`);
  const keys = COLUMNS.map((col) => col.name.toLowerCase());
  const data = buildReport({
    title: c.def.name,
    subtitle: describeParams(c),
    columns: COLUMNS,
    rows: rows.map((r) => keys.map((k) => r[k] ?? null)),
    groupBy: 'Account',
    isSummary: c.request.isSummary,
  });
  return reportOutcome(c, data, `${c.def.name}: ${data.rowCount} facts of ${data.groups.length} accounts`);
}
