import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows, htmlTable, pdfText, xlsxRows } from '../../helpers/files.js';

const HEADER = ['Warehouse', 'Locator', 'Search Key', 'Product', 'Product Category', 'UOM', 'On Hand Quantity', 'Reserved Quantity', 'Ordered Quantity', 'Available Quantity'];

/** The Storage Detail report (rv_storage): on hand, reserved, ordered and available per product, warehouse and locator. */
describe('Storage Detail report', () => {
  const f = serverWithDemoRoles();
  const run = (body: Record<string, unknown>, token = f.admin) => f.server.request('POST', '/api/v1/processes/rv_storage', { token, body });
  /** The generated file: a PDF is the report file, any other format the export file, as the original answers them. */
  const file = (r: { body: Record<string, any> }): Buffer => {
    const pdf = r.body.reportFile !== undefined;
    assert.notEqual(pdf, r.body.exportFile !== undefined, 'one file, as the report or as the export');
    const data = Buffer.from(pdf ? r.body.reportFile : r.body.exportFile, 'base64');
    assert.equal(pdf ? r.body.reportFileLength : r.body.exportFileLength, data.length);
    assert.equal(data.subarray(0, 5).toString() === '%PDF-', pdf, 'the report file is the PDF');
    return data;
  };
  const csv = async (body: Record<string, unknown>, token = f.admin) => {
    const r = await run({ ...body, 'report-type': 'CSV' }, token);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    return csvRows(file(r));
  };
  /** Rows (the CSV holds the details only) by search key and locator: [on hand, reserved, ordered, available]. */
  const byProduct = (rows: string[][]) => new Map(rows.slice(1).map((x) => [`${x[2]}@${x[1]}`, x.slice(6).map(Number)]));
  const value = async (productId: number) => (await f.server.services.db.query<{ value: string }>(`SELECT value FROM m_product WHERE m_product_id = $1`, [productId])).rows[0]!.value;

  it('shows the storage of every product and locator with reserved, ordered and available quantities (CSV)', async () => {
    const rows = await csv({});
    assert.deepEqual(rows[0], HEADER);
    const detail = byProduct(rows);
    // Two on-hand rows of product 123 at HQ-A-1 (10 and 25) and 2 reserved by the demo sales orders.
    assert.deepEqual(detail.get(`${await value(123)}@HQ-A-1`), [35, 2, 0, 33]);
    assert.deepEqual(detail.get(`${await value(139)}@Store-A-1`), [12, 0, 0, 12]);
    const { rows: totals } = await f.server.services.db.query<{ onhand: number; reserved: number }>(
      `SELECT (SELECT sum(qtyonhand)::float8 FROM m_storageonhand WHERE ad_client_id = 11 AND isactive = 'Y') AS onhand,
              (SELECT sum(qty)::float8 FROM m_storagereservation WHERE ad_client_id = 11 AND issotrx = 'Y' AND isactive = 'Y') AS reserved`,
    );
    const sums = [6, 7, 8, 9].map((i) => rows.slice(1).reduce((n, x) => n + Number(x[i]), 0));
    assert.deepEqual(sums, [totals[0]!.onhand, totals[0]!.reserved, 0, totals[0]!.onhand - totals[0]!.reserved], 'every on-hand and reserved quantity of the client');
    const html = htmlTable(file(await run({ 'report-type': 'HTML' })));
    const grand = html.rows.at(-1)!;
    assert.equal(grand.cells[0], 'Grand Total');
    assert.deepEqual(grand.cells.slice(6).map(Number), sums);
  });

  it('shows what a completed purchase order brings as ordered, and narrows by warehouse, product category and product', async () => {
    const po = await f.server.request('POST', '/api/v1/models/c_order', {
      token: f.admin,
      body: { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 139, QtyEntered: 7 }], 'doc-action': 'CO' },
    });
    assert.equal(po.status, 201, po.text);
    const detail = byProduct(await csv({ M_Product_ID: 139 }));
    assert.deepEqual(detail.get(`${await value(139)}@HQ-A-1`), [45, 0, 7, 45], 'the ordered quantity at the warehouse of the order');
    assert.deepEqual([...detail.keys()].sort(), [`${await value(139)}@HQ-A-1`, `${await value(139)}@Store-A-1`]);
    const store = await csv({ M_Warehouse_ID: 104 });
    assert.ok(store.length > 2);
    assert.ok(store.slice(1).every((x) => x[0] === 'Store Central'), 'only the Store Central warehouse');
    const { rows: inCategory } = await f.server.services.db.query<{ value: string }>(
      `SELECT DISTINCT p.value FROM m_storageonhand s JOIN m_product p ON p.m_product_id = s.m_product_id WHERE p.m_product_category_id = 106 AND s.ad_client_id = 11 ORDER BY 1`,
    );
    assert.ok(inCategory.length > 0);
    const trees = await csv({ M_Product_Category_ID: 106 });
    assert.deepEqual([...new Set(trees.slice(1).map((x) => x[2]))].sort(), inCategory.map((x) => x.value));
    assert.ok(trees.slice(1).every((x) => x[4] === 'Tree'));
    const locator = await csv({ M_Locator_ID: 102 });
    assert.ok(locator.length > 1 && locator.slice(1).every((x) => x[1] === 'Store-A-1'));
  });

  it('renders HTML, XLSX and PDF with the same numbers, grouped by warehouse', async () => {
    const html = await run({ M_Product_ID: 123, 'report-type': 'HTML' });
    assert.equal(html.body.isError, false, html.body.summary);
    assert.match(html.body.exportFileName, /^Storage_Detail_\d+\.html$/);
    assert.deepEqual(Object.keys(html.body), ['AD_PInstance_ID', 'process', 'summary', 'isError', 'exportFile', 'exportFileName', 'exportFileLength', 'nodeId', 'logs']);
    const t = htmlTable(file(html));
    assert.equal(t.title, 'Storage Detail');
    assert.deepEqual(t.rows[0]!.cells, HEADER);
    assert.deepEqual(t.rows.filter((x) => x.cls === 'group').map((x) => x.cells[0]), ['HQ Warehouse']);
    assert.deepEqual(t.rows.filter((x) => x.cls === '').slice(1).map((x) => x.cells.slice(6)), [['35', '2', '0', '33']]);
    const xlsx = await run({ M_Product_ID: 123, 'report-type': 'XLSX' });
    const sheet = await xlsxRows(file(xlsx));
    assert.deepEqual(sheet[0], HEADER);
    const line = sheet.find((x) => x[1] === 'HQ-A-1')!;
    assert.deepEqual(line.slice(6), [35, 2, 0, 33], 'numbers as numbers');
    const pdf = await run({ M_Product_ID: 123 });
    assert.match(pdf.body.reportFileName, /\.pdf$/);
    const text = (await pdfText(file(pdf))).join('\n');
    assert.match(text, /Storage Detail/);
    assert.match(text, /HQ-A-1/);
    assert.match(text, /Grand Total/);
  });

  it('reads only the storage of organisations the role reaches; a role without access gets 403', async () => {
    // Stock in the Furniture organisation, which GardenWorld User does not reach.
    await f.server.services.db.query(
      `INSERT INTO m_storageonhand (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy, ad_client_id, ad_org_id, qtyonhand, m_storageonhand_uu, isactive, created, createdby, updated, updatedby)
       VALUES (128, 50001, 0, '2024-01-01', 11, 50000, 9, $1, 'Y', now(), 100, now(), 100)`,
      [randomUUID()],
    );
    const admin = byProduct(await csv({ M_Product_ID: 128 }));
    assert.deepEqual(admin.get(`${await value(128)}@Furniture-A-1`), [9, 0, 0, 9]);
    const user = byProduct(await csv({ M_Product_ID: 128 }, f.user));
    assert.equal(user.get(`${await value(128)}@Furniture-A-1`), undefined);
    assert.ok(user.has(`${await value(128)}@HQ-A-1`));
    const denied = await run({}, f.ws);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.body.title, 'Access denied');
    const definition = await f.server.request('GET', '/api/v1/processes/rv_storage', { token: f.user });
    assert.equal(definition.status, 200, definition.text);
    assert.equal(definition.body.IsReport, true);
    assert.deepEqual(
      definition.body.parameters.map((p: { parameterName: string }) => p.parameterName),
      ['M_Product_Category_ID', 'M_Warehouse_ID', 'M_Locator_ID', 'M_Product_ID'],
    );
  });
});
