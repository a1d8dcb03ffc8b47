import { cellText, type ReportData } from './report-model.js';

/**
 * Text that a spreadsheet would run as a formula (a cell starting with =, +, -, @, tab or carriage
 * return) gets a leading apostrophe, which spreadsheets show as text; numbers stay as they are.
 */
export function csvSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/**
 * CSV: a header row of column labels, then the detail rows (numbers unformatted, so that a
 * spreadsheet reads them as numbers). A summary report has one row per group with its totals.
 */
export async function renderCsv(r: ReportData): Promise<Buffer> {
  const rows: string[][] = [r.columns.map((c) => c.label)];
  const raw = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
  if (r.isSummary) {
    const at = r.columns.findIndex((c) => c.name === r.groupBy);
    for (const g of r.groups) rows.push(r.columns.map((c, i) => (i === at ? csvSafe(g.key) : c.sum ? raw(g.totals[i]) : '')));
  } else {
    for (const g of r.groups) for (const row of g.rows) rows.push(r.columns.map((c, i) => (typeof row[i] === 'number' ? raw(row[i]) : csvSafe(cellText(c, row[i] ?? null)))));
  }
  return csvBytes(rows);
}

/**
 * Rows as CSV bytes. The library is loaded on the first CSV written, so that a service that never
 * writes one does not hold its code.
 */
export async function csvBytes(rows: string[][]): Promise<Buffer> {
  const { stringify } = await import('csv-stringify/sync');
  return Buffer.from(stringify(rows), 'utf8');
}
