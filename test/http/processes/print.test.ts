import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { htmlTable, pdfText } from '../../helpers/files.js';

describe('record print and archives', () => {
  let server: TestServer;
  let admin: string;
  const get = async (p: string, token = admin): Promise<{ status: number; type: string; body: Buffer; disposition: string }> => {
    const r = await fetch(server.url + p, { headers: { authorization: `Bearer ${token}` } });
    return { status: r.status, type: r.headers.get('content-type') ?? '', body: Buffer.from(await r.arrayBuffer()), disposition: r.headers.get('content-disposition') ?? '' };
  };
  const sql = async <R = Record<string, unknown>>(text: string, params: unknown[] = []) => (await server.services.db.query<R>(text, params)).rows;

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('prints the sales order as a PDF with its partner, lines, taxes and totals', async () => {
    const r = await get('/api/v1/models/c_order/102/print');
    assert.equal(r.status, 200);
    assert.equal(r.type, 'application/pdf');
    assert.match(r.disposition, /Sales_Order_80000\.pdf/);
    const pages = await pdfText(r.body);
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
    assert.match(text, /Grand Total: 311\.70/);
    assert.match(text, /Total Lines: 300\.00/);
  });

  it('prints the invoice and the shipment forms', async () => {
    const inv = await get('/api/v1/models/c_invoice/104/print');
    assert.equal(inv.status, 200);
    const invText = (await pdfText(inv.body)).join('\n');
    assert.match(invText, /Invoice 100000/);
    assert.match(invText, /Grand Total: 311\.70/);
    const ship = await get('/api/v1/models/m_inout/100/print');
    assert.equal(ship.status, 200);
    const shipText = (await pdfText(ship.body)).join('\n');
    assert.match(shipText, /Shipment 500000/);
    assert.match(shipText, /Lines: 3/);
    assert.doesNotMatch(shipText, /Grand Total/);
  });

  it('prints HTML on request and by UUID', async () => {
    const [o] = await sql<{ c_order_uu: string }>(`SELECT c_order_uu FROM c_order WHERE c_order_id = 102`);
    const r = await get(`/api/v1/models/c_order/${o!.c_order_uu}/print?$report_type=HTML`);
    assert.equal(r.status, 200);
    assert.match(r.type, /^text\/html/);
    const t = htmlTable(r.body);
    assert.equal(t.title, 'Sales Order 80000');
    assert.deepEqual(t.rows[0]!.cells, ['Line', 'Product', 'Quantity', 'Unit', 'Price', 'Amount']);
    assert.equal(t.rows.at(-1)!.cells[5], '300.00');
    const bad = await get('/api/v1/models/c_order/102/print?$report_type=DOC');
    assert.equal(bad.status, 400);
  });

  it('prints through the window form of the upstream collection', async () => {
    const r = await get('/api/v1/windows/sales-order/102/print');
    assert.equal(r.status, 200);
    assert.equal(r.type, 'application/pdf');
    assert.match((await pdfText(r.body)).join('\n'), /Sales Order 80000/);
    const invoice = await get('/api/v1/windows/invoice-customer/104/print');
    assert.match((await pdfText(invoice.body)).join('\n'), /Invoice 100000/);
    assert.equal((await get('/api/v1/windows/no-such-window/102/print')).status, 404);
    assert.equal((await get('/api/v1/windows/business-partner/117/print')).status, 404, 'no printed form');
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    assert.equal((await get('/api/v1/windows/table-and-column/100/print', user)).status, 403, 'a window the role may not open');
  });

  it('answers 404, 400 and 403 like a record read', async () => {
    assert.equal((await get('/api/v1/models/c_bpartner/117/print')).status, 404, 'no printed form');
    assert.equal((await get('/api/v1/models/c_order/999999/print')).status, 404);
    assert.equal((await get('/api/v1/models/c_order/abc/print')).status, 400);
    assert.equal((await get('/api/v1/models/nope/1/print')).status, 404);
    const system = await systemLogin(server);
    assert.equal((await get('/api/v1/models/c_order/102/print', system)).status, 403, "another client's order");
    assert.equal((await get('/api/v1/models/c_order/102/archives', system)).status, 403);
    const none = await fetch(`${server.url}/api/v1/models/c_order/102/print`);
    assert.equal(none.status, 401);
  });

  it('archives every printed document: most recent first, the same bytes back, {data} with json', async () => {
    const pdf = await get('/api/v1/models/c_invoice/104/print');
    const html = await get('/api/v1/models/c_invoice/104/print?$report_type=HTML');
    const list = await server.request('GET', '/api/v1/models/c_invoice/104/archives', { token: admin });
    assert.equal(list.status, 200, list.text);
    const archives = list.body.archives as { id: number; name: string; contentType: string; isReport: boolean; created: string }[];
    assert.ok(archives.length >= 2);
    assert.deepEqual(
      archives.slice(0, 2).map((a) => [a.name, a.contentType, a.isReport]),
      [
        ['Invoice_100000.html', 'text/html', false],
        ['Invoice_100000.pdf', 'application/pdf', false],
      ],
    );
    assert.match(archives[0]!.created, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$/);
    assert.ok(!('processId' in archives[0]!));
    const back = await get(`/api/v1/models/c_invoice/104/archives/${archives[1]!.id}`);
    assert.equal(back.type, 'application/pdf');
    assert.deepEqual(back.body, pdf.body);
    const json = await server.request('GET', `/api/v1/models/c_invoice/104/archives/${archives[0]!.id}?json=true`, { token: admin });
    assert.equal(Buffer.from(json.body.data, 'base64').toString(), html.body.toString());
    const other = await server.request('GET', `/api/v1/models/c_order/102/archives/${archives[0]!.id}`, { token: admin });
    assert.equal(other.status, 404, 'an archive is read under its own record only');
    const badId = await server.request('GET', `/api/v1/models/c_invoice/104/archives/x`, { token: admin });
    assert.equal(badId.status, 400);
    const empty = await server.request('GET', '/api/v1/models/c_bpartner/117/archives', { token: admin });
    assert.deepEqual(empty.body, { archives: [] });
  });

  it('keeps archives read-only through /models', async () => {
    const create = await server.request('POST', '/api/v1/models/ad_archive', { token: admin, body: { Name: 'x', AD_Table_ID: 318, Record_ID: 104, BinaryData: 'AA==' } });
    assert.equal(create.status, 403, create.text);
    const [a] = await sql<{ ad_archive_id: number }>(`SELECT ad_archive_id FROM ad_archive WHERE ad_client_id = 11 LIMIT 1`);
    const change = await server.request('PUT', `/api/v1/models/ad_archive/${a!.ad_archive_id}`, { token: admin, body: { Name: 'changed' } });
    assert.equal(change.status, 403, change.text);
    const batchDelete = await server.request('POST', '/api/v1/batch', { token: admin, body: [{ method: 'DELETE', path: `v1/models/ad_archive/${a!.ad_archive_id}` }] });
    assert.equal(batchDelete.body[0].statusCode, 403);
  });
});
