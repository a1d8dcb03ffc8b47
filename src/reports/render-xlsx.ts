// exceljs (and its zip and stream modules) loads on the first workbook, not with the service.
import type ExcelJS from 'exceljs';
import { isNumeric, type CellValue, type ReportData } from './report-model.js';

const headerText = (s: string): string => s.replace(/&/g, '&&');

/**
 * Who ran the report, when and with what parameters: the workbook's properties, the printed
 * page's header, and a second sheet "Run" (the first sheet stays the table alone, for programs
 * that read it).
 */
function describeRun(wb: ExcelJS.Workbook, ws: ExcelJS.Worksheet, r: ReportData): void {
  const h = r.heading!;
  wb.company = h.company;
  wb.creator = h.user;
  wb.title = r.title;
  wb.subject = r.subtitle;
  ws.headerFooter.oddHeader = `&L${headerText(h.company)}&C${headerText(r.title)}&R${headerText(`${h.runAt} ${h.user}`)}`;
  ws.headerFooter.oddFooter = '&RPage &P of &N';
  const run = wb.addWorksheet('Run');
  run.columns = [{ width: 14 }, { width: 60 }];
  run.addRows([
    ['Report', r.title],
    ['Company', h.company],
    ['Parameters', r.subtitle],
    ['Run on', h.runAt],
    ['User', h.user],
  ]);
  run.getColumn(1).font = { bold: true };
}

/**
 * An Excel workbook (XLSX, also for report-type XLS): one sheet with a bold header, numbers as
 * numbers with their format, dates as dates, group headers, subtotals and the grand total.
 */
export async function renderXlsx(r: ReportData): Promise<Buffer> {
  const { default: Excel }: { default: typeof ExcelJS } = await import('exceljs');
  const wb = new Excel.Workbook();
  wb.creator = 'Dictum';
  wb.created = new Date(0);
  const ws = wb.addWorksheet(r.title.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31) || 'Report');
  ws.columns = r.columns.map((c) => ({
    header: c.label,
    key: c.name,
    width: Math.max(10, Math.min(40, c.label.length + 4)),
    style: c.type === 'amount' ? { numFmt: '#,##0.00' } : c.type === 'date' ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  ws.getRow(1).font = { bold: true };
  const value = (i: number, v: CellValue): ExcelJS.CellValue => {
    if (v === null || v === undefined) return null;
    if (r.columns[i]!.type === 'date' && typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) return new Date(`${v}T00:00:00Z`);
    return v;
  };
  const totalRow = (label: string, totals: CellValue[]): void => {
    const first = r.columns.findIndex((c) => !c.sum);
    const row = ws.addRow(totals.map((v, i) => (i === first ? label : v)));
    row.font = { bold: true };
  };
  for (const g of r.groups) {
    if (r.groupBy) ws.addRow([g.key]).font = { italic: true };
    if (!r.isSummary) for (const row of g.rows) ws.addRow(row.map((v, i) => value(i, v)));
    if (r.groupBy) totalRow(`Total ${g.key}`, g.totals);
  }
  totalRow('Grand Total', r.totals);
  r.columns.forEach((c, i) => {
    if (isNumeric(c.type)) ws.getColumn(i + 1).alignment = { horizontal: 'right' };
  });
  if (r.heading) describeRun(wb, ws, r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
