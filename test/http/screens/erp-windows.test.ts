import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { otherClientAdmin } from '../documents/other-client.js';
import { displayedColumn } from '../../../src/screens/seed/window-seed.js';
import { ERP_WINDOWS } from '../../../src/screens/seed/erp-windows.js';

const q = (s: string) => encodeURIComponent(s);

/** The windows of the documents added since the first fifteen: slug, id and tabs (slug, level). */
const WINDOWS: [slug: string, id: number, tabs: [string, number][]][] = [
  ['gl-journal-batch', 132, [['batch', 0], ['journal', 1], ['line', 2]]],
  ['gl-journal', 200000, [['journal', 0], ['line', 1]]],
  ['bank-statement', 194, [['bank-statement', 0], ['statement-line', 1]]],
  ['cash-journal', 255, [['cash-journal', 0], ['cash-line', 1]]],
  ['inventory-move', 170, [['move', 0], ['move-line', 1]]],
  ['physical-inventory', 168, [['inventory-count', 0], ['inventory-count-line', 1]]],
  ['internal-use-inventory', 341, [['internal-use', 0], ['internal-use-line', 1]]],
  ['payment-selection-manual', 206, [['payment-selection', 0], ['payment-selection-line', 1]]],
  ['dunning-run', 231, [['dunning-run', 0], ['entry', 1], ['line', 2]]],
  ['requisition', 322, [['requisition', 0], ['requisition-line', 1]]],
  ['rfq', 324, [['rfq', 0], ['line', 1], ['quantity', 2]]],
];

