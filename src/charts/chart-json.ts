import type { JsonObject } from '../records/serialize.js';
import { isPie, type ChartDef, type ChartPoint } from './chart-data.js';

/** The chart types the original answers as time series (x, y) when the chart is one: bar, line and stacked bar. */
const XY_TYPES = new Set(['BC', 'LC', 'BS']);

/** Whether a chart's data is the original's XY data set (time series of the bar, line and stacked bar types). */
export const isXyChart = (chart: Pick<ChartDef, 'isTimeSeries' | 'chartType'>): boolean => chart.isTimeSeries && XY_TYPES.has(chart.chartType);

/**
 * A chart's data in the original's three shapes (its MChart.getData): pie charts as {key, value};
 * time series of the bar, line and stacked bar types as {series, x, y}, x the period's first
 * moment ('YYYY-MM-DD HH:mm:ss'); every other chart as category data {row (series), column
 * (category), value}. Values are numbers, as the original writes them.
 */
export function chartJson(chart: ChartDef, points: ChartPoint[]): JsonObject {
  const head: JsonObject = { id: chart.id, name: chart.name };
  if (!isXyChart(chart) && isPie(chart.chartType)) {
    const byKey = new Map<string, number>();
    for (const p of points) byKey.set(p.category, (byKey.get(p.category) ?? 0) + p.value);
    return { ...head, displayLegend: chart.displayLegend, chartType: chart.chartType, data: [...byKey].map(([key, value]) => ({ key, value })) };
  }
  const labels: JsonObject = {};
  if (chart.domainLabel) labels.domainLabel = chart.domainLabel;
  if (chart.rangeLabel) labels.rangeLabel = chart.rangeLabel;
  const common: JsonObject = { ...head, ...labels, displayLegend: chart.displayLegend, chartOrientation: chart.orientation, chartType: chart.chartType };
  if (isXyChart(chart)) return { ...common, data: points.map((p) => ({ series: p.series, x: periodStart(p.category), y: p.value })) };
  return { ...common, data: points.map((p) => ({ row: p.series, column: p.category, value: p.value })) };
}

/** A period's first day ('YYYY-MM-DD') as the original writes an x value: its first moment. */
const periodStart = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day} 00:00:00` : day);
