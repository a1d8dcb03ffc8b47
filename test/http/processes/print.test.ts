import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { systemLogin } from '../../helpers/login.js';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows, htmlTable, pdfText, xlsxRows } from '../../helpers/files.js';

/** The answer of a print: the process result of the window's print process, as the original's. */
interface PrintResult {
  AD_PInstance_ID: number;
  process: string;
  summary: string;
  isError: boolean;
  nodeId: string;
  logs: unknown[];
  reportFile?: string;
  reportFileName?: string;
  reportFileLength?: number;
  exportFile?: string;
  exportFileName?: string;
  exportFileLength?: number;
}

/** The property names of the original's print answer (ProcessInfo of the upstream document). */
const PROCESS_INFO = new Set(['AD_PInstance_ID', 'process', 'summary', 'isError', 'reportFile', 'reportFileName', 'reportFileLength', 'exportFile', 'exportFileName', 'exportFileLength', 'nodeId', 'logs']);

describe('record print: the result of the print process of the record\'s window', () => {
  const f = serverWithDemoRoles();
  const get = (p: string, token = f.admin) => f.server.request('GET', p, { token });
  const sql = async <R = Record<string, unknown>>(text: string, params: unknown[] = []) => (await f.server.services.db.query<R>(text, params)).rows;

  /** A successful print answer: JSON of the original's shape, with the file it names. */
  const printed = async (p: string, token = f.admin): Promise<PrintResult & { file: Buffer }> => {
    const r = await get(p, token);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const body = r.body as PrintResult;
    for (const k of Object.keys(body)) assert.ok(PROCESS_INFO.has(k), `unexpected property ${k}`);
    assert.equal(typeof body.AD_PInstance_ID, 'number');
    assert.equal(body.isError, false, body.summary);
    assert.equal(typeof body.nodeId, 'string');
    assert.deepEqual(body.logs, []);
    const encoded = body.reportFile ?? body.exportFile;
    assert.equal(typeof encoded, 'string', 'one file, base64');
    assert.ok(!(body.reportFile !== undefined && body.exportFile !== undefined), 'a report or an export, not both');
    const file = Buffer.from(encoded!, 'base64');
    assert.equal(body.reportFileLength ?? body.exportFileLength, file.length);
    return { ...body, file };
  };

  it('prints the sales order as a PDF with its partner, lines, taxes and totals, from a recorded run of Order Print', async () => {
    const r = await printed('/api/v1/models/c_order/102/print');
    assert.equal(r.process, 'rpt-c_order');
    assert.equal(r.summary, 'Sales Order 80000');
    assert.equal(r.reportFileName, 'Sales_Order_80000.pdf');
    assert.equal(r.exportFile, undefined);
    assert.equal(r.file.subarray(0, 5).toString(), '%PDF-');
    const pages = await pdfText(r.file);
    assert.equal(pages.length, 1, 'one page, its number on it');
    const text = pages.join('\n');
    assert.match(text, /Sales Order 80000/);
    assert.match(text, /Page 1 of 1/);
    assert.match(text, /C&W Construction/);
    const lines = await sql<{ product: string; linenetamt: number }>(
      `SELECT p.name AS product, ol.linenetamt::float8 AS linenetamt FROM c_orderline ol JOIN m_product p ON p.m_product_id = ol.m_product_id WHERE ol.c_order_id = 102 ORDER BY ol.line`,
    );
    assert.equal(lines.length, 3);
    for (const l of lines) {
      assert.ok(text.includes(l.product), l.product);
      assert.ok(text.includes(l.linenetamt.toFixed(2)), String(l.linenetamt));
    }
    assert.match(text, /Grand Total +311\.70 USD/);
    assert.match(text, /Total Lines +300\.00 USD/);
    const [run] = await sql<Record<string, unknown>>(`SELECT * FROM ad_pinstance WHERE ad_pinstance_id = $1`, [r.AD_PInstance_ID]);
    assert.ok(run, 'the run is recorded');
    assert.deepEqual(
      [Number(run.ad_process_id), Number(run.ad_table_id), Number(run.record_id), run.isprocessing, Number(run.result), run.errormsg, Number(run.ad_client_id)],
      [110, 259, 102, 'N', 1, 'Sales Order 80000', 11],
    );
  });

  it('prints the invoice and the shipment forms with their own processes', async () => {
    const inv = await printed('/api/v1/models/c_invoice/104/print');
    assert.equal(inv.process, 'rpt-c_invoice');
    const invText = (await pdfText(inv.file)).join('\n');
    assert.match(invText, /Invoice 100000/);
    assert.match(invText, /Grand Total +311\.70 USD/);
    const ship = await printed('/api/v1/models/m_inout/100/print');
    assert.equal(ship.process, 'rpt-m_inout');
    assert.equal(ship.reportFileName, 'Shipment_500000.pdf');
    const shipText = (await pdfText(ship.file)).join('\n');
    assert.match(shipText, /Shipment 500000/);
    assert.match(shipText, /Lines: 3/);
    assert.doesNotMatch(shipText, /Grand Total/);
  });

  it('answers HTML, CSV and spreadsheets in exportFile, as the original does for any type but PDF, and by UUID', async () => {
    const [o] = await sql<{ c_order_uu: string }>(`SELECT c_order_uu FROM c_order WHERE c_order_id = 102`);
    const html = await printed(`/api/v1/models/c_order/${o!.c_order_uu}/print?$report_type=HTML`);
    assert.equal(html.reportFile, undefined);
    assert.equal(html.exportFileName, 'Sales_Order_80000.html');
    const t = htmlTable(html.file);
    assert.equal(t.title, 'Sales Order 80000');
    assert.deepEqual(t.rows[0]!.cells, ['Line', 'Product', 'Quantity', 'Unit', 'Price', 'Amount']);
    assert.equal(t.rows.at(-1)!.cells[5], '300.00');
    const csv = await printed('/api/v1/models/c_order/102/print?$report_type=csv');
    assert.equal(csv.exportFileName, 'Sales_Order_80000.csv');
    assert.deepEqual(csvRows(csv.file)[0], ['Line', 'Product', 'Quantity', 'Unit', 'Price', 'Amount']);
    const xlsx = await printed('/api/v1/models/c_order/102/print?$report_type=XLSX');
    assert.equal(xlsx.exportFileName, 'Sales_Order_80000.xlsx');
    assert.ok((await xlsxRows(xlsx.file)).some((row) => row.includes('Product')));
    const [run] = await sql<{ reporttype: string }>(`SELECT reporttype FROM ad_pinstance WHERE ad_pinstance_id = $1`, [xlsx.AD_PInstance_ID]);
    assert.equal(run!.reporttype, 'XLSX', 'the run records the type asked for');
    const bad = await get('/api/v1/models/c_order/102/print?$report_type=DOC');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.title, 'Invalid query');
    assert.match(bad.body.detail, /HTML, CSV, XLS, XLSX, PDF/);
  });

  it('prints through the window and tab forms of the original, the record shown by the tab only', async () => {
    const order = await printed('/api/v1/windows/sales-order/102/print');
    assert.equal(order.process, 'rpt-c_order');
    assert.match((await pdfText(order.file)).join('\n'), /Sales Order 80000/);
    const invoice = await printed('/api/v1/windows/invoice-customer/104/print');
    assert.match((await pdfText(invoice.file)).join('\n'), /Invoice 100000/);
    const tab = await printed('/api/v1/windows/sales-order/tabs/order/102/print?$report_type=HTML');
    assert.equal(htmlTable(tab.file).title, 'Sales Order 80000');

    const unknown = await get('/api/v1/windows/no-such-window/102/print');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.title, 'Invalid window name');
    const noProcess = await get('/api/v1/windows/business-partner/117/print');
    assert.equal(noProcess.status, 404, 'the window prints with no process');
    assert.equal(noProcess.body.title, 'No print process');
    const [line] = await sql<{ c_orderline_id: number }>(`SELECT c_orderline_id FROM c_orderline WHERE c_order_id = 102 ORDER BY line LIMIT 1`);
    const lineTab = await get(`/api/v1/windows/sales-order/tabs/order-line/${line!.c_orderline_id}/print`);
    assert.equal(lineTab.status, 404);
    assert.equal(lineTab.body.title, 'No print process');
    assert.equal((await get('/api/v1/windows/sales-order/tabs/no-such-tab/102/print')).body.title, 'Invalid tab name');
    // Order 104 is a purchase order: the Sales Order tab does not show it.
    const outside = await get('/api/v1/windows/sales-order/104/print');
    assert.equal(outside.status, 404);
    assert.equal(outside.body.title, 'Record not found');
    assert.equal((await get('/api/v1/windows/sales-order/999999/print')).status, 404);
    const denied = await get('/api/v1/windows/table-and-column/100/print', f.user);
    assert.equal(denied.status, 403, 'a window the role may not open');
    assert.equal(denied.body.title, 'Access denied');
  });

  it('finds the window a record opens in: by IsSOTrx among the windows of its table, by AD_Table.AD_Window_ID when the table names one', async () => {
    const [vendor] = await sql<{ c_invoice_id: number; documentno: string }>(`SELECT c_invoice_id, documentno FROM c_invoice WHERE issotrx = 'N' AND ad_client_id = 11 ORDER BY c_invoice_id LIMIT 1`);
    assert.ok(vendor, 'the demo company has a vendor invoice');
    const viaVendorWindow = await printed(`/api/v1/models/c_invoice/${vendor.c_invoice_id}/print`);
    assert.equal(viaVendorWindow.summary, `Vendor Invoice ${vendor.documentno}`);
    // GardenWorld User opens the customer invoice window, not the vendor one.
    await printed('/api/v1/models/c_invoice/104/print', f.user);
    const denied = await get(`/api/v1/models/c_invoice/${vendor.c_invoice_id}/print`, f.user);
    assert.equal(denied.status, 403, denied.text);
    assert.match(denied.body.detail, /invoice-vendor/);
    // The demo has no Purchase Order window: a purchase order prints through the order window.
    const purchase = await printed('/api/v1/models/c_order/104/print');
    assert.match(purchase.summary, /^Purchase Order /);

    await sql(`UPDATE ad_table SET ad_window_id = 184 WHERE ad_table_id = 319`);
    try {
      const byTable = await get('/api/v1/models/m_inout/100/print', f.user);
      assert.equal(byTable.status, 403, 'the Material Receipt window, which GardenWorld User may not open');
      assert.match(byTable.body.detail, /material-receipt/);
    } finally {
      await sql(`UPDATE ad_table SET ad_window_id = NULL WHERE ad_table_id = 319`);
    }
    await printed('/api/v1/models/m_inout/100/print', f.user);
  });

  it('answers 400, 404 and 403 like a record read, and 404 for a record without a window or print process', async () => {
    const noProcess = await get('/api/v1/models/c_bpartner/117/print');
    assert.equal(noProcess.status, 404);
    assert.equal(noProcess.body.title, 'No print process');
    const noWindow = await get('/api/v1/models/c_currency/100/print');
    assert.equal(noWindow.status, 404, noWindow.text);
    assert.equal(noWindow.body.title, 'Window not found');
    assert.equal((await get('/api/v1/models/c_order/999999/print')).status, 404);
    const malformed = await get('/api/v1/models/c_order/abc/print');
    assert.equal(malformed.status, 400);
    assert.deepEqual(Object.keys(malformed.body).sort(), ['detail', 'status', 'title']);
    const table = await get('/api/v1/models/nope/1/print');
    assert.equal(table.status, 404);
    assert.equal(table.body.title, 'Invalid table name');
    const system = await systemLogin(f.server);
    assert.equal((await get('/api/v1/models/c_order/102/print', system)).status, 403, "another client's order");
    assert.equal((await get('/api/v1/models/c_order/102/archives', system)).status, 403);
    // Web Service Execution may read invoices but opens no invoice window.
    const ws = await get('/api/v1/models/c_invoice/104/print', f.ws);
    assert.equal(ws.status, 403, ws.text);
    assert.match(ws.body.detail, /window: invoice-customer/);
    assert.equal((await get('/api/v1/models/c_invoice/104', f.ws)).status, 200, 'the invoice itself it may read');
    assert.equal((await f.server.request('GET', '/api/v1/models/c_order/102/print')).status, 401);
    const [{ n }] = (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ad_pinstance WHERE ad_process_id IN (110, 116, 117) AND result IS NULL`)) as [{ n: number }];
    assert.equal(n, 0, 'no run is left unfinished, and a refused print records none');
  });

  it('runs the same process through POST /processes with record-id, for the roles given it', async () => {
    const run = await f.server.request('POST', '/api/v1/processes/rpt-c_order', { token: f.admin, body: { 'record-id': 102, 'table-id': 259 } });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.isError, false);
    assert.equal(run.body.reportFileName, 'Sales_Order_80000.pdf');
    assert.match((await pdfText(Buffer.from(run.body.reportFile, 'base64'))).join('\n'), /Sales Order 80000/);
    const other = await f.server.request('POST', '/api/v1/processes/rpt-c_order', { token: f.admin, body: { 'record-id': 117, 'model-name': 'c_bpartner' } });
    assert.equal(other.status, 200);
    assert.equal(other.body.isError, true);
    assert.match(other.body.summary, /prints C_Order records/);
    const none = await f.server.request('POST', '/api/v1/processes/rpt-c_order', { token: f.admin, body: {} });
    assert.equal(none.body.isError, true);
    const user = await f.server.request('POST', '/api/v1/processes/rpt-c_order', { token: f.user, body: { 'record-id': 102, 'table-id': 259 } });
    assert.equal(user.status, 403, 'the process is not among GardenWorld User\'s');
  });

  it('archives every printed PDF on its document, with the print process; exports are not archived', async () => {
    const pdf = await printed('/api/v1/models/c_invoice/104/print');
    const before = await f.server.request('GET', '/api/v1/models/c_invoice/104/archives', { token: f.admin });
    await printed('/api/v1/models/c_invoice/104/print?$report_type=HTML');
    const list = await f.server.request('GET', '/api/v1/models/c_invoice/104/archives', { token: f.admin });
    assert.equal(list.status, 200, list.text);
    const archives = list.body.archives as { id: number; name: string; contentType: string; isReport: boolean; processId?: number; created: string }[];
    assert.deepEqual(archives, before.body.archives, 'the HTML export is not archived');
    assert.ok(archives.length >= 2, 'both PDF prints of the invoice');
    assert.deepEqual([archives[0]!.name, archives[0]!.contentType, archives[0]!.isReport, archives[0]!.processId], ['Invoice_100000.pdf', 'application/pdf', false, 116]);
    assert.match(archives[0]!.created, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$/);
    const [row] = await sql<{ c_bpartner_id: number; record_id: number; ad_table_id: number }>(`SELECT c_bpartner_id, record_id, ad_table_id FROM ad_archive WHERE ad_archive_id = $1`, [archives[0]!.id]);
    const [invoice] = await sql<{ c_bpartner_id: number }>(`SELECT c_bpartner_id FROM c_invoice WHERE c_invoice_id = 104`);
    assert.deepEqual([Number(row!.c_bpartner_id), Number(row!.ad_table_id), Number(row!.record_id)], [Number(invoice!.c_bpartner_id), 318, 104], 'on the document, with its partner');
    const back = await fetch(`${f.server.url}/api/v1/models/c_invoice/104/archives/${archives[0]!.id}`, { headers: { authorization: `Bearer ${f.admin}` } });
    assert.equal(back.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(Buffer.from(await back.arrayBuffer()), pdf.file);
    const json = await f.server.request('GET', `/api/v1/models/c_invoice/104/archives/${archives[0]!.id}?json=true`, { token: f.admin });
    assert.deepEqual(Buffer.from(json.body.data, 'base64'), pdf.file);
    const other = await f.server.request('GET', `/api/v1/models/c_order/102/archives/${archives[0]!.id}`, { token: f.admin });
    assert.equal(other.status, 404, 'an archive is read under its own record only');
    const badId = await f.server.request('GET', `/api/v1/models/c_invoice/104/archives/x`, { token: f.admin });
    assert.equal(badId.status, 400);
    const empty = await f.server.request('GET', '/api/v1/models/c_bpartner/117/archives', { token: f.admin });
    assert.deepEqual(empty.body, { archives: [] });
  });

  it('keeps archives read-only through /models', async () => {
    const create = await f.server.request('POST', '/api/v1/models/ad_archive', { token: f.admin, body: { Name: 'x', AD_Table_ID: 318, Record_ID: 104, BinaryData: 'AA==' } });
    assert.equal(create.status, 403, create.text);
    const [a] = await sql<{ ad_archive_id: number }>(`SELECT ad_archive_id FROM ad_archive WHERE ad_client_id = 11 LIMIT 1`);
    const change = await f.server.request('PUT', `/api/v1/models/ad_archive/${a!.ad_archive_id}`, { token: f.admin, body: { Name: 'changed' } });
    assert.equal(change.status, 403, change.text);
    const batchDelete = await f.server.request('POST', '/api/v1/batch', { token: f.admin, body: [{ method: 'DELETE', path: `v1/models/ad_archive/${a!.ad_archive_id}` }] });
    assert.equal(batchDelete.body[0].statusCode, 403);
  });
});
