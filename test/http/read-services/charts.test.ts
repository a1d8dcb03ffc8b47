import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);

/** Width and height from a PNG's IHDR chunk, after checking its signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('charts', () => {
  let server: TestServer;
  let admin: string;
  const get = (path: string, token = admin) => server.request('GET', path, { token });
  const image = async (path: string, token = admin) => {
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };
  const sum = (xs: number[]) => Math.round(xs.reduce((n, x) => n + x, 0) * 100) / 100;

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('renders a PNG with the size rules of the spec', async () => {
    const own = await image('/api/v1/charts/50002');
    assert.equal(own.status, 200);
    assert.equal(own.type, 'image/png');
    assert.deepEqual(pngSize(own.body), { width: 300, height: 300 }, 'both sides default to the chart height');
    assert.deepEqual(pngSize((await image('/api/v1/charts/50002?width=800&height=600')).body), { width: 800, height: 600 });
    assert.deepEqual(pngSize((await image('/api/v1/charts/50002?height=200')).body), { width: 300, height: 200 }, 'the width is the chart height, not the asked one');
    assert.deepEqual(pngSize((await image('/api/v1/charts/50002?width=123')).body), { width: 123, height: 300 });
    const json = await get('/api/v1/charts/50000?json&width=320&height=240');
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(Object.keys(json.body), ['data']);
    assert.deepEqual(pngSize(Buffer.from(json.body.data, 'base64')), { width: 320, height: 240 });
    const again = await image('/api/v1/charts/50000?width=320&height=240');
    assert.ok(again.body.equals(Buffer.from(json.body.data, 'base64')), 'the same chart gives the same picture');
    for (const bad of ['width=0', 'height=-1', 'width=abc', 'height=99999', 'width=1.5']) {
      const r = await get(`/api/v1/charts/50000?${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.title, 'Invalid chart size');
    }
  });

  it('uses 100 pixels when the chart has no height', async () => {
    const chart = await server.request('POST', '/api/v1/models/ad_chart', { token: admin, body: { Name: 'No Height', ChartType: 'BC', ChartOrientation: 'H', EntityType: 'U' } });
    assert.equal(chart.status, 201, chart.text);
    const source = await server.request('POST', '/api/v1/models/ad_chartdatasource', {
      token: admin,
      body: { AD_Chart_ID: chart.body.id, Name: 'Partners', FromClause: 'C_BPartner b', CategoryColumn: "CASE WHEN b.IsCustomer='Y' THEN 'Customers' ELSE 'Others' END", ValueColumn: 'COUNT(*)', EntityType: 'U' },
    });
    assert.equal(source.status, 201, source.text);
    assert.deepEqual(pngSize((await image(`/api/v1/charts/${chart.body.id}`)).body), { width: 100, height: 100 });
    const data = await get(`/api/v1/charts/${chart.body.uid}/data`);
    assert.equal(data.status, 200, data.text);
    const partners = await get('/api/v1/models/c_bpartner?$top=1');
    assert.equal(sum(data.body.data.map((d: { value: string }) => Number(d.value))), partners.body['row-count']);
  });

  it('refuses datasources whose clauses are not one read-only query', async () => {
    for (const body of [
      { FromClause: 'C_BPartner b; DROP TABLE C_BPartner', ValueColumn: 'COUNT(*)' },
      { FromClause: 'C_BPartner b', ValueColumn: 'b.Name' },
      { FromClause: 'C_BPartner b', ValueColumn: 'COUNT(*)', WhereClause: "b.Name IN (SELECT pg_read_file('x'))" },
      { FromClause: 'C_BPartner b', ValueColumn: 'COUNT(*)', CategoryColumn: 'b.Nothing' },
      { FromClause: 'AD_User u', ValueColumn: 'COUNT(*)', CategoryColumn: 'u.Password' },
      { FromClause: 'REST_Mail m', ValueColumn: 'COUNT(*)' },
      { FromClause: 'C_BPartner b', ValueColumn: 'COUNT(*)', WhereClause: 'EXISTS (SELECT 1 FROM REST_PasswordReset r)' },
    ]) {
      const r = await server.request('POST', '/api/v1/models/ad_chartdatasource', { token: admin, body: { AD_Chart_ID: 50000, Name: 'Bad', EntityType: 'U', ...body } });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
  });

  it('answers chart data that sums the documents', async () => {
    const top = await get('/api/v1/charts/50000/data');
    assert.equal(top.status, 200, top.text);
    assert.equal(top.body.chartType, 'BC');
    assert.equal(top.body.domainLabel, 'Customer');
    const orders = (await get(`/api/v1/models/c_order?$filter=${q("IsSOTrx eq true and (DocStatus eq 'CO' or DocStatus eq 'CL')")}&$select=GrandTotal,C_BPartner_ID`)).body.records;
    const byPartner = new Map<string, number[]>();
    for (const o of orders) byPartner.set(o.C_BPartner_ID.identifier, [...(byPartner.get(o.C_BPartner_ID.identifier) ?? []), o.GrandTotal]);
    assert.deepEqual(
      top.body.data.map((d: { row: string; column: string; value: string }) => [d.row, d.column, Number(d.value)]).sort(),
      [...byPartner].map(([name, totals]) => ['Sales', name, sum(totals)]).sort(),
    );

    const pie = await get('/api/v1/charts/50001/data');
    assert.deepEqual(Object.keys(pie.body).sort(), ['chartType', 'data', 'displayLegend', 'id', 'name']);
    const lineTotal = sum(pie.body.data.map((d: { value: string }) => Number(d.value)));
    let expected = 0;
    for (const o of orders) {
      const lines = (await get(`/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${o.id}`)}&$select=LineNetAmt`)).body.records;
      expected += sum(lines.map((l: { LineNetAmt: number }) => l.LineNetAmt));
    }
    assert.equal(lineTotal, Math.round(expected * 100) / 100);

    const ytd = await get('/api/v1/charts/50002/data');
    assert.equal(ytd.body.chartType, 'LC');
    const start = new Date();
    start.setUTCDate(1);
    start.setUTCMonth(start.getUTCMonth() - 11);
    const from = start.toISOString().slice(0, 10);
    const intake = (await get(`/api/v1/models/c_order?$filter=${q(`IsSOTrx eq true and DocStatus neq 'VO' and DocStatus neq 'RE' and DateOrdered ge '${from}'`)}&$select=GrandTotal,DateOrdered`)).body.records;
    const byMonth = new Map<string, number[]>();
    for (const o of intake) byMonth.set(`${o.DateOrdered.slice(0, 7)}-01`, [...(byMonth.get(`${o.DateOrdered.slice(0, 7)}-01`) ?? []), o.GrandTotal]);
    assert.deepEqual(
      ytd.body.data.map((d: { series: string; x: string; y: string }) => [d.series, d.x, Number(d.y)]),
      [...byMonth].sort().map(([month, totals]) => ['Order intake', `${month} 00:00:00`, sum(totals)]),
    );
  });

  it('answers chart data in the original\'s three shapes, with numeric values', async () => {
    const category = (await get('/api/v1/charts/50000/data')).body;
    assert.deepEqual(Object.keys(category), ['id', 'name', 'domainLabel', 'rangeLabel', 'displayLegend', 'chartOrientation', 'chartType', 'data']);
    assert.deepEqual(
      [category.name, category.domainLabel, category.rangeLabel, category.displayLegend, category.chartOrientation, category.chartType],
      ['Top Customers', 'Customer', 'Sales', true, 'V', 'BC'],
    );
    assert.ok(category.data.length > 0);
    for (const d of category.data) {
      assert.deepEqual(Object.keys(d), ['row', 'column', 'value']);
      assert.equal(typeof d.row, 'string');
      assert.equal(typeof d.column, 'string');
      assert.equal(typeof d.value, 'number');
    }
    const pie = (await get('/api/v1/charts/50001/data')).body;
    assert.deepEqual([pie.displayLegend, pie.chartType], [true, 'PC']);
    assert.equal(pie.chartOrientation, undefined, 'a pie has no axes');
    for (const d of pie.data) {
      assert.deepEqual(Object.keys(d), ['key', 'value']);
      assert.equal(typeof d.value, 'number');
    }
    const xy = (await get('/api/v1/charts/50002/data')).body;
    assert.deepEqual([xy.chartType, xy.domainLabel, xy.chartOrientation], ['LC', 'Month', 'V']);
    assert.ok(xy.data.length > 0);
    for (const d of xy.data) {
      assert.deepEqual(Object.keys(d), ['series', 'x', 'y']);
      assert.match(d.x, /^\d{4}-\d{2}-01 00:00:00$/, 'x is the period\'s first moment, as the original writes it');
      assert.equal(typeof d.y, 'number');
    }
    const all = (await get('/api/v1/charts/data')).body.charts;
    assert.deepEqual(all.find((c: { id: number }) => c.id === 50000), { id: 50000, ...category }, 'the list holds the same data, with the chart id');
  });

  it('answers a time series of an area chart as category data, as the original does', async () => {
    const chart = await server.request('POST', '/api/v1/models/ad_chart', {
      token: admin,
      body: { Name: 'Orders by Month (area)', ChartType: 'AC', ChartOrientation: 'V', IsTimeSeries: true, TimeUnit: 'M', TimeScope: 24, EntityType: 'U' },
    });
    assert.equal(chart.status, 201, chart.text);
    const source = await server.request('POST', '/api/v1/models/ad_chartdatasource', {
      token: admin,
      body: { AD_Chart_ID: chart.body.id, Name: 'Orders', FromClause: 'C_Order o', DateColumn: 'o.DateOrdered', ValueColumn: 'COUNT(*)', EntityType: 'U' },
    });
    assert.equal(source.status, 201, source.text);
    const data = await get(`/api/v1/charts/${chart.body.id}/data`);
    assert.equal(data.status, 200, data.text);
    assert.equal(data.body.chartType, 'AC');
    assert.ok(data.body.data.length > 0);
    for (const d of data.body.data) assert.deepEqual(Object.keys(d), ['row', 'column', 'value']);
  });

  it('answers several charts through $filter, as the collection asks', async () => {
    const r = await get(`/api/v1/charts/data?$filter=${q('AD_Chart_ID eq 50000 OR AD_Chart_ID eq 50001')}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.charts.map((c: { id: number }) => c.id).sort(), [50000, 50001]);
    const all = await get('/api/v1/charts/data');
    assert.ok(all.body.charts.length >= 6);
    const bad = await get(`/api/v1/charts/data?$filter=${q('Nope eq 1')}`);
    assert.equal(bad.status, 400);
  });

  it('keeps charts to their client and answers 404 for unknown ones', async () => {
    const system = await systemLogin(server);
    assert.equal((await get('/api/v1/charts/50000/data', system)).status, 404);
    assert.equal((await image('/api/v1/charts/50000', system)).status, 404);
    assert.deepEqual((await get('/api/v1/charts/data', system)).body.charts, []);
    for (const id of ['999999', 'abc', '00000000-0000-4000-8000-000000000000']) {
      const r = await get(`/api/v1/charts/${id}`);
      assert.equal(r.status, 404, id);
      assert.equal(r.body.title, 'Chart not found');
      assert.equal((await get(`/api/v1/charts/${id}/data`)).status, 404);
    }
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    assert.equal((await get('/api/v1/charts/50000/data', user)).status, 200);
    assert.equal((await server.request('GET', '/api/v1/charts/50000')).status, 401);
  });
});
