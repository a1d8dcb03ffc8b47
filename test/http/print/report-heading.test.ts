import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { htmlTable, xlsxRows } from '../../helpers/files.js';
import { findPhrase, inkIn, pdfWords, renderPage } from '../../helpers/pdf-render.js';

/** A4 landscape (reports with more than six columns) in PDF points, and the margin. */
const LANDSCAPE = { width: 841.89, height: 595.28 };
const MARGIN = 36;

describe('reports carry the company, their parameters, the run date and the user', () => {
  const f = serverWithDemoRoles();
  const run = async (body: Record<string, unknown>, token = f.admin) => {
    const r = await f.server.request('POST', '/api/v1/processes/rv_orderdetail', { token, body: { C_BPartner_ID: '117,118', ...body } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    return Buffer.from(r.body.reportFile ?? r.body.exportFile, 'base64');
  };
  /** The minutes a run may have been stamped with: from just before it to just after. */
  const runMinutes = (from: Date, to: Date): string[] => {
    const out: string[] = [];
    for (let t = Math.floor(from.getTime() / 60_000); t <= Math.floor(to.getTime() / 60_000); t++) out.push(new Date(t * 60_000).toISOString().slice(0, 16).replace('T', ' '));
    return out;
  };

  it('PDF: the company at the top left, run date and user at the top right, the parameters under the title, page numbers', async () => {
    const before = new Date();
    const pdf = await run({});
    const minutes = runMinutes(before, new Date());
    const words = pdfWords(pdf);
    const company = findPhrase(words, 'GardenWorld · HQ');
    assert.ok(company, words.map((w) => w.text).join(' '));
    assert.ok(Math.abs(company.xMin - MARGIN) < 2 && company.yMin < MARGIN + 10, 'the company heads the page at the left');
    const user = findPhrase(words, 'by GardenAdmin');
    assert.ok(user && Math.abs(user.xMax - (LANDSCAPE.width - MARGIN)) < 2 && user.yMin < MARGIN + 10, 'the user at the top right');
    const date = words.find((w) => w.yMin < MARGIN + 10 && minutes.some((m) => m.startsWith(w.text)));
    assert.ok(date, `the run date (${minutes.join(', ')}) at the top`);
    const params = findPhrase(words, 'Business Partner: 117, 118;');
    const title = findPhrase(words, 'Order Detail');
    assert.ok(params && title && params.yMin > title.yMin, 'the parameters under the title');
    assert.ok(findPhrase(words, 'Page 1 of 1'), 'numbered');
    const img = renderPage(pdf);
    assert.ok(inkIn(img, { x: company.xMin, y: company.yMin, w: company.xMax - company.xMin, h: company.yMax - company.yMin }).ink > 0.05, 'the heading is drawn');
  });

  it('HTML: a heading line with company, run date and user above the title; the table stays as it was', async () => {
    const html = (await run({ 'report-type': 'HTML' })).toString('utf8');
    assert.match(html, /<p class="heading">GardenWorld · HQ · Run on \d{4}-\d\d-\d\d \d\d:\d\d UTC by GardenAdmin<\/p>/);
    assert.match(html, /<p class="parameters">Business Partner: 117, 118; /);
    const t = htmlTable(Buffer.from(html));
    assert.equal(t.rows[0]!.cells[0], 'Document No', 'the first row is still the column header');
  });

  it('XLSX: the first sheet is the table alone; the sheet "Run" and the properties and page header tell company, parameters, date and user', async () => {
    const data = await run({ 'report-type': 'XLSX' });
    const rows = await xlsxRows(data);
    assert.equal(rows[0]![0], 'Document No');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    const info = wb.getWorksheet('Run');
    assert.ok(info, 'a sheet about the run');
    const values = new Map<string, string>();
    info.eachRow((row) => values.set(String(row.getCell(1).value), String(row.getCell(2).value)));
    assert.equal(values.get('Report'), 'Order Detail');
    assert.equal(values.get('Company'), 'GardenWorld · HQ');
    assert.match(values.get('Parameters') ?? '', /^Business Partner: 117, 118/);
    assert.match(values.get('Run on') ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    assert.equal(values.get('User'), 'GardenAdmin');
    assert.equal(wb.company, 'GardenWorld · HQ');
    assert.equal(wb.creator, 'GardenAdmin');
    assert.match(wb.worksheets[0]!.headerFooter.oddHeader ?? '', /GardenWorld · HQ.*Order Detail.*GardenAdmin/);
  });

  it("names the user who runs it: GardenWorld User's report says so", async () => {
    const db = f.server.services.db;
    const { rows } = await db.query<{ id: number }>(`SELECT ad_process_id AS id FROM ad_process WHERE lower(value) = 'rv_orderdetail'`);
    const processId = Number(rows[0]!.id);
    await db.query(`DELETE FROM ad_process_access WHERE ad_process_id = $1 AND ad_role_id = 103`, [processId]);
    await db.query(
      `INSERT INTO ad_process_access (ad_process_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, isreadwrite, ad_process_access_uu)
       VALUES ($1, 103, 11, 0, 'Y', now(), 100, now(), 100, 'Y', md5('report heading access')::uuid::text)`,
      [processId],
    );
    const access = await f.server.request('POST', '/api/v1/processes/rv_orderdetail', { token: f.user, body: { 'report-type': 'HTML' } });
    assert.equal(access.status, 200, access.text);
    assert.match(Buffer.from(access.body.exportFile, 'base64').toString('utf8'), /by GardenUser</);
  });
});
