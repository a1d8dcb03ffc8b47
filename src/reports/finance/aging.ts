import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { buildReport, type CellValue, type ReportColumn } from '../report-model.js';
import { describeParams, MAX_REPORT_ROWS, reportOutcome } from '../report-process.js';
import { AGING_BUCKETS, DUE_DATE_SQL, OPEN_ITEM_STATUS_SQL, SIGNED_OPEN_AMOUNT_SQL } from './open-items.js';
import { dateParam, flagParam, idConditions } from './params.js';

const amount = (name: string, label: string): ReportColumn => ({ name, label, type: 'amount', sum: true });

/**
 * AR or AP aging as the original's Aging process: the open amount of each completed invoice
 * dated up to the statement date, in the bucket of its days past due (statement date less the
 * due date of its payment term), per business partner; with IsListInvoices each invoice is a
 * row, otherwise only the partners' totals.
 */
export async function agingReport(c: ProcessCall): Promise<ProcessOutcome> {
  const statementDate = dateParam(c, 'StatementDate') ?? new Date().toISOString().slice(0, 10);
  const isSOTrx = flagParam(c, 'IsSOTrx') ?? true;
  const listInvoices = flagParam(c, 'IsListInvoices') ?? false;
  const invoiceTable = c.s.dictionary.current.byName.get('c_invoice')!;
  const sql = new SqlBuilder();
  const date = `${sql.param(statementDate)}::date`;
  const where = [OPEN_ITEM_STATUS_SQL('i'), `i.isactive = 'Y'`, `i.issotrx = ${sql.param(isSOTrx ? 'Y' : 'N')}`, `i.dateinvoiced < ${date} + 1`, readPredicate(c.auth, invoiceTable, 'i', sql)];
  where.push(...idConditions(c, sql, [['AD_Org_ID', 'i.ad_org_id'], ['C_BPartner_ID', 'i.c_bpartner_id'], ['C_BP_Group_ID', 'bp.c_bp_group_id']]));
  const buckets = AGING_BUCKETS.map((b) => `(CASE WHEN ${b.test('x.daysdue')} THEN x.openamt ELSE 0 END)::float8 AS ${b.name}`).join(', ');
  const { rows } = await c.tx.query<Record<string, CellValue>>(
    `SELECT x.bpartner, x.documentno, to_char(x.dateinvoiced, 'YYYY-MM-DD') AS dateinvoiced, to_char(x.duedate, 'YYYY-MM-DD') AS duedate,
            x.daysdue, x.openamt::float8 AS openamt, ${buckets}
       FROM (SELECT bp.name AS bpartner, i.documentno, i.dateinvoiced, ${DUE_DATE_SQL('i')} AS duedate,
                    ${date} - ${DUE_DATE_SQL('i')} AS daysdue, ${SIGNED_OPEN_AMOUNT_SQL('i')} AS openamt
               FROM c_invoice i JOIN c_bpartner bp ON bp.c_bpartner_id = i.c_bpartner_id
              WHERE ${where.join(' AND ')}) x
      WHERE x.openamt <> 0
      ORDER BY x.bpartner, x.duedate, x.documentno
      LIMIT ${MAX_REPORT_ROWS + 1}`,
    sql.values,
  );
  if (rows.length > MAX_REPORT_ROWS) throw badRequest('Invalid parameter', `More than ${MAX_REPORT_ROWS} invoices are open; narrow the parameters`);
  const columns: ReportColumn[] = [
    { name: 'BPartner', label: 'Business Partner', type: 'text', sum: false },
    { name: 'DocumentNo', label: 'Document No', type: 'text', sum: false },
    { name: 'DateInvoiced', label: 'Date Invoiced', type: 'date', sum: false },
    { name: 'DueDate', label: 'Due Date', type: 'date', sum: false },
    { name: 'DaysDue', label: 'Days Due', type: 'number', sum: false },
    amount('OpenAmt', 'Open Amount'),
    ...AGING_BUCKETS.map((b) => amount(b.name, b.label)),
  ];
  const keys = ['bpartner', 'documentno', 'dateinvoiced', 'duedate', 'daysdue', 'openamt', ...AGING_BUCKETS.map((b) => b.name.toLowerCase())];
  const data = buildReport({
    title: c.def.name,
    subtitle: [`Statement Date: ${statementDate}`, isSOTrx ? 'Receivables' : 'Payables', describeParams(c, ['StatementDate', 'IsSOTrx'])].filter(Boolean).join('; '),
    columns,
    rows: rows.map((r) => keys.map((k) => (k === 'daysdue' ? Number(r[k]) : (r[k] ?? null)))),
    groupBy: 'BPartner',
    isSummary: c.request.isSummary || !listInvoices,
  });
  return reportOutcome(c, data, `${c.def.name}: ${data.rowCount} open invoices of ${data.groups.length} business partners`);
}
