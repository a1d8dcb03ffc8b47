import { readPredicate } from '../access/access.js';
import { ident, SqlBuilder } from '../db/sql.js';
import { badRequest } from '../errors.js';
import type { ParamScalar } from '../processes/parameters.js';
import type { ProcessCall, ProcessOutcome } from '../processes/runner.js';
import { renderReport } from './render-report.js';
import { reportHeading } from './report-heading.js';
import { buildReport, type CellValue, type ReportColumn, type ReportData } from './report-model.js';
import { REPORT_LAYOUTS, REPORT_VIEWS, type PrintLayout, type ReportViewDef } from './report-views.js';

/** Rows one report may hold. */
export const MAX_REPORT_ROWS = 100_000;

/** The print format a run asks for (print-format-id), else the process's, else the view's own layout. */
async function layoutOf(c: ProcessCall, view: ReportViewDef): Promise<PrintLayout> {
  const id = c.request.printFormatId ?? c.def.printFormatId;
  let value = view.value;
  if (id !== null) {
    const { rows } = await c.tx.query<{ value: string }>(`SELECT value FROM ad_printformat WHERE ad_printformat_id = $1 AND ad_client_id IN (0, $2) AND isactive = 'Y'`, [id, c.auth.clientId]);
    if (!rows[0]) throw badRequest('Invalid parameter', `No print format ${id}`);
    value = rows[0].value;
  }
  const layout = REPORT_LAYOUTS.get(value.toLowerCase());
  if (!layout || layout.view.toLowerCase() !== view.value.toLowerCase()) throw badRequest('Invalid parameter', `Print format ${value} does not lay out ${view.value}`);
  return layout;
}

const describeValue = (v: ParamScalar | null): string => {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object') return 'path' in v ? v.path : v.fileName;
  return String(v);
};

/** The report of a report view process: rows the caller may read, laid out by its print format, rendered in the requested type. */
export async function reportViewReport(c: ProcessCall): Promise<ProcessOutcome> {
  const { rows: rv } = await c.tx.query<{ value: string }>(`SELECT value FROM ad_reportview WHERE ad_reportview_id = $1`, [c.def.reportViewId]);
  const view = rv[0] ? REPORT_VIEWS.get(rv[0].value.toLowerCase()) : undefined;
  if (!view) return { summary: `The report view of ${c.def.name} is not available on this server`, isError: true };
  const layout = await layoutOf(c, view);
  const accessTable = c.s.dictionary.current.byName.get(view.accessTable.toLowerCase())!;
  const sql = new SqlBuilder();
  const where = [view.where, readPredicate(c.auth, accessTable, view.accessAlias, sql)];
  const subtitle: string[] = [];
  for (const p of c.request.params.values()) {
    const filter = view.filters[p.def.columnName];
    const cond = filter?.(p.value, p.to, sql);
    if (cond) where.push(cond);
    subtitle.push(`${p.def.name}: ${describeValue(p.value)}${p.def.isRange && p.to !== null ? ` - ${describeValue(p.to)}` : ''}`);
  }
  const columns: ReportColumn[] = layout.columns.map((name) => ({ name, label: view.columns[name]!.label, type: view.columns[name]!.type, sum: layout.sums.includes(name) }));
  const select = layout.columns.map((name, i) => `${view.columns[name]!.expr} AS ${ident(`c${i}`)}`).join(', ');
  const order = layout.orderBy.map((name) => view.columns[name]!.expr).join(', ');
  const { rows } = await c.tx.query<Record<string, CellValue>>(`SELECT ${select} FROM ${view.from} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${MAX_REPORT_ROWS + 1}`, sql.values);
  if (rows.length > MAX_REPORT_ROWS) throw badRequest('Invalid parameter', `More than ${MAX_REPORT_ROWS} rows match; narrow the parameters`);
  const data = buildReport({
    title: c.def.name,
    subtitle: subtitle.join('; '),
    columns,
    rows: rows.map((r) => layout.columns.map((_, i) => r[`c${i}`] ?? null)),
    groupBy: layout.groupBy ?? null,
    isSummary: c.request.isSummary,
  });
  return reportOutcome(c, data);
}

/** The outcome of a report process: the report rendered in the requested type, named after the process and run. */
export async function reportOutcome(c: ProcessCall, data: ReportData, summary = `${c.def.name}: ${data.rowCount} rows`): Promise<ProcessOutcome> {
  const file = await renderReport({ ...data, heading: await reportHeading(c.tx, c.auth) }, c.request.reportType);
  const name = `${c.def.name.replace(/[^A-Za-z0-9]+/g, '_')}_${c.instanceId}.${file.extension}`;
  return { summary, report: { name, contentType: file.contentType, data: file.data } };
}

/** The parameters of a run as one line of text, for a report's subtitle. */
export function describeParams(c: ProcessCall, except: string[] = []): string {
  return [...c.request.params.values()]
    .filter((p) => p.value !== null && !except.includes(p.def.columnName))
    .map((p) => `${p.def.name}: ${describeValue(p.value)}${p.def.isRange && p.to !== null ? ` - ${describeValue(p.to)}` : ''}`)
    .join('; ');
}
