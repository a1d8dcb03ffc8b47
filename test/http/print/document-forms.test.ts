import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { login, systemLogin } from '../../helpers/login.js';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { findPhrase, inkIn, pdfWords, renderPage, savePagePng, type Word } from '../../helpers/pdf-render.js';
import { projectRoot } from '../../../src/paths.js';

/** A4 portrait in PDF points, and the forms' margin. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 36;
const RIGHT = PAGE.width - MARGIN;

describe('printed documents fit to send: letterhead, address block, names, numbers, totals, page numbers', () => {
  const f = serverWithDemoRoles();
  const sql = async <R = Record<string, unknown>>(text: string, params: unknown[] = []) => (await f.server.services.db.query<R>(text, params)).rows;

  /** The PDF a record print answers. */
  const printPdf = async (p: string, token = f.admin): Promise<Buffer> => {
    const r = await f.server.request('GET', p, { token });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.body.isError, false, r.body.summary);
    const pdf = Buffer.from(r.body.reportFile, 'base64');
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    return pdf;
  };
  const phrase = (words: Word[], text: string, page = 1): Word => {
    const w = findPhrase(words, text, page);
    assert.ok(w, `"${text}" on page ${page}: ${words.filter((x) => x.page === page).map((x) => x.text).join(' ')}`);
    return w;
  };
  /** The address lines of a partner location, as the database has them. */
  const partnerAddress = async (bpLocationId: number): Promise<{ address1: string; city: string }> => {
    const [l] = await sql<{ address1: string; city: string }>(
      `SELECT l.address1, l.city FROM c_bpartner_location bpl JOIN c_location l ON l.c_location_id = bpl.c_location_id WHERE bpl.c_bpartner_location_id = $1`,
      [bpLocationId],
    );
    return l!;
  };

  /** Letterhead at the top (name right-aligned, logo at the left), the partner's block at the left below it. */
  const assertLetterheadAndPartner = async (pdf: Buffer, partner: string, bpLocationId: number): Promise<Word[]> => {
    const words = pdfWords(pdf);
    const company = phrase(words, 'GardenWorld');
    assert.ok(company.yMin < MARGIN + 10, `the company's name heads the page (${company.yMin})`);
    assert.ok(Math.abs(company.xMax - RIGHT) < 2, `right-aligned at the margin (${company.xMax})`);
    const [org] = await sql<{ address1: string; taxid: string }>(
      `SELECT l.address1, oi.taxid FROM ad_orginfo oi JOIN c_location l ON l.c_location_id = oi.c_location_id WHERE oi.ad_org_id = 11`,
    );
    for (const text of [org!.address1, `Tax ID: ${org!.taxid}`]) {
      const w = phrase(words, text);
      assert.ok(w.yMin < 160 && Math.abs(w.xMax - RIGHT) < 2, `${text} in the letterhead`);
    }
    const img = renderPage(pdf);
    const logo = inkIn(img, { x: MARGIN, y: MARGIN, w: 140, h: 56 });
    assert.ok(logo.green > 0.15, `the logo is drawn at the top left (${logo.green} green)`);
    assert.ok(inkIn(img, { x: 200, y: MARGIN, w: 150, h: 56 }).ink < 0.005, 'nothing between logo and letterhead text');
    const name = phrase(words, partner);
    assert.ok(Math.abs(name.xMin - MARGIN) < 2 && name.yMin > company.yMax + 60 && name.yMin < 260, `the partner's block at the left, under the letterhead (${name.xMin}, ${name.yMin})`);
    const address = await partnerAddress(bpLocationId);
    const street = phrase(words, address.address1);
    assert.ok(Math.abs(street.xMin - MARGIN) < 2 && street.yMin > name.yMin && street.yMin < name.yMin + 60, 'its street under its name');
    assert.ok(words.some((w) => w.text.startsWith(address.city) && w.yMin > street.yMin && w.xMin < PAGE.width / 2), 'and its city');
    assert.ok(inkIn(img, { x: MARGIN, y: name.yMin, w: 200, h: street.yMax - name.yMin }).ink > 0.02, 'the address block is drawn');
    const page = phrase(words, 'Page 1 of 1');
    assert.ok(page.yMin > PAGE.height - MARGIN && Math.abs(page.xMax - RIGHT) < 2, 'the page number at the foot, right');
    return words;
  };

  /** A total's label and amount on one line, the amount right-aligned at the margin in the right half. */
  const assertTotal = (words: Word[], label: string, amount: string, page = 1): Word => {
    const l = phrase(words, label, page);
    const a = phrase(words, amount, page);
    assert.ok(Math.abs(l.yMin - a.yMin) < 2, `${label} and ${amount} on one line`);
    assert.ok(l.xMin > PAGE.width / 2, `${label} in the right half (${l.xMin})`);
    assert.ok(Math.abs(a.xMax - RIGHT) < 2, `${amount} right-aligned at the margin (${a.xMax})`);
    return a;
  };

  it('prints the sales order with letterhead, logo, the partner address, the status by name and right-aligned totals', async () => {
    const pdf = await printPdf('/api/v1/models/c_order/102/print');
    const words = await assertLetterheadAndPartner(pdf, 'C&W Construction', 112);
    assert.ok(phrase(words, 'Sales Order 80000').xMax > PAGE.width / 2, 'the title at the right');
    const status = phrase(words, 'Completed');
    assert.ok(Math.abs(status.xMax - RIGHT) < 2, 'the status value right-aligned in the details');
    assert.ok(!words.some((w) => w.text === 'CO'), 'no status code');
    const grand = assertTotal(words, 'Grand Total', '311.70 USD');
    const lines = assertTotal(words, 'Total Lines', '300.00 USD');
    assert.ok(lines.yMin < grand.yMin, 'the grand total last');
    const img = renderPage(pdf);
    assert.ok(inkIn(img, { x: grand.xMin, y: grand.yMin, w: grand.xMax - grand.xMin, h: grand.yMax - grand.yMin }).ink > 0.1, 'the grand total is drawn where its words are');
    assert.ok(inkIn(img, { x: MARGIN, y: grand.yMin, w: 200, h: grand.yMax - grand.yMin }).ink < 0.005, 'nothing at the left of the totals');
    // Line amounts stand in one right-aligned column.
    const amounts = ['115.00', '80.00', '105.00'].map((t) => phrase(words, t));
    for (const a of amounts) assert.ok(Math.abs(a.xMax - amounts[0]!.xMax) < 1, `${a.text} aligned right`);
    // DICTUM_WRITE_DOC_IMAGES=1 refreshes the pictures of the documentation.
    if (process.env.DICTUM_WRITE_DOC_IMAGES) {
      savePagePng(await printPdf('/api/v1/models/c_invoice/104/print'), path.join(projectRoot, 'docs', 'printed-invoice.png'));
      savePagePng(pdf, path.join(projectRoot, 'docs', 'sales-order.png'));
    }
  });

  it("writes amounts at the currency's precision with grouping", async () => {
    await sql(`UPDATE c_order SET totallines = 1234567.5, grandtotal = 1234579.2 WHERE c_order_id = 103`);
    await sql(`UPDATE c_orderline SET linenetamt = 12345.678, qtyordered = 12000 WHERE c_orderline_id = 104`);
    const words = pdfWords(await printPdf('/api/v1/models/c_order/103/print'));
    assertTotal(words, 'Grand Total', '1,234,579.20 USD');
    assertTotal(words, 'Total Lines', '1,234,567.50 USD');
    assert.ok(words.some((w) => w.text === '12,345.68'), 'a line amount with grouping, at two decimals');
    assert.ok(words.some((w) => w.text === '12,000'), 'a quantity with grouping');
    const [jpy] = await sql<{ c_currency_id: number }>(`SELECT c_currency_id FROM c_currency WHERE iso_code = 'JPY'`);
    await sql(`UPDATE c_order SET c_currency_id = $1 WHERE c_order_id = 103`, [jpy!.c_currency_id]);
    const yen = pdfWords(await printPdf('/api/v1/models/c_order/103/print'));
    assertTotal(yen, 'Grand Total', '1,234,579 JPY');
    assert.ok(yen.some((w) => w.text === '12,346'), 'a currency without decimals rounds its line amounts');
  });

  it('continues a long order over pages, numbered "Page n of m", its table header repeated and the totals at the end', async () => {
    await sql(
      `INSERT INTO c_orderline SELECT (json_populate_record(ol, json_build_object('c_orderline_id', 9000000 + g, 'c_orderline_uu', md5('printed line ' || g), 'line', 1000 + g * 10))).*
         FROM c_orderline ol, generate_series(1, 90) g WHERE ol.c_orderline_id = 104`,
    );
    const pdf = await printPdf('/api/v1/models/c_order/103/print');
    const words = pdfWords(pdf);
    const pages = Math.max(...words.map((w) => w.page));
    assert.ok(pages >= 2, `${pages} pages`);
    for (let p = 1; p <= pages; p++) {
      const n = phrase(words, `Page ${p} of ${pages}`, p);
      assert.ok(n.yMin > PAGE.height - MARGIN, `page ${p} numbered at its foot`);
      if (words.some((w) => w.page === p && w.text === 'Oak')) phrase(words, 'Quantity', p);
      if (p > 1) assert.ok(phrase(words, 'Sales Order 80001 (continued)', p).yMin < MARGIN + 10, `page ${p} says what it continues`);
    }
    assert.ok(findPhrase(words, 'GardenWorld', 1) && !findPhrase(words, 'Tax ID: 06-1234567', pages), 'the letterhead on the first page');
    assert.ok(!findPhrase(words, 'Grand Total', 1), 'the totals after the lines');
    assert.ok(findPhrase(words, 'Quantity', 2), 'the table header repeated');
    assertTotal(words, 'Grand Total', '1,234,579 JPY', pages);
    assertTotal(words, 'Total Lines', '1,234,568 JPY', pages); // the totals stay together
  });

  it("writes list values and numbers in the user's language", async () => {
    await sql(`UPDATE ad_language SET isactive = 'Y', issystemlanguage = 'Y' WHERE ad_language = 'de_DE'`);
    const r = await f.server.request('POST', '/api/v1/auth/tokens', {
      body: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103, language: 'de_DE' } },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.language, 'de_DE');
    const words = pdfWords(await printPdf('/api/v1/models/c_order/102/print', r.body.token));
    phrase(words, 'Abgeschlossen');
    assert.ok(!words.some((w) => w.text === 'Completed' || w.text === 'CO'));
    assertTotal(words, 'Grand Total', '311,70 USD');
    const english = pdfWords(await printPdf('/api/v1/models/c_order/102/print'));
    phrase(english, 'Completed');
  });

  it('prints the invoice and the shipment with letterhead and partner block; the invoice with its totals', async () => {
    const invoice = await printPdf('/api/v1/models/c_invoice/104/print');
    const words = await assertLetterheadAndPartner(invoice, 'C&W Construction', 112);
    phrase(words, 'Invoice 100000');
    phrase(words, 'Completed');
    assertTotal(words, 'Grand Total', '311.70 USD');
    const shipment = await printPdf('/api/v1/models/m_inout/100/print');
    const shipWords = await assertLetterheadAndPartner(shipment, 'C&W Construction', 112);
    phrase(shipWords, 'Shipment 500000');
    assert.ok(!findPhrase(shipWords, 'Grand Total'), 'a shipment has no amounts');
  });

  it("prints a payment with the partner's bill-to address, tender type by name, what it pays and the amount, by the payment's print process", async () => {
    const [bp] = await sql<{ id: number }>(
      `SELECT bpl.c_bpartner_location_id AS id FROM c_bpartner_location bpl JOIN c_payment p ON p.c_bpartner_id = bpl.c_bpartner_id WHERE p.c_payment_id = 100 ORDER BY bpl.isbillto DESC, bpl.c_bpartner_location_id LIMIT 1`,
    );
    const pdf = await printPdf('/api/v1/models/c_payment/100/print');
    const words = await assertLetterheadAndPartner(pdf, 'C&W Construction', Number(bp!.id));
    phrase(words, 'Receipt 300000');
    phrase(words, 'Check');
    phrase(words, 'Completed');
    const [account] = await sql<{ text: string }>(
      `SELECT trim(concat_ws(' ', b.name, ba.accountno)) AS text FROM c_payment p JOIN c_bankaccount ba ON ba.c_bankaccount_id = p.c_bankaccount_id JOIN c_bank b ON b.c_bank_id = ba.c_bank_id WHERE p.c_payment_id = 100`,
    );
    phrase(words, account!.text);
    phrase(words, '100000');
    assertTotal(words, 'Amount Received', '311.70 USD');
    const draft = pdfWords(await printPdf('/api/v1/models/c_payment/101/print'));
    phrase(draft, 'Payment 400000');
    phrase(draft, 'Drafted');
    phrase(draft, 'Direct Deposit');
    assertTotal(draft, 'Amount Paid', '630.00 USD');
    // Completed, the vendor payment allocates itself to its invoice (negated amounts): printed as paid.
    const done = await f.server.request('PUT', '/api/v1/models/c_payment/101', { token: f.admin, body: { 'doc-action': 'CO' } });
    assert.equal(done.status, 200, done.text);
    const paid = pdfWords(await printPdf('/api/v1/models/c_payment/101/print'));
    phrase(paid, 'Completed');
    const [inv] = await sql<{ documentno: string }>(`SELECT documentno FROM c_invoice WHERE c_invoice_id = 105`);
    // The invoice's number in the table (the description names it too).
    const invoiceWord = paid.filter((w) => w.text === inv!.documentno).at(-1)!;
    const lineAmount = paid.find((w) => w.text === '630.00' && Math.abs(w.yMin - invoiceWord.yMin) < 2);
    assert.ok(lineAmount, `the allocated invoice with the amount paid, not negated: ${paid.map((w) => w.text).join(' ')}`);
    assert.ok(!paid.some((w) => w.text.startsWith('-')), 'no negated amount, not even -0.00');
    const run = await f.server.request('POST', '/api/v1/processes/rpt-c_payment', { token: f.admin, body: { 'record-id': 100, 'model-name': 'c_payment' } });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.reportFileName, 'Receipt_300000.pdf');
    const archives = await f.server.request('GET', '/api/v1/models/c_payment/100/archives', { token: f.admin });
    assert.ok(archives.body.archives.some((a: { name: string }) => a.name === 'Receipt_300000.pdf'), 'archived on the payment');
    const html = await f.server.request('GET', '/api/v1/models/c_payment/100/print?$report_type=HTML', { token: f.admin });
    assert.equal(html.status, 200);
    const text = Buffer.from(html.body.exportFile, 'base64').toString('utf8');
    assert.match(text, /GardenWorld/);
    assert.match(text, /Amount Received: 311\.70 USD/);
  });

  it('prints a payment only for roles given its print process, and only payments of their own client', async () => {
    const user = await f.server.request('GET', '/api/v1/models/c_payment/100/print', { token: f.user });
    assert.equal(user.status, 403, user.text);
    assert.deepEqual(Object.keys(user.body).sort(), ['detail', 'status', 'title']);
    const ws = await f.server.request('GET', '/api/v1/models/c_payment/100/print', { token: f.ws });
    assert.ok([403, 404].includes(ws.status), ws.text);
    const system = await systemLogin(f.server);
    assert.equal((await f.server.request('GET', '/api/v1/models/c_payment/100/print', { token: system })).status, 403, "another client's payment");
    assert.equal((await f.server.request('GET', '/api/v1/models/c_payment/999999/print', { token: f.admin })).status, 404);
    const [{ n }] = (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ad_pinstance WHERE ad_process_id = 1108000 AND result IS NULL`)) as [{ n: number }];
    assert.equal(n, 0, 'a refused print leaves no run');
    // A second login keeps the admin's own prints working after the others were refused.
    await printPdf('/api/v1/models/c_payment/100/print', await login(f.server));
  });
});
