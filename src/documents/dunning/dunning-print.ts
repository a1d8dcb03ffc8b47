import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { renderReport } from '../../reports/render-report.js';
import { buildReport, type CellValue, type ReportColumn } from '../../reports/report-model.js';
import { dayText, flag } from '../process-record.js';
import { dunningRunOf } from './dunning-run.js';

const COLUMNS: ReportColumn[] = [
  { name: 'Letter', label: 'Letter', type: 'text', sum: false },
  { name: 'DocumentNo', label: 'Invoice', type: 'text', sum: false },
  { name: 'DateInvoiced', label: 'Date Invoiced', type: 'date', sum: false },
  { name: 'DaysDue', label: 'Days Due', type: 'number', sum: false },
  { name: 'TimesDunned', label: 'Times Dunned', type: 'number', sum: false },
  { name: 'OpenAmt', label: 'Open Amount', type: 'amount', sum: true },
  { name: 'FeeAmt', label: 'Fee', type: 'amount', sum: true },
  { name: 'TotalAmt', label: 'Total', type: 'amount', sum: true },
];

/**
 * Print Dunning Letters (the original's DunningPrint): the letters of a dunning run as one printed
 * report, a group per entry (partner, the level's print name and note) with its overdue invoices
 * and fees and their totals; PDF unless another report type is asked for. PrintUnprocessedOnly
 * leaves out processed entries, IsOnlyIfBPBalance the partners without an open balance.
 */
export async function dunningPrint(c: ProcessCall): Promise<ProcessOutcome> {
  const { run, id } = await dunningRunOf(c);
  const where = ['e.c_dunningrun_id = $1', `e.isactive = 'Y'`];
  if (flag(c, 'PrintUnprocessedOnly', false)) where.push(`e.processed = 'N'`);
  if (flag(c, 'IsOnlyIfBPBalance', false)) where.push(`COALESCE(bp.totalopenbalance, e.amt) > 0`);
  const { rows } = await c.tx.query<Record<string, CellValue>>(
    `SELECT bp.name || ' - ' || COALESCE(dl.printname, dl.name) || COALESCE(': ' || dl.note, '') AS letter, COALESCE(i.documentno, 'Fee') AS documentno,
            to_char(i.dateinvoiced, 'YYYY-MM-DD') AS dateinvoiced, l.daysdue, l.timesdunned, l.openamt::float8 AS openamt, l.feeamt::float8 AS feeamt, l.totalamt::float8 AS totalamt
       FROM c_dunningrunentry e JOIN c_bpartner bp ON bp.c_bpartner_id = e.c_bpartner_id JOIN c_dunninglevel dl ON dl.c_dunninglevel_id = e.c_dunninglevel_id
       JOIN c_dunningrunline l ON l.c_dunningrunentry_id = e.c_dunningrunentry_id AND l.isactive = 'Y'
       LEFT JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id
      WHERE ${where.join(' AND ')}
      ORDER BY bp.name, e.c_dunningrunentry_id, l.c_invoice_id NULLS LAST, l.c_dunningrunline_id`,
    [id],
  );
  const data = buildReport({
    title: c.def.name,
    subtitle: `Dunning date: ${dayText(run.dunningdate)}${run.description ? `; ${String(run.description)}` : ''}`,
    columns: COLUMNS,
    rows: rows.map((r) => COLUMNS.map((col) => r[col.name.toLowerCase()] ?? null)),
    groupBy: 'Letter',
    isSummary: c.request.isSummary,
  });
  const file = await renderReport(data, c.request.reportType);
  const letters = new Set(rows.map((r) => r.letter)).size;
  return { summary: `Dunning letters: ${letters}`, report: { name: `Dunning_Letters_${id}.${file.extension}`, contentType: file.contentType, data: file.data } };
}
