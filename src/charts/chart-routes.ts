import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { badRequest, notFound } from '../errors.js';
import { readContext, staleReads } from '../records/http/models-routes.js';
import { readDictionaryRecords } from '../read-services/dictionary-records.js';
import type { ReadContext } from '../records/read/read-context.js';
import { chartDef, chartPoints, loadChart, sourcesOf, type ChartDef } from './chart-data.js';
import { chartJson } from './chart-json.js';
import { renderChart } from './chart-render.js';
import { Type } from '@sinclair/typebox';
import { listOf, Open } from '../openapi/answer-schemas.js';
import { OBJECT } from '../openapi/route-schema.js';

type Params = { Params: { id: string } };
type Query = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Pictures larger than this are refused: one would hold tens of megabytes while it is drawn. */
export const MAX_CHART_SIDE = 4000;

/**
 * A side of the picture: the request's value, else the chart's own height (WinHeight), else 100
 * pixels; for the width too, as the original does.
 */
export function chartSide(value: unknown, chartHeight: number | null, name: string): number {
  if (value === undefined || value === '') return chartHeight ?? 100;
  const text = String(value);
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > MAX_CHART_SIDE) {
    throw badRequest('Invalid chart size', `${name} must be a whole number of pixels from 1 to ${MAX_CHART_SIDE}`);
  }
  return Number(text);
}

async function chartOf(rc: ReadContext, id: string): Promise<ChartDef> {
  const chart = /^\d{1,15}$/.test(id) || UUID.test(id) ? await loadChart(rc.q, rc.dict, rc.auth, id) : null;
  if (!chart) throw notFound('Chart not found', `No chart matches id: ${id}`);
  return chart;
}

/** GET /charts/{id} (PNG, or {data} with json), /charts/{id}/data, /charts/data?$filter. */
export async function chartRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get('/api/v1/charts/data', { schema: { summary: 'Data of several charts', queryNames: ['$filter'], answer: listOf('charts', OBJECT), example: { charts: [] } } }, async (req) => {
    const rc = readContext(s, req);
    const filter = (req.query as Query).$filter;
    const { rows } = await readDictionaryRecords(rc, s.dictionary.current.byName.get('ad_chart')!, { ...(typeof filter === 'string' ? { filter } : {}), orderBy: ['Name'] });
    const charts = [];
    const reads = staleReads(s, req);
    for (const row of rows) {
      const chart = chartDef(row, await sourcesOf(rc.q, Number(row.ad_chart_id)));
      charts.push(chartJson(chart, await chartPoints(reads, rc.dict, rc.auth, chart)));
    }
    return { charts };
  });

  app.get<Params>('/api/v1/charts/:id/data', { schema: { summary: 'Data of a chart', answer: OBJECT, example: { id: 50000, name: 'Sales', chartType: 'BC', data: [] } } }, async (req) => {
    const rc = readContext(s, req);
    const chart = await chartOf(rc, req.params.id);
    return chartJson(chart, await chartPoints(staleReads(s, req), rc.dict, rc.auth, chart));
  });

  app.get<Params>('/api/v1/charts/:id', { schema: { summary: 'A chart as a PNG image (json=true: base64 in JSON)', binary: ['image/png'], answer: Open({ data: Type.Optional(Type.String({ contentEncoding: 'base64' })) }), example: { data: 'iVBORw0KGgo...' } }, config: { queryParameters: ['height', 'width', 'json', 'locale'] } }, async (req, reply) => {
    const rc = readContext(s, req);
    const query = req.query as Query;
    const chart = await chartOf(rc, req.params.id);
    const height = chartSide(query.height, chart.winHeight, 'height');
    const width = chartSide(query.width, chart.winHeight, 'width');
    const png = await renderChart(chart, await chartPoints(staleReads(s, req), rc.dict, rc.auth, chart), width, height);
    if (query.json !== undefined) return { data: png.toString('base64') };
    reply.type('image/png');
    return png;
  });
}
