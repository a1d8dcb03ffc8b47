import { badRequest } from '../../errors.js';
import type { PeriodInfo } from './ledger-scope.js';
import type { ReportColumnDef, ReportDef, ReportLineDef } from './fin-report-definition.js';

/** The facts one amount reads: a posting type and an account date range [from, before). */
export interface FactWindow {
  postingType: string;
  /** First day, or null from the beginning of the books. */
  from: string | null;
  /** The day after the last one. */
  before: string;
}

/** Per account: debit, credit and quantity of each window, by window index. */
export type AccountAmounts = Map<number, { dr: number[]; cr: number[]; qty: number[] }>;

const dayAfter = (d: string): string => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Balance sheet accounts (assets, liabilities, owner's equity) carry their balance over years. */
const isBalanceSheet = (accountType: string): boolean => ['A', 'L', 'O'].includes(accountType);

/**
 * The windows of a report run at a period (index into the calendar's periods, by start date),
 * and for every line and relative-period column the window each account type reads: period (P),
 * year to date (Y), total to date (T), or natural (N: total for balance sheet accounts, year to
 * date for the others). A line's period type overrides its column's, as in the original.
 */
export function planWindows(def: ReportDef, periods: PeriodInfo[], at: number): { windows: FactWindow[]; windowOf: (line: ReportLineDef, col: ReportColumnDef, accountType: string) => number } {
  const windows: FactWindow[] = [];
  const index = new Map<string, number>();
  const add = (w: FactWindow): number => {
    const key = `${w.postingType}|${w.from}|${w.before}`;
    let i = index.get(key);
    if (i === undefined) index.set(key, (i = windows.push(w) - 1));
    return i;
  };
  const periodAt = (offset: number): PeriodInfo => {
    const p = periods[at + offset];
    if (!p) throw badRequest('Invalid parameter', `The calendar has no period ${offset} relative to ${periods[at]!.name}`);
    return p;
  };
  const window = (type: string, col: ReportColumnDef): FactWindow => {
    const p = periodAt(col.relativePeriod);
    if (type === 'P') return { postingType: col.postingType, from: p.startDate, before: dayAfter(p.endDate) };
    if (type === 'Y') {
      const first = periods.find((x) => x.yearId === p.yearId)!;
      return { postingType: col.postingType, from: first.startDate, before: dayAfter(p.endDate) };
    }
    return { postingType: col.postingType, from: null, before: dayAfter(p.endDate) };
  };
  const memo = new Map<string, number>();
  const windowOf = (line: ReportLineDef, col: ReportColumnDef, accountType: string): number => {
    let type = line.periodType ?? col.periodType ?? 'P';
    if (type === 'N') type = isBalanceSheet(accountType) ? 'T' : 'Y';
    const key = `${col.id}|${type}`;
    let i = memo.get(key);
    if (i === undefined) memo.set(key, (i = add(window(type, col))));
    return i;
  };
  // Every window a run needs, known before the one query over the facts.
  for (const line of def.lines) {
    if (line.lineType !== 'S') continue;
    for (const col of def.columns) if (col.columnType !== 'C') for (const t of ['A', 'R']) windowOf(line, col, t);
  }
  return { windows, windowOf };
}

/** An amount of one account in one window by amount type: balance with the account's expected sign (B), accounted sign (S), debit (D), credit (C), quantity (Q, R). */
export function accountAmount(amountType: string, account: { accountType: string; accountSign: string }, dr: number, cr: number, qty: number): number {
  const debitNatural = account.accountSign === 'D' || (account.accountSign !== 'C' && ['A', 'E', 'M'].includes(account.accountType));
  switch (amountType) {
    case 'D':
      return dr;
    case 'C':
      return cr;
    case 'S':
      return dr - cr;
    case 'Q':
    case 'R':
      return qty;
    default:
      return debitNatural ? dr - cr : cr - dr;
  }
}

/** One row of a financial report: a line or (when sources are listed) an account of a line. */
export interface FinReportRow {
  name: string;
  lineId: number;
  accountId: number | null;
  values: number[];
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The value of a calculation on two operands (A add, S subtract, P percentage; R is handled by the caller). */
function calculate(type: string | null, a: number, b: number): number {
  if (type === 'S') return a - b;
  if (type === 'P') return b === 0 ? 0 : (a / b) * 100;
  return a + b;
}

/**
 * The rows of a report from the accounts' amounts: segment lines sum their accounts, then
 * calculation lines combine lines (add, subtract, percentage, or the range of lines from the first
 * operand to the second), then calculation columns combine columns; finally lines shown with the
 * opposite sign are negated and unprinted lines and columns left out. With ListSources each
 * account of a segment line with an amount follows (or, with sourcesFirst, precedes) its line.
 */
export function computeReport(def: ReportDef, plan: ReturnType<typeof planWindows>, amounts: AccountAmounts, sourcesFirst: boolean): FinReportRow[] {
  const cols = def.columns;
  const cellOf = (line: ReportLineDef, accountId: number): number[] => {
    const account = def.accounts.get(accountId);
    const a = amounts.get(accountId);
    return cols.map((col) => {
      if (col.columnType === 'C' || !account || !a) return 0;
      const w = plan.windowOf(line, col, account.accountType);
      return accountAmount(line.amountType ?? col.amountType ?? 'B', account, a.dr[w] ?? 0, a.cr[w] ?? 0, a.qty[w] ?? 0);
    });
  };
  const lineValues = new Map<number, number[]>();
  const sourceRows = new Map<number, FinReportRow[]>();
  for (const line of def.lines) {
    if (line.lineType !== 'S') continue;
    const total = cols.map(() => 0);
    const rows: FinReportRow[] = [];
    for (const accountId of line.accountIds) {
      const values = cellOf(line, accountId);
      values.forEach((v, i) => (total[i] += v));
      const account = def.accounts.get(accountId);
      if (account && values.some((v) => round(v) !== 0)) rows.push({ name: `${account.value} ${account.name}`, lineId: line.id, accountId, values });
    }
    lineValues.set(line.id, total);
    sourceRows.set(line.id, rows);
  }
  const byId = new Map(def.lines.map((l) => [l.id, l]));
  for (const line of def.lines) {
    if (line.lineType !== 'C') continue;
    const v1 = lineValues.get(line.oper1 ?? -1) ?? cols.map(() => 0);
    const v2 = lineValues.get(line.oper2 ?? -1) ?? cols.map(() => 0);
    if (line.calculationType === 'R') {
      const [lo, hi] = [byId.get(line.oper1 ?? -1)?.seqNo ?? 0, byId.get(line.oper2 ?? -1)?.seqNo ?? 0].sort((a, b) => a - b);
      const inRange = def.lines.filter((l) => l.seqNo >= lo! && l.seqNo <= hi! && l.id !== line.id);
      lineValues.set(line.id, cols.map((_, i) => inRange.reduce((s, l) => s + (lineValues.get(l.id)?.[i] ?? 0), 0)));
    } else lineValues.set(line.id, cols.map((_, i) => calculate(line.calculationType, v1[i]!, v2[i]!)));
  }
  const out: FinReportRow[] = [];
  for (const line of def.lines) {
    const values = lineValues.get(line.id);
    const own: FinReportRow[] = line.lineType === 'B' || !values ? [{ name: '', lineId: line.id, accountId: null, values: cols.map(() => 0) }] : [{ name: line.name, lineId: line.id, accountId: null, values }];
    const sources = def.listSources ? (sourceRows.get(line.id) ?? []) : [];
    const rows = sourcesFirst ? [...sources, ...own] : [...own, ...sources];
    for (const row of rows) {
      if (!line.isPrinted && row.accountId === null) continue;
      out.push(row);
    }
  }
  const colIndex = new Map(cols.map((c, i) => [c.id, i]));
  for (const [i, col] of cols.entries()) {
    if (col.columnType !== 'C') continue;
    const a = colIndex.get(col.oper1 ?? -1);
    const b = colIndex.get(col.oper2 ?? -1);
    for (const row of out) {
      if (col.calculationType === 'R' && a !== undefined && b !== undefined) {
        const [lo, hi] = [a, b].sort((x, y) => x - y);
        row.values[i] = row.values.slice(lo, hi! + 1).reduce((s, v, k) => s + (k + lo! === i ? 0 : v), 0);
      } else row.values[i] = calculate(col.calculationType, a === undefined ? 0 : row.values[a]!, b === undefined ? 0 : row.values[b]!);
    }
  }
  for (const row of out) {
    const line = byId.get(row.lineId)!;
    row.values = row.values.map((v) => round(row.accountId === null && line.showOppositeSign ? -v : v) || 0);
  }
  return out;
}
