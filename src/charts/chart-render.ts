import path from 'node:path';
import type { ChartConfiguration, ChartType, Chart as ChartClass } from 'chart.js';
import { projectRoot } from '../paths.js';
import { isPie, type ChartDef, type ChartPoint } from './chart-data.js';

/**
 * Charts are drawn with Chart.js on @napi-rs/canvas: a Skia canvas whose prebuilt binary comes in
 * the npm package (no system graphics libraries), and the chart library most dashboards already
 * use. A font shipped with the project makes the same data give the same picture everywhere.
 */
const FONT = 'DejaVu Sans';

/** The canvas binary and Chart.js, loaded on the first chart rather than with the service. */
type Libraries = { createCanvas: typeof import('@napi-rs/canvas').createCanvas; Chart: typeof ChartClass };
let libraries: Promise<Libraries> | undefined;

function setUp(): Promise<Libraries> {
  libraries ??= Promise.all([import('@napi-rs/canvas'), import('chart.js')]).then(([canvas, chartJs]) => {
    const { Chart, registerables } = chartJs;
    Chart.register(...registerables);
    canvas.GlobalFonts.registerFromPath(path.join(projectRoot, 'assets', 'fonts', 'DejaVuSans.ttf'), FONT);
    Chart.defaults.font.family = FONT;
    Chart.defaults.color = '#333333';
    return { createCanvas: canvas.createCanvas, Chart };
  });
  return libraries;
}

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** Chart.js type and options of the original's chart types (3D and waterfall drawn flat). */
function typeOf(chartType: string): { type: ChartType; stacked: boolean; fill: boolean } {
  switch (chartType) {
    case 'BS':
    case 'B4':
      return { type: 'bar', stacked: true, fill: false };
    case 'LC':
    case 'L3':
      return { type: 'line', stacked: false, fill: false };
    case 'AC':
      return { type: 'line', stacked: false, fill: true };
    case 'AS':
      return { type: 'line', stacked: true, fill: true };
    case 'PC':
    case 'P3':
      return { type: 'pie', stacked: false, fill: false };
    case 'RC':
      return { type: 'doughnut', stacked: false, fill: false };
    default:
      return { type: 'bar', stacked: false, fill: false };
  }
}

function configOf(chart: ChartDef, points: ChartPoint[]): ChartConfiguration {
  const kind = typeOf(chart.chartType);
  const categories = [...new Set(points.map((p) => p.category))];
  const title = { display: true, text: chart.name };
  const legend = { display: chart.displayLegend };
  if (isPie(chart.chartType)) {
    const values = categories.map((c) => points.filter((p) => p.category === c).reduce((n, p) => n + p.value, 0));
    return {
      type: kind.type,
      data: { labels: categories, datasets: [{ data: values, backgroundColor: categories.map((_, i) => PALETTE[i % PALETTE.length]!) }] },
      options: { animation: false, responsive: false, devicePixelRatio: 1, plugins: { title, legend } },
    } as ChartConfiguration;
  }
  // Categories in their natural order (months, age buckets, names), whichever series names them first.
  categories.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const series = [...new Set(points.map((p) => p.series))];
  const datasets = series.map((name, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    return {
      label: name,
      data: categories.map((c) => points.find((p) => p.series === name && p.category === c)?.value ?? 0),
      backgroundColor: kind.fill || kind.type === 'bar' ? `${color}cc` : color,
      borderColor: color,
      fill: kind.fill,
    };
  });
  const horizontal = chart.orientation === 'H';
  const axisTitle = (text: string | null) => (text ? { display: true, text } : { display: false });
  const domain = { stacked: kind.stacked, title: axisTitle(chart.domainLabel) };
  const range = { stacked: kind.stacked, beginAtZero: true, title: axisTitle(chart.rangeLabel) };
  return {
    type: kind.type,
    data: { labels: categories, datasets },
    options: {
      animation: false,
      responsive: false,
      devicePixelRatio: 1,
      indexAxis: horizontal ? 'y' : 'x',
      plugins: { title, legend },
      scales: horizontal ? { y: domain, x: range } : { x: domain, y: range },
    },
  } as ChartConfiguration;
}

/** Chart.js clears the canvas before drawing: the picture gets a white background, not a transparent one. */
const WHITE_BACKGROUND = {
  id: 'white-background',
  beforeDraw(c: ChartClass): void {
    c.ctx.save();
    c.ctx.fillStyle = '#ffffff';
    c.ctx.fillRect(0, 0, c.width, c.height);
    c.ctx.restore();
  },
};

/** The chart as a PNG image of exactly width × height pixels. */
export async function renderChart(chart: ChartDef, points: ChartPoint[], width: number, height: number): Promise<Buffer> {
  const { createCanvas, Chart } = await setUp();
  const canvas = createCanvas(width, height);
  const config = configOf(chart, points);
  config.plugins = [WHITE_BACKGROUND];
  const drawn = new Chart(canvas as unknown as HTMLCanvasElement, config);
  try {
    return await canvas.encode('png');
  } finally {
    drawn.destroy();
  }
}
