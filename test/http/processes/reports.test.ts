import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { csvRows, htmlTable, pdfText, xlsxRows } from '../../helpers/files.js';

interface Line {
  documentno: string;
  bpartner: string;
  line: number;
  linenetamt: number;
  qtyordered: number;
}

const money = (n: number): string => n.toFixed(2);

describe('reports', () => {
  let server: TestServer;
  let admin: string;
  let expected: Line[];
  const run = (body: unknown, slug = 'rv_orderdetail', token = admin) => server.request('POST', `/api/v1/processes/${slug}`, { token, body });
  /** The generated file: a PDF is the report file, any other format the export file, as the original answers them. */
  const file = (r: { body: Record<string, any> }): Buffer => {
    const pdf = r.body.reportFile !== undefined;
    assert.notEqual(pdf, r.body.exportFile !== undefined, 'one file, as the report or as the export');
    const data = Buffer.from(pdf ? r.body.reportFile : r.body.exportFile, 'base64');
    assert.equal(pdf ? r.body.reportFileLength : r.body.exportFileLength, data.length);
    assert.equal(data.subarray(0, 5).toString() === '%PDF-', pdf, 'the report file is the PDF');
    return data;
  };

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    // A second order line for partner 118, so that groups and totals have more than one row.
    const o = await server.request('POST', '/api/v1/models/c_order', { token: admin, body: { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, DateOrdered: '2025-07-01', C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 4 }, { M_Product_ID: 126, QtyEntered: 2 }] } });
    assert.equal(o.status, 201, o.text);
    const { rows } = await server.services.db.query<Line>(
      `SELECT o.documentno, bp.name AS bpartner, ol.line::int AS line, ol.linenetamt::float8 AS linenetamt, ol.qtyordered::float8 AS qtyordered
         FROM c_orderline ol JOIN c_order o ON o.c_order_id = ol.c_order_id JOIN c_bpartner bp ON bp.c_bpartner_id = o.c_bpartner_id
        WHERE o.c_bpartner_id IN (117, 118) AND o.issotrx = 'Y' AND o.docstatus NOT IN ('VO', 'RE') AND ol.isactive = 'Y' AND o.ad_client_id = 11
        ORDER BY o.dateordered, o.documentno, ol.line`,
    );
    expected = rows;
    assert.ok(expected.length >= 4, 'enough rows to compare');
  });
  after(async () => {
    await server.close();
  });

  const total = (): number => Math.round(expected.reduce((a, l) => a + l.linenetamt, 0) * 100) / 100;

  it('renders PDF by default, with every row and the grand total', async () => {
    const r = await run({ C_BPartner_ID: '117,118' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    assert.match(r.body.reportFileName, /^Order_Detail_\d+\.pdf$/);
    const pdf = file(r);
    assert.equal(r.body.reportFileLength, pdf.length);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const pages = await pdfText(pdf);
    const text = pages.join('\n');
    assert.match(text, new RegExp(`Page ${pages.length} of ${pages.length}`));
    assert.match(text, /Order Detail/);
    for (const l of expected) {
      assert.ok(text.includes(l.documentno), l.documentno);
      assert.ok(text.includes(money(l.linenetamt)), money(l.linenetamt));
    }
    assert.match(text, new RegExp(`Grand Total.*${money(total()).replace('.', '\\.')}`));
    assert.match(text, /Business Partner: 117, 118/);
    assert.equal(r.body.summary, `Order Detail: ${expected.length} rows`);
  });

  it('renders HTML that an HTML5 parser reads back as the data', async () => {
    const r = await run({ C_BPartner_ID: '117,118', 'report-type': 'HTML' });
    assert.match(r.body.exportFileName, /^Order_Detail_\d+\.html$/);
    const t = htmlTable(file(r));
    assert.equal(t.title, 'Order Detail');
    const [header, ...rest] = t.rows;
    assert.deepEqual(header!.cells, ['Document No', 'Date Ordered', 'Business Partner', 'Line', 'Product', 'Ordered', 'Delivered', 'To Deliver', 'Price', 'Line Amount']);
    const details = rest.filter((x) => x.cls === '');
    assert.deepEqual(
      details.map((d) => [d.cells[0], d.cells[2], Number(d.cells[3]), d.cells[9]]),
      expected.map((l) => [l.documentno, l.bpartner, l.line, money(l.linenetamt)]),
    );
    assert.equal(rest.at(-1)!.cells[9], money(total()));
    assert.equal(rest.at(-1)!.cells[0], 'Grand Total');
  });

  it('renders CSV whose rows are the data', async () => {
    const r = await run({ C_BPartner_ID: '117,118', 'report-type': 'CSV' });
    assert.match(r.body.exportFileName, /\.csv$/);
    const [header, ...rows] = csvRows(file(r));
    assert.equal(header![0], 'Document No');
    assert.deepEqual(
      rows.map((x) => [x[0], x[2], Number(x[9]), Number(x[5])]),
      expected.map((l) => [l.documentno, l.bpartner, l.linenetamt, l.qtyordered]),
    );
  });

  it('renders a workbook that exceljs reads, numbers as numbers (XLS and XLSX)', async () => {
    for (const type of ['XLS', 'XLSX']) {
      const r = await run({ C_BPartner_ID: '117,118', 'report-type': type });
      assert.match(r.body.exportFileName, /\.xlsx$/);
      const rows = await xlsxRows(file(r));
      assert.deepEqual(rows[0]!.slice(0, 3), ['Document No', 'Date Ordered', 'Business Partner']);
      const details = rows.slice(1, 1 + expected.length);
      assert.deepEqual(
        details.map((x) => [x[0], x[2], x[9]]),
        expected.map((l) => [l.documentno, l.bpartner, l.linenetamt]),
      );
      assert.equal(typeof details[0]![1], 'string', 'a date cell');
      const last = rows.at(-1)!;
      assert.equal(last[0], 'Grand Total');
      assert.equal(last[9], total());
    }
  });

  it('groups by partner with subtotals in the print format asked for, and leaves the details out in summary', async () => {
    const byPartner = await run({ C_BPartner_ID: '117,118', 'report-type': 'HTML', 'print-format-id': 200301 });
    assert.equal(byPartner.body.isError, false, byPartner.body.summary);
    const t = htmlTable(file(byPartner));
    const groups = t.rows.filter((x) => x.cls === 'group').map((x) => x.cells[0]);
    assert.deepEqual(groups, [...new Set(expected.map((l) => l.bpartner))].sort());
    const totals = t.rows.filter((x) => x.cls === 'total');
    for (const g of groups) {
      const sum = expected.filter((l) => l.bpartner === g).reduce((a, l) => a + l.linenetamt, 0);
      const row = totals.find((x) => x.cells[0] === `Total ${g}`)!;
      assert.equal(row.cells[6], money(Math.round(sum * 100) / 100), g);
    }
    const summary = await run({ C_BPartner_ID: '117,118', 'report-type': 'HTML', 'print-format-id': 200301, 'is-summary': true });
    const s = htmlTable(file(summary));
    assert.equal(s.rows.filter((x) => x.cls === '').length, 1, 'the header only: no detail rows');
    assert.equal(s.rows.filter((x) => x.cls === 'grand').length, 1);
    assert.deepEqual(s.rows.filter((x) => x.cls === 'total').map((x) => x.cells[6]), totals.map((x) => x.cells[6]));
    const csv = csvRows(file(await run({ C_BPartner_ID: '117,118', 'report-type': 'CSV', 'print-format-id': 200301, 'is-summary': true })));
    assert.deepEqual(csv.slice(1).map((x) => x[0]), groups);
  });

  it('refuses a print format of another report and an unknown one', async () => {
    const other = await run({ 'print-format-id': 200302 });
    assert.equal(other.status, 200);
    assert.equal(other.body.isError, true);
    assert.match(other.body.summary, /does not lay out RV_OrderDetail/);
    const unknown = await run({ 'print-format-id': 99 });
    assert.equal(unknown.body.isError, true);
  });

  it('Business Partner Open Items lists what is still open after allocations', async () => {
    const r = await run({ IsSOTrx: false, 'report-type': 'PDF' }, 'rv_bpartneropen');
    assert.equal(r.body.isError, false, r.body.summary);
    const text = (await pdfText(file(r))).join('\n');
    assert.match(text, /Business Partner Open Items/);
    assert.match(text, /200000/, 'the open vendor invoice');
    assert.match(text, /630\.00/);
    const sales = await run({ 'report-type': 'CSV' }, 'rv_bpartneropen');
    const rows = csvRows(file(sales));
    assert.ok(!rows.some((x) => x[1] === '100000'), 'the paid invoice is not open');
  });

  it('answers the upstream collection request for rv_orderdetail', async () => {
    const r = await run({ C_BPartner_ID: '117,114', DateOrdered: '2022-01-01', DateOrdered_to: '2022-12-31', 'report-type': 'HTML' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false);
    assert.equal(r.body.process, 'rv_orderdetail');
    const t = htmlTable(file(r));
    assert.deepEqual(t.rows.map((x) => x.cls), ['', 'grand'], 'no order of these partners in 2022: the header and the grand total');
  });

  it('reads only the rows the role may see, and refuses roles without access', async () => {
    const webService = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    const denied = await run({}, 'rv_bpartneropen', webService);
    assert.equal(denied.status, 403);
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const r = await run({ 'report-type': 'CSV', C_BPartner_ID: '117,118' }, 'rv_orderdetail', user);
    assert.equal(r.body.isError, false);
    assert.equal(csvRows(file(r)).length - 1, expected.length);
  });

  it('archives every generated report on its run, and gives it back as it was made', async () => {
    const r = await run({ C_BPartner_ID: '117,118', 'report-type': 'CSV' });
    const id = r.body.AD_PInstance_ID;
    const list = await server.request('GET', `/api/v1/models/ad_pinstance/${id}/archives`, { token: admin });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.archives.length, 1);
    const a = list.body.archives[0];
    assert.deepEqual(Object.keys(a), ['id', 'name', 'contentType', 'isReport', 'processId', 'created']);
    assert.equal(a.name, r.body.exportFileName);
    assert.equal(a.contentType, 'text/csv');
    assert.equal(a.isReport, true);
    assert.equal(a.processId, 210);
    const bin = await fetch(`${server.url}/api/v1/models/ad_pinstance/${id}/archives/${a.id}`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(bin.status, 200);
    assert.match(bin.headers.get('content-type') ?? '', /^text\/csv/);
    assert.deepEqual(Buffer.from(await bin.arrayBuffer()), file(r));
    const json = await server.request('GET', `/api/v1/models/ad_pinstance/${id}/archives/${a.id}?json=true`, { token: admin });
    assert.deepEqual(Object.keys(json.body), ['data']);
    assert.equal(json.body.data, r.body.exportFile);
  });
});
