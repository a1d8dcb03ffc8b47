import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { renderReport } from '../../reports/render-report.js';
import { buildReport, type CellValue, type ReportColumn } from '../../reports/report-model.js';
import { dayText, flag, idParam } from '../process-record.js';
import { INSTALLMENTS_SQL } from './due-dates.js';

const COLUMNS: ReportColumn[] = [
  { name: 'BPartner', label: 'Business Partner', type: 'text', sum: false },
  { name: 'DocumentNo', label: 'Document No', type: 'text', sum: false },
  { name: 'DateInvoiced', label: 'Date Invoiced', type: 'date', sum: false },
  { name: 'DueDate', label: 'Due Date', type: 'date', sum: false },
  { name: 'DaysDue', label: 'Days Due', type: 'number', sum: false },
  { name: 'DueAmt', label: 'Due Amount', type: 'amount', sum: true },
  { name: 'OpenAmt', label: 'Open Amount', type: 'amount', sum: true },
  { name: 'DiscountDate', label: 'Discount Date', type: 'date', sum: false },
  { name: 'DiscountAmt', label: 'Discount', type: 'amount', sum: true },
];

/**
 * Open Items (the original's RV_OpenItem over C_Invoice_v): every open installment of completed
 * invoices, a whole invoice when its term has no schedule, with its due date, the days it is due
 * at the statement date (today unless given) and what is open of it; grouped by business partner.
 * Parameters: IsSOTrx, C_BPartner_ID, DateAcct (the statement date), OnlyDue (only what is due
 * at the statement date).
 */
export async function openItemsReport(c: ProcessCall): Promise<ProcessOutcome> {
  const invoice = c.s.dictionary.current.byName.get('c_invoice')!;
  const sql = new SqlBuilder();
  const at = c.param('DateAcct')?.value;
  const statementDate = typeof at === 'string' ? dayText(at) : new Date().toISOString().slice(0, 10);
  const date = `${sql.param(statementDate)}::date`;
  const where = [`i.ad_client_id = ${sql.param(c.auth.clientId)}`, `i.docstatus IN ('CO', 'CL')`, `i.isactive = 'Y'`, readPredicate(c.auth, invoice, 'i', sql), 'x.openamt <> 0'];
  const sales = c.param('IsSOTrx')?.value;
  if (typeof sales === 'boolean') where.push(`i.issotrx = ${sql.param(sales ? 'Y' : 'N')}`);
  const partner = idParam(c, 'C_BPartner_ID');
  if (partner !== null) where.push(`i.c_bpartner_id = ${sql.param(partner)}`);
  if (flag(c, 'OnlyDue', false)) where.push(`x.duedate::date <= ${date}`);
  const { rows } = await c.tx.query<Record<string, CellValue>>(
    `SELECT bp.name AS bpartner, i.documentno, to_char(i.dateinvoiced, 'YYYY-MM-DD') AS dateinvoiced, to_char(x.duedate, 'YYYY-MM-DD') AS duedate,
            (${date} - x.duedate::date) AS daysdue, x.dueamt::float8 AS dueamt, x.openamt::float8 AS openamt,
            to_char(x.discountdate, 'YYYY-MM-DD') AS discountdate, x.discountamt::float8 AS discountamt
       FROM c_invoice i JOIN c_bpartner bp ON bp.c_bpartner_id = i.c_bpartner_id CROSS JOIN LATERAL ${INSTALLMENTS_SQL('i')} x
      WHERE ${where.join(' AND ')}
      ORDER BY bp.name, x.duedate, i.documentno`,
    sql.values,
  );
  const data = buildReport({
    title: c.def.name,
    subtitle: `Statement date: ${statementDate}`,
    columns: COLUMNS,
    rows: rows.map((r) => COLUMNS.map((col) => r[col.name.toLowerCase()] ?? null)),
    groupBy: 'BPartner',
    isSummary: c.request.isSummary,
  });
  const file = await renderReport(data, c.request.reportType);
  return { summary: `${c.def.name}: ${data.rowCount} rows`, report: { name: `Open_Items_${c.instanceId}.${file.extension}`, contentType: file.contentType, data: file.data } };
}
