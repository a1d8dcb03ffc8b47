import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { assertPlannable } from '../sql-fragments/plannable.js';
import { checkSavedNames, savingAuth } from '../sql-fragments/fragment-access.js';
import { chartDef, datasourceStatement } from './chart-data.js';

/** A datasource's clauses are checked when saved, together, as the chart will run them. */
async function checkDatasource(e: ModelEvent): Promise<void> {
  const { rows } = await e.tx.query<Record<string, unknown>>('SELECT * FROM "ad_chart" WHERE "ad_chart_id" = $1', [Number(e.row.ad_chart_id)]);
  if (!rows.length) return;
  const chart = chartDef(rows[0]!, [e.row]);
  await assertPlannable(e.tx, `The chart datasource ${String(e.row.name)}`, () => {
    const source = chart.sources[0]!;
    for (const [text, clause] of [
      [source.fromClause, 'FromClause'],
      [source.whereClause, 'WhereClause'],
      [source.categoryColumn, 'CategoryColumn'],
      [source.dateColumn, 'DateColumn'],
      [source.valueColumn, 'ValueColumn'],
      [source.seriesColumn, 'SeriesColumn'],
    ] as const) if (text) checkSavedNames(e, text, clause);
    return datasourceStatement(e.dict, savingAuth(e.auth), chart, source);
  });
}

export function registerChartRules(events: ModelEvents): void {
  events.on('before-new', 'AD_ChartDatasource', checkDatasource);
  events.on('before-change', 'AD_ChartDatasource', checkDatasource);
}
