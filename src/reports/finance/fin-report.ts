import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { buildReport, type ReportColumn } from '../report-model.js';
import { describeParams, reportOutcome } from '../report-process.js';
import { computeReport, planWindows, type AccountAmounts, type FactWindow } from './fin-report-compute.js';
import { loadReportDef } from './fin-report-definition.js';
import { periodById, periodOfDate, type PeriodInfo } from './ledger-scope.js';
import { flagParam, idParam } from './params.js';

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
 * Debit, credit and quantity of every account the report reads, in every window, in one
 * aggregate statement over the facts the caller may read (of the report's schema and, when
 * given, one organisation).
 */
async function accountAmounts(c: ProcessCall, schemaId: number, accountIds: number[], windows: FactWindow[], orgId: number | null): Promise<AccountAmounts> {
  const sql = new SqlBuilder();
  const sums = windows.map((w, i) => {
    const cond = [`f.postingtype = ${sql.param(w.postingType)}`, `f.dateacct < ${sql.param(w.before)}::date`];
    if (w.from) cond.push(`f.dateacct >= ${sql.param(w.from)}::date`);
    const when = cond.join(' AND ');
    return `sum(CASE WHEN ${when} THEN f.amtacctdr ELSE 0 END)::float8 AS dr${i}, sum(CASE WHEN ${when} THEN f.amtacctcr ELSE 0 END)::float8 AS cr${i}, sum(CASE WHEN ${when} THEN f.qty ELSE 0 END)::float8 AS q${i}`;
  });
  const last = windows.reduce((m, w) => (w.before > m ? w.before : m), '0000-01-01');
  const where = [
    `f.c_acctschema_id = ${sql.param(schemaId)}`,
    `f.account_id = ANY(${sql.param(accountIds)}::bigint[])`,
    `f.postingtype = ANY(${sql.param([...new Set(windows.map((w) => w.postingType))])}::text[])`,
    `f.dateacct < ${sql.param(last)}::date`,
    `f.isactive = 'Y'`,
    readPredicate(c.auth, c.s.dictionary.current.byName.get('fact_acct')!, 'f', sql),
  ];
  if (orgId !== null) where.push(`f.ad_org_id = ${sql.param(orgId)}`);
  const { rows } = await c.tx.query<Record<string, number>>(`SELECT f.account_id, ${sums.join(', ')} FROM fact_acct f WHERE ${where.join(' AND ')} GROUP BY f.account_id`, sql.values);
  const out: AccountAmounts = new Map();
  for (const r of rows) {
    out.set(Number(r.account_id), {
      dr: windows.map((_, i) => Number(r[`dr${i}`] ?? 0)),
      cr: windows.map((_, i) => Number(r[`cr${i}`] ?? 0)),
      qty: windows.map((_, i) => Number(r[`q${i}`] ?? 0)),
    });
  }
  return out;
}

/**
 * The original's Financial Report: runs on a PA_Report (the record of the run) at a period
 * (C_Period_ID, else the period of today) and optionally for one organisation (Org_ID), and lays
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
  const amounts = await accountAmounts(c, def.acctSchemaId, [...def.accounts.keys()], plan.windows, idParam(c, 'Org_ID'));
  const rows = computeReport(def, plan, amounts, flagParam(c, 'DetailsSourceFirst') ?? false);
  const printed = def.columns.map((col, i) => ({ col, i })).filter((x) => x.col.isPrinted);
  const columns: ReportColumn[] = [{ name: 'Name', label: 'Name', type: 'text', sum: false }, ...printed.map(({ col }) => ({ name: `Col_${col.id}`, label: col.name, type: 'amount' as const, sum: false }))];
  const data = buildReport({
    title: def.name,
    subtitle: [`Period: ${period.name}`, describeParams(c)].filter(Boolean).join('; '),
    columns,
    rows: rows.map((r) => [r.name, ...printed.map(({ i }) => r.values[i]!)]),
    groupBy: null,
    isSummary: false,
  });
  return reportOutcome(c, data, `${def.name} (${period.name}): ${data.rowCount} rows`);
}
