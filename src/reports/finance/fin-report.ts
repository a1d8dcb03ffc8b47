import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { buildReport, type ReportColumn } from '../report-model.js';
import { describeParams, reportOutcome } from '../report-process.js';
import { computeReport, planWindows, type AccountAmounts, type FactWindow } from './fin-report-compute.js';
import { loadReportDef } from './fin-report-definition.js';
import { periodById, periodOfDate, type PeriodInfo } from './ledger-scope.js';
import { flagParam, idConditions, idParam } from './params.js';

/** The standard periods of a calendar, by start date. */
async function calendarPeriods(c: ProcessCall, calendarId: number): Promise<PeriodInfo[]> {
  const { rows } = await c.tx.query<Record<string, unknown>>(
    `SELECT p.c_period_id AS id, p.name, to_char(p.startdate, 'YYYY-MM-DD') AS start, to_char(p.enddate, 'YYYY-MM-DD') AS end, p.c_year_id AS year
       FROM c_period p JOIN c_year y ON y.c_year_id = p.c_year_id
      WHERE y.c_calendar_id = $1 AND p.ad_client_id = $2 AND p.isactive = 'Y' AND COALESCE(p.periodtype, 'S') = 'S'
      ORDER BY p.startdate`,
    [calendarId, c.auth.clientId],
  );
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), startDate: String(r.start), endDate: String(r.end), yearId: Number(r.year) }));
}

/**
 * Debit, credit and quantity of every account the report reads, in every window, from one
 * aggregate statement over the facts the caller may read (of the report's schema and, when given,
 * one organisation, business partner or product): the facts are summed per account, posting type and span between the
 * windows' boundary dates, and each window adds up the spans it covers.
 */
async function accountAmounts(c: ProcessCall, schemaId: number, accountIds: number[], windows: FactWindow[], withQty: boolean): Promise<AccountAmounts> {
  const bounds = [...new Set(windows.flatMap((w) => (w.from ? [w.from, w.before] : [w.before])))].sort();
  const sql = new SqlBuilder();
  const where = [
    `f.c_acctschema_id = ${sql.param(schemaId)}`,
    `f.account_id = ANY(${sql.param(accountIds)}::bigint[])`,
    // Compared as the column's own type, so that its statistics size the aggregate (a hash, not a sort on disk).
    `f.postingtype IN (${[...new Set(windows.map((w) => w.postingType))].map((t) => sql.param(t)).join(', ')})`,
    `f.dateacct < ${sql.param(bounds[bounds.length - 1])}::date`,
    `f.isactive = 'Y'`,
    readPredicate(c.auth, c.s.dictionary.current.byName.get('fact_acct')!, 'f', sql),
    // The original's parameter filters: organisation, business partner, product.
    ...idConditions(c, sql, [['Org_ID', 'f.ad_org_id'], ['C_BPartner_ID', 'f.c_bpartner_id'], ['M_Product_ID', 'f.m_product_id']]),
  ];
  const { rows } = await c.tx.query<{ account_id: string; postingtype: string; span: number; dr: number; cr: number; qty: number | null }>(
    `SELECT f.account_id, f.postingtype, width_bucket(f.dateacct::date, ${sql.param(bounds)}::date[]) AS span,
            sum(f.amtacctdr)::float8 AS dr, sum(f.amtacctcr)::float8 AS cr${withQty ? ', sum(f.qty)::float8 AS qty' : ''}
       FROM fact_acct f WHERE ${where.join(' AND ')} GROUP BY 1, 2, 3`,
    sql.values,
  );
  // Span s holds the facts from bounds[s - 1] (from the beginning for 0) up to the day before bounds[s].
  const spansOf = windows.map((w) => ({ first: w.from ? bounds.indexOf(w.from) + 1 : 0, last: bounds.indexOf(w.before), postingType: w.postingType }));
  const out: AccountAmounts = new Map();
  for (const r of rows) {
    const id = Number(r.account_id);
    let a = out.get(id);
    if (!a) out.set(id, (a = { dr: windows.map(() => 0), cr: windows.map(() => 0), qty: windows.map(() => 0) }));
    const span = Number(r.span);
    spansOf.forEach((w, i) => {
      if (w.postingType !== r.postingtype || span < w.first || span > w.last) return;
      a.dr[i] += Number(r.dr);
      a.cr[i] += Number(r.cr);
      a.qty[i] += Number(r.qty ?? 0);
    });
  }
  return out;
}

/**
 * The original's Financial Report: runs on a PA_Report (the record of the run) at a period
 * (C_Period_ID, else the period of today), optionally for one organisation (Org_ID), business
 * partner or product, and lays
 * out its line set against its column set.
 */
export async function financialReport(c: ProcessCall): Promise<ProcessOutcome> {
  if (!c.record || c.record.table.name.toLowerCase() !== 'pa_report') throw badRequest('Invalid parameter', 'The financial report runs on a report: record-id with model-name pa_report (or table-id 445)');
  const def = await loadReportDef(c.tx, c.record.id, c.auth.clientId);
  const periods = await calendarPeriods(c, def.calendarId);
  const periodId = idParam(c, 'C_Period_ID');
  const period = periodId !== null ? await periodById(c, periodId) : await periodOfDate(c, new Date().toISOString().slice(0, 10));
  if (!period) throw badRequest('Invalid parameter', 'No period holds today: give C_Period_ID');
  const at = periods.findIndex((p) => p.id === period.id);
  if (at < 0) throw badRequest('Invalid parameter', `Period ${period.name} is not in the calendar of ${def.name}`);
  const plan = planWindows(def, periods, at);
  const withQty = [...def.lines, ...def.columns].some((x) => x.amountType === 'Q' || x.amountType === 'R');
  const amounts = await accountAmounts(c, def.acctSchemaId, [...def.accounts.keys()], plan.windows, withQty);
  const rows = computeReport(def, plan, amounts, flagParam(c, 'DetailsSourceFirst') ?? false);
  const printed = def.columns.map((col, i) => ({ col, i })).filter((x) => x.col.isPrinted);
  const columns: ReportColumn[] = [{ name: 'Name', label: 'Name', type: 'text', sum: false }, ...printed.map(({ col }) => ({ name: `Col_${col.id}`, label: col.name, type: 'amount' as const, sum: false }))];
  const data = buildReport({
    title: def.name,
    subtitle: [`Period: ${period.name}`, describeParams(c, ['C_Period_ID'])].filter(Boolean).join('; '),
    columns,
    rows: rows.map((r) => [r.name, ...printed.map(({ i }) => r.values[i]!)]),
    groupBy: null,
    isSummary: false,
  });
  return reportOutcome(c, data, `${def.name} (${period.name}): ${data.rowCount} rows`);
}
