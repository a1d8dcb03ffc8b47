import type { ReportHeading } from './pdf-table.js';

/** A generated report, independent of its file format: what every renderer draws. */
export type CellValue = string | number | null;

export type ColumnType = 'text' | 'date' | 'number' | 'amount' | 'quantity';

export interface ReportColumn {
  name: string;
  label: string;
  type: ColumnType;
  /** Summed in group and grand totals. */
  sum: boolean;
}

export interface ReportGroup {
  /** The value of the grouping column ('' when the report is not grouped). */
  key: string;
  rows: CellValue[][];
  /** Sums of the summed columns, null elsewhere. */
  totals: CellValue[];
}

export interface ReportData {
  title: string;
  /** The parameters of the run, as one line of text. */
  subtitle: string;
  columns: ReportColumn[];
  /** The column the groups are formed by, or null. */
  groupBy: string | null;
  groups: ReportGroup[];
  totals: CellValue[];
  rowCount: number;
  /** Only group and grand totals, no detail rows. */
  isSummary: boolean;
  /** The company, run date and user printed above the report (PDF, HTML, spreadsheet). */
  heading?: ReportHeading;
}

export const isNumeric = (t: ColumnType): boolean => t === 'number' || t === 'amount' || t === 'quantity';

/** A cell as text in reports: amounts with two decimals, quantities as given, dates as YYYY-MM-DD. */
export function cellText(column: ReportColumn, v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return column.type === 'amount' ? v.toFixed(2) : String(v);
  return v;
}

/** Adds up numbers without the drift of binary fractions in money (to 1/10000). */
export const addExact = (a: number, b: number): number => Math.round((a + b) * 10_000) / 10_000;

/**
 * Forms the groups (rows already ordered by the grouping column) and their totals, and the grand
 * totals. Pure: the renderers and the tests share it.
 */
export function buildReport(o: { title: string; subtitle: string; columns: ReportColumn[]; rows: CellValue[][]; groupBy: string | null; isSummary: boolean }): ReportData {
  const at = o.groupBy ? o.columns.findIndex((c) => c.name === o.groupBy) : -1;
  const zero = (): CellValue[] => o.columns.map((c) => (c.sum ? 0 : null));
  const add = (totals: CellValue[], row: CellValue[]): void => {
    o.columns.forEach((c, i) => {
      if (c.sum && typeof row[i] === 'number') totals[i] = addExact(totals[i] as number, row[i] as number);
    });
  };
  const groups: ReportGroup[] = [];
  const totals = zero();
  for (const row of o.rows) {
    const key = at >= 0 ? String(row[at] ?? '') : '';
    let g = groups[groups.length - 1];
    if (!g || g.key !== key) groups.push((g = { key, rows: [], totals: zero() }));
    g.rows.push(row);
    add(g.totals, row);
    add(totals, row);
  }
  return { title: o.title, subtitle: o.subtitle, columns: o.columns, groupBy: at >= 0 ? o.groupBy : null, groups, totals, rowCount: o.rows.length, isSummary: o.isSummary };
}
