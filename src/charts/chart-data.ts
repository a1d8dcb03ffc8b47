import type { AuthContext } from '../auth/context.js';
import { readPredicate } from '../access/access.js';
import { SqlBuilder } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { ReadDb } from '../db/read-replicas/read-router.js';
import type { Dictionary } from '../dictionary/model.js';
import { bindContext } from '../sql-fragments/context-variables.js';
import { checkFragment, fromTables } from '../sql-fragments/fragment-check.js';
import { assertFromAccess } from '../sql-fragments/fragment-access.js';

type Row = Record<string, unknown>;

/** What a chart is drawn from: its header and its active datasources. */
export interface ChartDef {
  id: number;
  name: string;
  chartType: string;
  orientation: string;
  isTimeSeries: boolean;
  displayLegend: boolean;
  domainLabel: string | null;
  rangeLabel: string | null;
  timeUnit: string;
  timeScope: number;
  winHeight: number | null;
  sources: ChartSource[];
}

export interface ChartSource {
  name: string;
  fromClause: string;
  whereClause: string | null;
  categoryColumn: string | null;
  dateColumn: string | null;
  valueColumn: string;
  seriesColumn: string | null;
  timeOffset: number;
}

/** One value of a chart: a series, a category (or a period's first day) and the value. */
export interface ChartPoint {
  series: string;
  category: string;
  value: number;
}

const str = (v: unknown): string | null => (v === null || v === undefined || String(v).trim() === '' ? null : String(v));

export function chartDef(chart: Row, sources: Row[]): ChartDef {
  const height = Number(chart.winheight);
  return {
    id: Number(chart.ad_chart_id),
    name: String(chart.name),
    chartType: str(chart.charttype) ?? 'BC',
    orientation: str(chart.chartorientation) ?? 'V',
    isTimeSeries: chart.istimeseries === 'Y',
    displayLegend: chart.isdisplaylegend === 'Y',
    domainLabel: str(chart.domainlabel),
    rangeLabel: str(chart.rangelabel),
    timeUnit: str(chart.timeunit) ?? 'M',
    timeScope: Number(chart.timescope) > 0 ? Number(chart.timescope) : 12,
    winHeight: Number.isFinite(height) && height > 0 ? height : null,
    sources: sources.map((s) => ({
      name: String(s.name),
      fromClause: String(s.fromclause ?? ''),
      whereClause: str(s.whereclause),
      categoryColumn: str(s.categorycolumn),
      dateColumn: str(s.datecolumn),
      valueColumn: String(s.valuecolumn ?? ''),
      seriesColumn: str(s.seriescolumn),
      timeOffset: Number(s.timeoffset) || 0,
    })),
  };
}

const UNITS: Record<string, string> = { D: 'day', W: 'week', M: 'month', Q: 'quarter', Y: 'year' };

/** The pie types show one value per category, without axes. */
export const isPie = (chartType: string): boolean => ['PC', 'P3', 'RC'].includes(chartType);

/**
 * The statement of one datasource: the value aggregated per series and category (or per period of
 * the chart's time unit, over the last TimeScope periods up to now shifted by TimeOffset), over
 * the rows of its FROM clause that its WHERE clause and the caller's access rules let through.
 */
export function datasourceStatement(dict: Dictionary, auth: AuthContext, chart: ChartDef, s: ChartSource): { text: string; values: unknown[] } {
  for (const [text, clause] of [
    [s.fromClause, 'FromClause'],
    [s.whereClause, 'WhereClause'],
    [s.categoryColumn, 'CategoryColumn'],
    [s.dateColumn, 'DateColumn'],
    [s.valueColumn, 'ValueColumn'],
    [s.seriesColumn, 'SeriesColumn'],
  ] as const) if (text) checkFragment(text, clause);
  const sql = new SqlBuilder();
  const from = bindContext(s.fromClause, auth, sql);
  const where: string[] = [];
  if (s.whereClause) where.push(`(${bindContext(s.whereClause, auth, sql)})`);
  const tables = fromTables(s.fromClause);
  assertFromAccess(dict, auth, tables);
  for (const t of tables) {
    const table = dict.byName.get(t.table);
    if (table) where.push(readPredicate(auth, table, t.alias, sql));
  }
  let category: string;
  if (chart.isTimeSeries && s.dateColumn) {
    const unit = UNITS[chart.timeUnit] ?? 'month';
    const date = `(${bindContext(s.dateColumn, auth, sql)})`;
    const end = `date_trunc('${unit}', now()) + (${sql.param(1 - s.timeOffset)}::int) * interval '1 ${unit}'`;
    where.push(`${date} >= ${end} - ${sql.param(chart.timeScope)}::int * interval '1 ${unit}'`, `${date} < ${end}`);
    category = `to_char(date_trunc('${unit}', ${date}), 'YYYY-MM-DD')`;
  } else category = s.categoryColumn ? `(${bindContext(s.categoryColumn, auth, sql)})::text` : `${sql.param(s.name)}::text`;
  const series = s.seriesColumn ? `(${bindContext(s.seriesColumn, auth, sql)})::text` : `${sql.param(s.name)}::text`;
  const value = `(${bindContext(s.valueColumn, auth, sql)})`;
  return {
    text: `SELECT ${series} AS series, ${category} AS category, ${value} AS value FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY 1, 2 ORDER BY 2, 1`,
    values: sql.values,
  };
}

/** Every datasource's values, read-only and within a time limit. */
export async function chartPoints(db: Pick<ReadDb, 'transaction'>, dict: Dictionary, auth: AuthContext, chart: ChartDef): Promise<ChartPoint[]> {
  const statements = chart.sources.map((s) => datasourceStatement(dict, auth, chart, s));
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY');
    await tx.query('SET LOCAL statement_timeout = 60000');
    const out: ChartPoint[] = [];
    for (const st of statements) {
      const { rows } = await tx.query<Row>(st.text, st.values);
      for (const r of rows) out.push({ series: String(r.series ?? ''), category: String(r.category ?? ''), value: Number(r.value ?? 0) });
    }
    return out;
  });
}

/** Loads a chart (by id or UUID) and its datasources, as the caller's client reaches it; null when none. */
export async function loadChart(q: Queryable, dict: Dictionary, auth: AuthContext, idText: string): Promise<ChartDef | null> {
  const table = dict.byName.get('ad_chart')!;
  const sql = new SqlBuilder();
  const key = /^\d{1,15}$/.test(idText) ? `c."ad_chart_id" = ${sql.param(Number(idText))}` : `c."ad_chart_uu" = ${sql.param(idText.toLowerCase())}`;
  const { rows } = await q.query<Row>(`SELECT c.* FROM "ad_chart" c WHERE ${key} AND c."isactive" = 'Y' AND ${readPredicate(auth, table, 'c', sql)}`, sql.values);
  if (!rows.length) return null;
  return chartDef(rows[0]!, await sourcesOf(q, Number(rows[0]!.ad_chart_id)));
}

export async function sourcesOf(q: Queryable, chartId: number): Promise<Row[]> {
  const { rows } = await q.query<Row>(`SELECT * FROM "ad_chartdatasource" WHERE "ad_chart_id" = $1 AND "isactive" = 'Y' ORDER BY "ad_chartdatasource_id"`, [chartId]);
  return rows;
}
