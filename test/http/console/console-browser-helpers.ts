import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../../src/paths.js';

export { CHROMIUM, FLAGS, skipWithoutBrowser } from '../../helpers/browser.js';
export const VIEWPORT = { width: 1280, height: 800 };

/** Saves a screenshot of the page for docs/console.md. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(projectRoot, 'docs', 'console', `${name}.png`) });
}

/**
 * Logs in through the console's stepwise form: user and password, then the client whose name
 * starts with `client` (else the first), the role whose name contains `role` and the organization
 * whose name starts with `org` (the warehouse as offered).
 */
export async function consoleLogin(page: Page, o: { user: string; password: string; client?: string; role: string; org: string }, before?: () => Promise<void>): Promise<void> {
  await page.fill('#login-user', o.user);
  await page.fill('#login-password', o.password);
  const firstChoices = page.waitForResponse((r) => r.url().includes('/api/v1/auth/warehouses'));
  await page.click('#login-submit');
  // With one client, role and organization the API logs in at once.
  if ((await Promise.race([firstChoices.then(() => 'choose'), page.locator('#who').waitFor().then(() => 'in')])) === 'in') return;
  // Choosing another client, role or organization reloads the choices below it (the last: warehouses).
  const choose = async (select: string, label: string) => {
    const current = await page.locator(select).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    if (current === label) return;
    const reloaded = page.waitForResponse((r) => r.url().includes('/api/v1/auth/warehouses'));
    await page.selectOption(select, { label });
    await reloaded;
  };
  if (o.client) {
    const clients = await page.locator('#login-client option').allInnerTexts();
    const client = clients.find((c) => c.startsWith(o.client!));
    if (!client) throw new Error(`no client ${o.client} among ${clients.join(', ')}`);
    await choose('#login-client', client);
  }
  const roles = await page.locator('#login-role option').allInnerTexts();
  const chosen = roles.find((r) => r.includes(o.role));
  if (!chosen) throw new Error(`no role ${o.role} among ${roles.join(', ')}`);
  await choose('#login-role', chosen);
  const orgs = await page.locator('#login-org option').allInnerTexts();
  const org = orgs.find((x) => x.startsWith(o.org));
  if (!org) throw new Error(`no organization ${o.org} among ${orgs.join(', ')}`);
  await choose('#login-org', org);
  await before?.();
  await page.click('#login-finish');
  await page.locator('#who').waitFor();
}

/** Opens a lookup (which loads its records when focused) and chooses the record with this id. */
export async function chooseLookup(page: Page, column: string, id: number): Promise<void> {
  const select = page.locator(`#f-${column}`);
  await select.focus();
  await page.locator(`#f-${column}[data-loaded="true"]`).waitFor({ state: 'attached' });
  await select.selectOption(String(id));
}

/** The path of the page's address below /console. */
export const consolePath = (page: Page) => new URL(page.url()).pathname.replace(/^\/console/, '');