describe('windows of the documents added since the first fifteen', () => {
  const fx = serverWithDemoRoles();
  const as = (token: string, method: string, path: string, body?: unknown) => fx.server.request(method, path, { token, body });

  it('shows fields for the columns of a tab but the key, UUID and who/when (pure)', () => {
    assert.equal(displayedColumn({ columnname: 'M_Movement_ID', iskey: 'Y' }, 'M_Movement'), false);
    assert.equal(displayedColumn({ columnname: 'M_Movement_UU', iskey: 'N' }, 'M_Movement'), false);
    assert.equal(displayedColumn({ columnname: 'Created', iskey: 'N' }, 'M_Movement'), false);
    assert.equal(displayedColumn({ columnname: 'M_Movement_ID', iskey: 'N' }, 'M_MovementLine'), true, 'the parent link');
    assert.equal(displayedColumn({ columnname: 'MovementQty', iskey: 'N' }, 'M_MovementLine'), true);
    const tabIds = ERP_WINDOWS.windows.flatMap((w) => w.tabs.map((t) => t.id));
    assert.equal(new Set(tabIds).size, tabIds.length, 'tab ids are distinct');
    assert.ok(tabIds.every((id) => id >= 1132000 && id < ERP_WINDOWS.firstFieldId));
  });

  it('lists each new window with its tabs and displayed fields, and the menu leads to them', async () => {
    const list = await as(fx.admin, 'GET', '/api/v1/windows');
    assert.equal(list.status, 200, list.text);
    const byslug = new Map(list.body.windows.map((w: { slug: string; id: number }) => [w.slug, w]));
    for (const [slug, id, tabs] of WINDOWS) {
      const w = byslug.get(slug) as { id: number; WindowType: { id: string } } | undefined;
      assert.ok(w, `${slug} is listed`);
      assert.equal(w.id, id, slug);
      assert.equal(w.WindowType.id, 'T', slug);
      const t = await as(fx.admin, 'GET', `/api/v1/windows/${slug}/tabs`);
      assert.equal(t.status, 200, t.text);
      assert.deepEqual(t.body.tabs.map((x: { slug: string; TabLevel: number }) => [x.slug, x.TabLevel]), tabs, slug);
      for (const [tab] of tabs) {
        const f = await as(fx.admin, 'GET', `/api/v1/windows/${slug}/tabs/${tab}/fields?$filter=${q('IsDisplayed eq true')}`);
        assert.equal(f.status, 200, f.text);
        assert.ok(f.body.fields.length > 3, `${slug}/${tab} displays fields`);
        assert.ok(!f.body.fields.some((x: { Name: string }) => x.Name === 'Created'), 'who and when stay hidden');
      }
      const records = await as(fx.admin, 'GET', `/api/v1/windows/${slug}`);
      assert.equal(records.status, 200, `${slug}: ${records.text}`);
    }
    const vendor = await as(fx.admin, 'GET', '/api/v1/windows/invoice-vendor/tabs');
    assert.deepEqual(vendor.body.tabs.map((x: { slug: string; TabLevel: number }) => [x.slug, x.TabLevel]), [['invoice', 0], ['invoice-line', 1], ['landed-cost', 2]]);
    const menu = await as(fx.admin, 'GET', '/api/v1/menutree/10');
    const entries = (e: { Name: string; AD_Window_ID?: { id: number }; entries?: unknown[] }[]): { Name: string; AD_Window_ID?: { id: number } }[] => e.flatMap((x) => [x, ...entries((x.entries ?? []) as never)]);
    const windowIds = new Set(entries(menu.body.entries).map((e) => e.AD_Window_ID?.id));
    for (const [slug, id] of WINDOWS) assert.ok(windowIds.has(id), `the menu opens ${slug}`);
  });

  it('reads records through the header and child tabs, and the where clause parts counts from internal use', async () => {
    const counts = await as(fx.admin, 'GET', '/api/v1/windows/physical-inventory');
    assert.equal(counts.status, 200, counts.text);
    assert.ok(counts.body['row-count'] > 0, 'the opening stock counts of the demo');
    const count = counts.body['window-records'][0];
    const one = await as(fx.admin, 'GET', `/api/v1/windows/physical-inventory/${count.id}?$expand=inventory-count-line`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.id, count.id);
    assert.ok(one.body['inventory-count-line'].length > 0);
    const lines = await as(fx.admin, 'GET', `/api/v1/windows/physical-inventory/tabs/inventory-count/${count.id}/inventory-count-line`);
    assert.equal(lines.status, 200, lines.text);
    assert.equal(lines.body['row-count'], one.body['inventory-count-line'].length);
    const line = await as(fx.admin, 'GET', `/api/v1/windows/physical-inventory/tabs/inventory-count-line/${lines.body['childtab-records'][0].id}`);
    assert.equal(line.status, 200, line.text);
    assert.equal(line.body.M_Inventory_ID.id, count.id);
    const internal = await as(fx.admin, 'GET', `/api/v1/windows/internal-use-inventory/${count.id}`);
    assert.equal(internal.status, 404, 'a physical inventory is not an internal use');
    const printed = await as(fx.admin, 'GET', `/api/v1/windows/physical-inventory/${count.id}/print`);
    assert.equal(printed.status, 200, printed.text);
    const noPrint = await as(fx.admin, 'GET', `/api/v1/windows/requisition/tabs/requisition-line/1/print`);
    assert.equal(noPrint.status, 404, 'a tab of a table without a print process prints nothing');
  });

  it('creates a requisition with its lines through the window, and a line under it through its tab', async () => {
    const r = await as(fx.admin, 'POST', '/api/v1/windows/requisition', { description: 'through the window', 'requisition-line': [{ M_Product_ID: 128, qty: 4 }] });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.description, 'through the window');
    assert.equal(r.body['requisition-line'].length, 1);
    assert.equal(r.body['requisition-line'][0].M_Product_ID.id, 128);
    const added = await as(fx.admin, 'POST', `/api/v1/windows/requisition/tabs/requisition/${r.body.id}/requisition-line`, { M_Product_ID: 128, qty: 2 });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.M_Requisition_ID.id, r.body.id, 'linked to its requisition');
    const model = await as(fx.admin, 'GET', `/api/v1/models/m_requisitionline?$filter=${q(`M_Requisition_ID eq ${r.body.id}`)}`);
    assert.equal(model.body['row-count'], 2);
    const bad = await as(fx.admin, 'POST', '/api/v1/windows/requisition', { 'requisition-line': [{ M_Product_ID: 999999, qty: 1 }] });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.body.title && bad.body.detail);
    const move = await as(fx.admin, 'POST', '/api/v1/windows/inventory-move', { 'move-line': [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, movementQty: 1 }] });
    assert.equal(move.status, 201, move.text);
    assert.equal(move.body['move-line'][0].movementQty, 1);
  });

  it('refuses a role without window access: 403 and no window in its list or menu', async () => {
    const list = await as(fx.user, 'GET', '/api/v1/windows');
    const slugs = list.body.windows.map((w: { slug: string }) => w.slug);
    for (const [slug] of WINDOWS) {
      assert.ok(!slugs.includes(slug), slug);
      const r = await as(fx.user, 'GET', `/api/v1/windows/${slug}/tabs`);
      assert.equal(r.status, 403, slug);
      assert.equal(r.body.detail, `Access denied for window: ${slug}`);
    }
    const post = await as(fx.user, 'POST', '/api/v1/windows/requisition', { description: 'x' });
    assert.equal(post.status, 403);
    const records = await as(fx.ws, 'GET', '/api/v1/windows/physical-inventory');
    assert.equal(records.status, 403);
  });

  it('another client opens no window it was not given, and sees none of the demo records', async () => {
    const other = await otherClientAdmin(fx.server);
    const list = await as(other, 'GET', '/api/v1/windows');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.windows.length, 0);
    const denied = await as(other, 'GET', '/api/v1/windows/physical-inventory');
    assert.equal(denied.status, 403);
    const dict = fx.server.services.dictionary.current;
    const { insertSeedRows } = await import('../../../src/seed/insert-rows.js');
    await insertSeedRows(fx.server.services.db, dict.byName.get('ad_window_access')!, WINDOWS.map(([, id]) => ({ AD_Window_ID: id, AD_Role_ID: 1_119_902, AD_Client_ID: 1_119_900, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Window_Access_UU: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}` })), new Date().toISOString());
    for (const [slug, , tabs] of WINDOWS) {
      const r = await as(other, 'GET', `/api/v1/windows/${slug}`);
      assert.equal(r.status, 200, `${slug}: ${r.text}`);
      assert.equal(r.body['row-count'], 0, slug);
      assert.equal((await as(other, 'GET', `/api/v1/windows/${slug}/tabs`)).body.tabs.length, tabs.length);
    }
    const count = (await as(fx.admin, 'GET', '/api/v1/windows/physical-inventory')).body['window-records'][0].id;
    const hidden = await as(other, 'GET', `/api/v1/windows/physical-inventory/${count}`);
    assert.ok(hidden.status === 403 || hidden.status === 404, hidden.text);
    assert.equal(hidden.body.documentNo, undefined, 'nothing of the record');
  });
});
