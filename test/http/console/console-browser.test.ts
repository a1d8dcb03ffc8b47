import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { projectRoot } from '../../../src/paths.js';
import { clearRoleType } from '../../../src/auth/clear-role-type.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { sleep } from '../../helpers/wait.js';
import { setSysConfig } from '../auth/auth-helpers.js';
import { Receiver } from '../webhooks/receiver.js';
import { chooseLookup, CHROMIUM, consoleLogin, consolePath, FLAGS, screenshot, skipWithoutBrowser, VIEWPORT } from './console-browser-helpers.js';

// The web console in the machine's headless Chromium, as a user goes through it: stepwise login,
// a table's records filtered and paged, a record edited and one created, a sales order with a
// line created and completed, a document's accounting facts, a report run with parameters and
// opened, a background job, a webhook delivery replayed, nodes, servers and schedulers. Every
// step is checked against the API as well. Screenshots go to docs/console/.

const BPARTNER_TABLE = 291;
const INVOICE_WITH_FACTS = 104;

describe('the web console in a browser', { skip: skipWithoutBrowser }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let admin: string;
  let receiver: Receiver;
  const errors: string[] = [];

  const api = async (method: string, p: string, body?: unknown) => {
    const r = await server.request(method, p, { token: admin, body });
    assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
    return r.body;
  };
  const open = async (p: string) => {
    await page.goto(`${server.url}/console${p}`);
    await page.locator('main h1').first().waitFor();
  };

  before(async () => {
    receiver = await new Receiver().start();
    server = await startTestServer();
    admin = await login(server);
    // Outbound webhooks on changes of business partners, to the local receiver.
    await setSysConfig(server, 'REST_WEBHOOK_ENABLED', 'Y', 11);
    await setSysConfig(server, 'REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1');
    const endpoint = await api('POST', '/api/v1/models/REST_Webhook_Out', { Name: 'Console receiver', URL: `${receiver.url}/hook` });
    await api('POST', '/api/v1/models/REST_Webhook_Out_Event', { REST_Webhook_Out_ID: endpoint.id, AD_Table_ID: BPARTNER_TABLE, EventModelValidator: 'TAC' });
    fs.mkdirSync(path.join(projectRoot, 'docs', 'console'), { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('logs in stepwise: user and password, then client, role, organization and warehouse', async () => {
    await page.goto(`${server.url}/console/tables/c_bpartner`);
    await page.fill('#login-user', 'GardenAdmin');
    await page.fill('#login-password', 'wrong');
    await page.click('#login-submit');
    await page.locator('#login-error').filter({ hasText: /\S/ }).waitFor();
    await consoleLogin(page, { user: 'GardenAdmin', password: 'GardenAdmin', role: 'GardenWorld Admin', org: 'HQ' }, () => screenshot(page, 'login'));
    assert.match(await page.locator('#who').innerText(), /GardenAdmin, GardenWorld Admin/);
    // The address asked for before the login opens after it.
    await page.locator('main h1', { hasText: 'Business Partner' }).waitFor();
    const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem('dictum-console-tokens') ?? 'null'));
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: kept.token })).status, 200, 'the console holds a full login');
  });

  it('lists business partners page by page and with a filter', async () => {
    await open('/tables/c_bpartner');
    const total = (await api('GET', '/api/v1/models/c_bpartner?$top=1'))['row-count'] as number;
    await page.locator('#page-info', { hasText: `Page 1 of ${Math.ceil(total / 10)} (${total} records)` }).waitFor();
    assert.equal(await page.locator('main tbody tr').count(), 10);
    await page.click('#page-next');
    await page.locator('#page-info', { hasText: 'Page 2 of' }).waitFor();
    assert.equal(await page.locator('main tbody tr').count(), Math.min(10, total - 10));
    await page.fill('#record-filter', "contains(tolower(Name),'farm')");
    await page.click('#record-search');
    await page.locator('#page-info', { hasText: '(2 records)' }).waitFor();
    assert.deepEqual((await page.locator('main tbody tr td:nth-child(3)').allInnerTexts()).sort(), ['Seed Farm Inc.', 'Tree Farm Inc.']);
    await screenshot(page, 'records');
    await page.fill('#record-filter', 'Name eq');
    await page.click('#record-search');
    await page.locator('[role=alert]').waitFor();
  });

  it('opens a record, shows its lookups by identifier, and saves a changed field', async () => {
    await open('/tables/c_bpartner?filter=Value%20eq%20%27JoeBlock%27');
    await page.click('main tbody a.open');
    await page.locator('#record-form').waitFor();
    assert.equal(consolePath(page), '/tables/c_bpartner/118');
    assert.equal(await page.locator('#f-C_BP_Group_ID option:checked').innerText(), 'Standard Customers');
    await page.fill('#f-Description', 'Edited in the console');
    await page.click('#record-save');
    await page.locator('.notice.ok', { hasText: 'Saved' }).waitFor();
    assert.equal((await api('GET', '/api/v1/models/c_bpartner/118')).Description, 'Edited in the console');
    await screenshot(page, 'record');
  });

  it('creates a record', async () => {
    await open('/tables/c_bpartner');
    await page.click('#record-new');
    await page.locator('#record-form').waitFor();
    await page.fill('#f-Name', 'Console Garden Supplies');
    await page.click('#record-save');
    await page.waitForURL(/\/console\/tables\/c_bpartner\/\d+$/);
    const id = Number(consolePath(page).split('/').pop());
    const created = await api('GET', `/api/v1/models/c_bpartner/${id}`);
    assert.equal(created.Name, 'Console Garden Supplies');
    assert.equal(created.IsActive, true, 'defaults of the dictionary apply to what the form left alone');
  });

  it('creates a sales order with a line, completes it, and shows the accounting facts of a posted invoice', async () => {
    await open('/tables/c_order/new');
    await chooseLookup(page, 'C_BPartner_ID', 118);
    await chooseLookup(page, 'C_DocTypeTarget_ID', 132);
    await page.click('#record-save');
    await page.waitForURL(/\/console\/tables\/c_order\/\d+$/);
    const orderPath = consolePath(page);
    const orderId = Number(orderPath.split('/').pop());
    await page.click('a[data-detail="c_orderline"]');
    await page.locator('#record-form').waitFor();
    assert.equal(await page.locator('#f-C_Order_ID').inputValue(), String(orderId), 'the line belongs to the order');
    await chooseLookup(page, 'M_Product_ID', 128);
    await page.fill('#f-QtyEntered', '5');
    await page.click('#record-save');
    await page.waitForURL(/\/console\/tables\/c_orderline\/\d+$/);
    await open(orderPath);
    await page.locator('.details a.open[href^="/console/tables/c_orderline/"]').waitFor();
    const lines = await api('GET', `/api/v1/models/c_orderline?$filter=C_Order_ID eq ${orderId}`);
    assert.equal(lines['row-count'], 1);
    assert.equal(lines.records[0].QtyEntered, 5);
    await page.selectOption('#doc-action', 'CO');
    await page.click('#doc-action-run');
    await page.locator('#doc-status', { hasText: 'Completed' }).waitFor();
    const order = await api('GET', `/api/v1/models/c_order/${orderId}`);
    assert.equal(order.DocStatus.id, 'CO');
    assert.ok(order.GrandTotal > 0);
    await screenshot(page, 'sales-order');
    // Orders post nothing (no commitment accounting); an invoice does.
    await page.locator('#facts', { hasText: 'No accounting facts' }).waitFor();

    await open(`/tables/c_invoice/${INVOICE_WITH_FACTS}`);
    await page.locator('#facts tbody tr').first().waitFor();
    const facts = await api('GET', `/api/v1/models/fact_acct?$filter=AD_Table_ID eq 318 and Record_ID eq ${INVOICE_WITH_FACTS}`);
    assert.equal(await page.locator('#facts tbody tr').count(), facts['row-count']);
    await page.locator('#facts').scrollIntoViewIfNeeded();
    await screenshot(page, 'facts');
  });

  it('refuses a document action the document does not accept, with the reason', async () => {
    const completed = (await api('GET', "/api/v1/models/c_order?$filter=DocStatus eq 'CO'&$top=1")).records[0];
    await open(`/tables/c_order/${completed.id}`);
    await page.selectOption('#doc-action', 'PR');
    await page.click('#doc-action-run');
    await page.locator('#record-status [role=alert]').waitFor();
  });

  it('runs a report with parameters and opens what it produced', async () => {
    await open('/processes');
    await page.click('text=Business Partner Open Items');
    await page.locator('#process-form').waitFor();
    await chooseLookup(page, 'C_BPartner_ID', 117);
    await page.selectOption('#report-type', 'HTML');
    const run = page.waitForResponse((r) => r.url().endsWith('/api/v1/processes/rv_bpartneropen') && r.request().method() === 'POST');
    await page.click('#process-run');
    const sent = JSON.parse((await run).request().postData() ?? '{}');
    assert.equal(sent.C_BPartner_ID, 117);
    assert.equal(sent.IsSOTrx, true, 'the parameter default shows and is sent');
    await page.locator('#process-result .notice.ok', { hasText: 'Business Partner Open Items' }).waitFor();
    const link = page.locator('#process-result a[download]');
    assert.match((await link.getAttribute('download')) ?? '', /\.html$/);
    const report = await link.evaluate((a) => fetch((a as HTMLAnchorElement).href).then((r) => r.text()));
    assert.match(report, /<title>Business Partner Open Items<\/title>/);
    await page.frameLocator('#report-frame').locator('body').waitFor();
    await screenshot(page, 'report');
  });

  it('runs a process as a background job and follows it', async () => {
    await open('/processes/rv_bpartneropen');
    await page.click('#process-background');
    await page.waitForURL(/\/console\/jobs$/);
    await page.locator('#jobs .state.done').first().waitFor({ timeout: 20_000 });
    const jobs = (await api('GET', '/api/v1/processes/jobs')).jobs as { id: number; state: string }[];
    const shown = await page.locator('#jobs tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(shown.sort(), jobs.map((j) => String(j.id)).sort());
    await screenshot(page, 'jobs');
  });

  it('shows webhook deliveries and replays one', async () => {
    for (let i = 0; i < 200 && receiver.received.length === 0; i++) await sleep(25);
    assert.ok(receiver.received.length > 0, 'the edit of a partner was delivered');
    await open('/webhooks');
    const first = page.locator('button.replay').first();
    const id = Number(await first.getAttribute('data-delivery'));
    const before = receiver.received.length;
    await first.click();
    await page.locator('#webhook-status .notice.ok', { hasText: `Delivery ${id} queued again` }).waitFor();
    for (let i = 0; i < 200 && receiver.received.length === before; i++) await sleep(25);
    assert.equal(receiver.received.length, before + 1, 'the replayed delivery was sent again');
    await screenshot(page, 'webhooks');
  });

  it('shows servers and schedulers to the client administrator, and nodes only to the System role', async () => {
    await open('/cluster');
    await page.locator('#schedulers tbody tr').first().waitFor();
    const schedulers = (await api('GET', '/api/v1/models/ad_scheduler'))['row-count'];
    assert.equal(await page.locator('#schedulers tbody tr').count(), schedulers);
    await page.locator('#nodes [role=alert]', { hasText: 'System role' }).waitFor();

    await clearRoleType(server.services.db, 0);
    await page.click('#logout');
    await page.locator('#login-user').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('dictum-console-tokens')), null, 'logging out drops the tokens');
    await consoleLogin(page, { user: 'SuperUser', password: 'System', client: 'System', role: 'System', org: '*' });
    await open('/cluster');
    await page.locator('#nodes tbody tr').first().waitFor();
    await page.locator('#servers table, #servers .empty').first().waitFor();
    await screenshot(page, 'nodes');
  });

  it('gives the least-privileged role no more than the API gives it', async () => {
    await page.click('#logout');
    await consoleLogin(page, { user: 'WebService', password: 'WebService', role: 'Web Service', org: 'HQ' });
    await open('/webhooks');
    const before = receiver.received.length;
    const replay = page.locator('button.replay').first();
    await replay.click();
    await page.locator('#webhook-status [role=alert]', { hasText: 'client administrator' }).waitFor();
    await sleep(300);
    assert.equal(receiver.received.length, before, 'nothing was sent again');
    await open('/cluster');
    await page.locator('#nodes [role=alert]', { hasText: 'System role' }).waitFor();
    assert.deepEqual(errors, [], 'no script errors on the pages');
  });
});
