import { renderPdfTable, type PdfLine } from './pdf-table.js';
import { cellText, isNumeric, type CellValue, type ReportData } from './report-model.js';

/** The report as a PDF table: group headers, detail rows (unless summary), subtotals and the grand total. */
export function renderPdf(r: ReportData): Promise<Buffer> {
  const text = (values: CellValue[]): string[] => values.map((v, i) => cellText(r.columns[i]!, v));
  const labelled = (label: string, totals: CellValue[]): string[] => {
    const cells = text(totals);
    const first = r.columns.findIndex((c) => !c.sum);
    if (first >= 0) cells[first] = label;
    return cells;
  };
  const lines: PdfLine[] = [];
  for (const g of r.groups) {
    if (r.groupBy) lines.push({ cells: [g.key], style: 'group' });
    if (!r.isSummary) for (const row of g.rows) lines.push({ cells: text(row), style: 'detail' });
    if (r.groupBy) lines.push({ cells: labelled(`Total ${g.key}`, g.totals), style: 'total' });
  }
  lines.push({ cells: labelled('Grand Total', r.totals), style: 'grand' });
  return renderPdfTable({
    title: r.title,
    subtitle: [r.subtitle, `${r.rowCount} rows`].filter(Boolean),
    headers: r.columns.map((c) => c.label),
    weights: r.columns.map((c) => (c.type === 'text' ? 2 : c.type === 'date' ? 1.2 : 1)),
    rightAligned: r.columns.map((c) => isNumeric(c.type)),
    lines,
    landscape: r.columns.length > 6,
    ...(r.heading ? { heading: r.heading } : {}),
  });
}
