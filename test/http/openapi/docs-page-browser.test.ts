import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { projectRoot } from '../../../src/paths.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { setSysConfig } from '../auth/auth-helpers.js';
import { CHROMIUM, FLAGS, skipWithoutBrowser } from '../../helpers/browser.js';

// The documentation page in the machine's headless Chromium (Debian's package, installed by
// .ci/run): it opens from `/`, shows the public document at once, logs in through the login flow
// (user and password, then client, role, organization and warehouse), keeps and refreshes the
// token, and falls back to the public document when the kept token has expired.

const SCREENSHOT = path.join(projectRoot, 'docs', 'api-docs-login.png');

describe('the documentation page in a browser', { skip: skipWithoutBrowser }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The page shows the document's title and no load failure. */
  async function documentShown(page: Page): Promise<void> {
    await page.locator('.information-container .title').first().waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.information-container .title').first().innerText(), /Dictum/);
    assert.equal(await page.getByText('Failed to load API definition').count(), 0);
  }

  const kept = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('dictum-tokens') ?? 'null') as { token: string; refresh_token: string } | null);

  it('opens from /, logs in through client, role, organization and warehouse, and refreshes the token', async () => {
    // Short access tokens, so that the page's refresh comes within the test.
    await setSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES', '0.5');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const documentRequests: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/openapi.json') documentRequests.push(r.headers().authorization);
    });

    await page.goto(`${server.url}/`);
    assert.equal(new URL(page.url()).pathname, '/api/v1/docs');
    await documentShown(page);
    assert.equal(documentRequests[0], undefined, 'the public document is read without a token');

    await page.fill('#dictum-user', 'GardenAdmin');
    await page.fill('#dictum-password', 'wrong');
    await page.click('#dictum-submit');
    await page.locator('#dictum-error').filter({ hasText: /\S/ }).waitFor();

    await page.fill('#dictum-password', 'GardenAdmin');
    await page.click('#dictum-submit');
    await page.locator('#dictum-client').waitFor({ state: 'visible' });
    await page.locator('#dictum-org').waitFor({ state: 'visible' });
    const roles = await page.locator('#dictum-role option').allInnerTexts();
    assert.ok(roles.some((r) => r.includes('GardenWorld Admin')), roles.join(', '));
    await page.selectOption('#dictum-role', { label: roles.find((r) => r.includes('GardenWorld Admin'))! });
    await page.locator('#dictum-org option').first().waitFor({ state: 'attached' });
    const orgs = await page.locator('#dictum-org option').allInnerTexts();
    const hq = orgs.find((o) => o.startsWith('HQ'));
    assert.ok(hq, orgs.join(', '));
    await page.selectOption('#dictum-org', { label: hq });
    await page.locator('#dictum-warehouse option').first().waitFor({ state: 'attached' });
    await page.screenshot({ path: SCREENSHOT });

    const loginAnswer = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/tokens') && r.request().method() === 'PUT');
    // Two thirds into the token's 30 s the page refreshes the pair.
    const refreshAnswer = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'), { timeout: 120_000 });
    await page.click('#dictum-submit');
    const first = (await (await loginAnswer).json()) as { token: string; refresh_token: string };
    assert.ok(first.token && first.refresh_token);
    // Checked at once: the token lives 30 s, which rendering the page can take on a busy machine.
    const session = await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: first.token });
    assert.equal(session.status, 200, 'the kept token is a full login');
    await page.locator('#dictum-who').filter({ hasText: 'Logged in as GardenAdmin' }).waitFor();
    await documentShown(page);
    assert.ok(documentRequests.includes(`Bearer ${first.token}`), 'the document is read again with the token');

    const refreshed = await refreshAnswer;
    assert.equal(refreshed.status(), 200);
    assert.equal(JSON.parse(refreshed.request().postData() ?? '{}').refresh_token, first.refresh_token, 'the refresh token of the login is used');
    await page.waitForFunction((old) => JSON.parse(sessionStorage.getItem('dictum-tokens') ?? 'null')?.token !== old, first.token);
    const second = await kept(page);
    assert.notEqual(second!.token, first.token);
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: second!.token })).status, 200, 'the refreshed token works');

    await page.click('#dictum-logout');
    await page.locator('#dictum-user').waitFor({ state: 'visible' });
    assert.equal(await kept(page), null);
    await context.close();
  });

  it('shows the public document, not a load failure, when the kept token has expired', async () => {
    await setSysConfig(server, 'REST_TOKEN_EXPIRE_IN_MINUTES', '0.02');
    const login = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11 } } });
    assert.equal(login.status, 200);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token: login.body.token })).status, 401, 'the token has expired');

    const context = await browser.newContext();
    // The expired pair is in the session's storage before the page's first load (once: not again on reload).
    await context.addInitScript((pair) => {
      if (sessionStorage.getItem('dictum-test-seeded')) return;
      sessionStorage.setItem('dictum-test-seeded', '1');
      sessionStorage.setItem('dictum-tokens', JSON.stringify(pair));
    }, { token: login.body.token, refresh_token: 'not-a-refresh-token', user: 'GardenAdmin' });
    const page = await context.newPage();
    await page.goto(`${server.url}/api/v1/docs/`);
    await documentShown(page);
    await page.locator('#dictum-user').waitFor({ state: 'visible' });
    assert.equal(await kept(page), null, 'a pair that cannot be refreshed is dropped');
    // The page's own assets load under the path with a trailing slash too.
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.reload();
    await documentShown(page);
    assert.deepEqual(failed, []);
    await context.close();
  });
});
