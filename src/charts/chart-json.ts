import type { JsonObject } from '../records/serialize.js';
import { isPie, type ChartDef, type ChartPoint } from './chart-data.js';

/**
 * A chart's data in the original's three shapes: pie charts as {key, value}; time series as
 * {series, x, y}; other charts as category data {row (series), column (category), value}.
 * Values are written as strings, as the original's schema has them.
 */
export function chartJson(chart: ChartDef, points: ChartPoint[]): JsonObject {
  const head: JsonObject = { id: chart.id, name: chart.name };
  if (isPie(chart.chartType)) {
    const byKey = new Map<string, number>();
    for (const p of points) byKey.set(p.category, (byKey.get(p.category) ?? 0) + p.value);
    return { ...head, displayLegend: chart.displayLegend, chartType: chart.chartType, data: [...byKey].map(([key, value]) => ({ key, value: String(value) })) };
  }
  const labels: JsonObject = {};
  if (chart.domainLabel) labels.domainLabel = chart.domainLabel;
  if (chart.rangeLabel) labels.rangeLabel = chart.rangeLabel;
  const common: JsonObject = { ...head, ...labels, displayLegend: chart.displayLegend, chartOrientation: chart.orientation, chartType: chart.chartType };
  if (chart.isTimeSeries) return { ...common, data: points.map((p) => ({ series: p.series, x: p.category, y: String(p.value) })) };
  return { ...common, data: points.map((p) => ({ row: p.series, column: p.category, value: String(p.value) })) };
}
