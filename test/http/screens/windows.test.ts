import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

const q = (s: string) => encodeURIComponent(s);

describe('windows, tabs, fields, forms and menu tree', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let ws: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    ({ admin, user, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('lists the windows a role may open, with slugs, and a restricted role sees fewer', async () => {
    const a = await as(admin, 'GET', '/api/v1/windows');
    assert.equal(a.status, 200, a.text);
    const slugs = a.body.windows.map((w: { slug: string }) => w.slug);
    assert.ok(slugs.includes('bank-cash') && slugs.includes('sales-order') && slugs.includes('business-partner'), slugs.join());
    const bank = a.body.windows.find((w: { slug: string }) => w.slug === 'bank-cash');
    assert.equal(bank.id, 158);
    assert.equal(bank.Name, 'Bank/Cash');
    assert.equal(bank.WindowType.id, 'M');
    assert.equal(bank['model-name'], 'ad_window');
    assert.equal(bank.Help, undefined, 'null columns are left out');
    const u = await as(user, 'GET', '/api/v1/windows');
    const userSlugs = u.body.windows.map((w: { slug: string }) => w.slug);
    assert.ok(userSlugs.length < slugs.length);
    assert.ok(!userSlugs.includes('bank-cash') && userSlugs.includes('sales-order'));
    const w = await as(ws, 'GET', '/api/v1/windows');
    assert.deepEqual(w.body.windows.map((x: { slug: string }) => x.slug).sort(), ['business-partner', 'product', 'sales-order']);
  });

  it('filters windows with $filter and answers 400 for a bad one', async () => {
    const r = await as(admin, 'GET', `/api/v1/windows?$filter=${q("name eq 'Bank/Cash'")}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.windows.map((w: { id: number }) => w.id), [158]);
    const bad = await as(admin, 'GET', `/api/v1/windows?$filter=${q('Nope eq 1')}`);
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.body.title);
  });

  it('adds tabs and their displayed fields to the window list with $expand, and chooses columns with $select', async () => {
    const bank = q("Name eq 'Bank/Cash'");
    const plain = await as(admin, 'GET', `/api/v1/windows?$filter=${bank}`);
    assert.equal(plain.body.windows[0].tabs, undefined, 'no tabs unless asked');
    const tabs = await as(admin, 'GET', `/api/v1/windows?$filter=${bank}&$expand=AD_Tab`);
    assert.equal(tabs.status, 200, tabs.text);
    assert.equal(tabs.headers.get('x-ignored-parameters'), null);
    const window = tabs.body.windows[0];
    assert.equal(window.slug, 'bank-cash');
    assert.deepEqual(window.tabs.map((t: { slug: string; TabLevel: number }) => [t.slug, t.TabLevel]), [['bank-cash', 0], ['account', 1], ['bank-account-document', 2]]);
    assert.deepEqual(window.tabs[0], (await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs')).body.tabs[0], 'the tabs as /tabs shows them');
    assert.equal(window.tabs[0].fields, undefined);

    const fields = await as(admin, 'GET', `/api/v1/windows?$filter=${bank}&$expand=${q('ad_tab,ad_field')}`);
    assert.equal(fields.status, 200, fields.text);
    const header = fields.body.windows[0].tabs[0];
    const listed = (await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/bank-cash/fields')).body.fields as { id: number; IsDisplayed?: boolean }[];
    const displayed = (await as(admin, 'GET', `/api/v1/windows/bank-cash/tabs/bank-cash/fields?$filter=${q('IsDisplayed eq true')}`)).body.fields as { id: number }[];
    assert.ok(displayed.length > 0 && displayed.length <= listed.length);
    assert.deepEqual(header.fields.map((f: { id: number }) => f.id), displayed.map((f) => f.id), 'the displayed fields, in field order');
    assert.deepEqual(Object.keys(header.fields[0]), Object.keys(displayed[0]!), 'with the columns /fields shows');

    const chosen = await as(admin, 'GET', `/api/v1/windows?$filter=${bank}&$expand=${q('AD_Tab,AD_Field')}&$select=${q('Name,AD_Tab/Name,AD_Tab/TabLevel,AD_Field/Name')}`);
    assert.equal(chosen.status, 200, chosen.text);
    const w = chosen.body.windows[0];
    assert.deepEqual(Object.keys(w), ['id', 'uid', 'Name', 'model-name', 'slug', 'tabs']);
    assert.deepEqual(Object.keys(w.tabs[1]), ['id', 'uid', 'Name', 'TabLevel', 'model-name', 'slug', 'fields']);
    assert.deepEqual(Object.keys(w.tabs[1].fields[0]), ['id', 'uid', 'Name', 'model-name']);

    for (const [select, expand] of [['Nope', 'AD_Tab'], ['AD_Tab/Nope', 'AD_Tab'], ['AD_Field/Name', 'AD_Tab'], ['AD_Tab/Name', '']]) {
      const r = await as(admin, 'GET', `/api/v1/windows?$select=${q(select)}${expand ? `&$expand=${expand}` : ''}`);
      assert.equal(r.status, 400, `${select} with $expand=${expand}: ${r.text}`);
      assert.equal(r.body.title, 'Invalid $select');
    }

    // A role sees the tabs it may open only: GardenWorld User no advanced tab, Web Service no Bank/Cash at all.
    const u = await as(user, 'GET', `/api/v1/windows?$filter=${q("Name eq 'Sales Order'")}&$expand=AD_Tab`);
    assert.deepEqual(u.body.windows[0].tabs.map((t: { slug: string }) => t.slug), ['order', 'order-line']);
    const a = await as(admin, 'GET', `/api/v1/windows?$filter=${q("Name eq 'Sales Order'")}&$expand=AD_Tab`);
    assert.deepEqual(a.body.windows[0].tabs.map((t: { slug: string }) => t.slug), ['order', 'order-line', 'order-tax']);
    const other = await as(ws, 'GET', `/api/v1/windows?$filter=${bank}&$expand=AD_Tab`);
    assert.deepEqual(other.body.windows, []);
  });

  it('shows a window with its tabs; a role without advanced access sees fewer tabs', async () => {
    const r = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.slug, 'bank-cash');
    assert.deepEqual(r.body.tabs.map((t: { slug: string; TabLevel: number }) => [t.slug, t.TabLevel]), [['bank-cash', 0], ['account', 1], ['bank-account-document', 2]]);
    const a = await as(admin, 'GET', '/api/v1/windows/sales-order/tabs');
    const u = await as(user, 'GET', '/api/v1/windows/sales-order/tabs');
    assert.deepEqual(a.body.tabs.map((t: { slug: string }) => t.slug), ['order', 'order-line', 'order-tax']);
    assert.deepEqual(u.body.tabs.map((t: { slug: string }) => t.slug), ['order', 'order-line']);
  });

  it('answers 404 for an unknown window or tab and 403 for a window the role may not open', async () => {
    const none = await as(admin, 'GET', '/api/v1/windows/nope/tabs');
    assert.equal(none.status, 404);
    assert.equal(none.body.title, 'Invalid window name');
    const denied = await as(user, 'GET', '/api/v1/windows/bank-cash/tabs');
    assert.equal(denied.status, 403);
    assert.equal(denied.body.detail, 'Access denied for window: bank-cash');
    for (const path of ['/api/v1/windows/bank-cash', '/api/v1/windows/bank-cash/100', '/api/v1/windows/bank-cash/tabs/account/100', '/api/v1/windows/bank-cash/tabs/bank-cash/fields']) {
      const r = await as(user, 'GET', path);
      assert.equal(r.status, 403, path);
    }
    const tab = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/nope/fields');
    assert.equal(tab.status, 404);
    assert.equal(tab.body.title, 'Invalid tab name');
    const advanced = await as(user, 'GET', '/api/v1/windows/sales-order/tabs/order-tax/fields');
    assert.equal(advanced.status, 404, 'a tab the role does not see is not found');
  });

  it('lists the fields of a tab, with $filter', async () => {
    const r = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/bank-cash/fields');
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.fields.length >= 5);
    const name = r.body.fields.find((f: { Name: string }) => f.Name === 'Name');
    assert.equal(name['model-name'], 'ad_field');
    assert.equal(name.AD_Column_ID['model-name'], 'ad_column');
    const f = await as(admin, 'GET', `/api/v1/windows/bank-cash/tabs/bank-cash/fields?$filter=${q("Name eq 'Name'")}`);
    assert.deepEqual(f.body.fields.map((x: { Name: string }) => x.Name), ['Name']);
  });

  it('pages a window header tab with $page_no, $sort_column and $filter', async () => {
    const r = await as(admin, 'GET', '/api/v1/windows/bank-cash?$sort_column=!Name');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-row-count'), '2');
    assert.equal(r.body['page-size'], 100);
    assert.equal(r.body['page-number'], 0, 'pages count from 0, as in the original');
    assert.equal(r.body['page-count'], 1);
    assert.equal(r.headers.get('x-page-number'), '0');
    assert.deepEqual(r.body['window-records'].map((x: { name: string }) => x.name), ['First Garden State Bank', 'Cash']);
    assert.equal(r.body['window-records'][0].slug, 'bank-cash');
    assert.equal(r.body['window-records'][0]['model-name'], undefined);
    assert.equal(r.body['window-records'][0].isOwnBank, true, 'property names as the original writes them');
    const f = await as(admin, 'GET', `/api/v1/windows/bank-cash?$filter=${q("Name eq 'Cash'")}`);
    assert.deepEqual(f.body['window-records'].map((x: { id: number }) => x.id), [200000]);
    const p2 = await as(admin, 'GET', '/api/v1/windows/bank-cash?$page_no=1');
    assert.equal(p2.status, 200, p2.text);
    assert.equal(p2.body['window-records'].length, 0, 'the second page of two records is empty');
    assert.equal(p2.body['page-number'], 1);
    const first = await as(admin, 'GET', '/api/v1/windows/bank-cash?$page_no=0&$sort_column=!Name');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body['page-number'], 0);
    assert.deepEqual(first.body['window-records'], r.body['window-records'], '$page_no=0 is the first page');
    const bad = await as(admin, 'GET', '/api/v1/windows/bank-cash?$page_no=x');
    assert.equal(bad.status, 400);
    const badSort = await as(admin, 'GET', '/api/v1/windows/bank-cash?$sort_column=Nope');
    assert.equal(badSort.status, 400);
  });

  it('applies the tab where clause: the sales order window shows sales orders only', async () => {
    const so = await as(admin, 'GET', '/api/v1/windows/sales-order');
    assert.equal(so.status, 200, so.text);
    assert.ok(so.body['row-count'] > 0);
    assert.ok(so.body['window-records'].every((r: { isSOTrx: boolean }) => r.isSOTrx === true));
    const all = await as(admin, 'GET', `/api/v1/models/c_order?$filter=${q('IsSOTrx eq false')}`);
    const purchase = all.body.records[0];
    if (purchase) {
      const r = await as(admin, 'GET', `/api/v1/windows/sales-order/${purchase.id}`);
      assert.equal(r.status, 404, 'a purchase order is not a record of the sales order window');
    }
  });

  it('reads one record with $expand of child tabs, and a child tab under its parent', async () => {
    const r = await as(admin, 'GET', '/api/v1/windows/bank-cash/100?$expand=account');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, 100);
    assert.deepEqual(r.body.account.map((a: { id: number }) => a.id).sort(), [100, 101]);
    const bad = await as(admin, 'GET', '/api/v1/windows/bank-cash/100?$expand=nope');
    assert.equal(bad.status, 400);
    const children = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/account/100/bank-account-document');
    assert.equal(children.status, 200, children.text);
    assert.deepEqual(children.body['childtab-records'].map((d: { name: string }) => d.name).sort(), ['Check Book', 'Direct Deposit']);
    assert.equal(children.body['page-number'], 0);
    const firstPage = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/account/100/bank-account-document?$page_no=0');
    assert.equal(firstPage.status, 200, firstPage.text);
    assert.deepEqual(firstPage.body['childtab-records'], children.body['childtab-records'], 'a child tab list counts pages from 0 too');
    const secondPage = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/account/100/bank-account-document?$page_no=1');
    assert.equal(secondPage.status, 200, secondPage.text);
    assert.deepEqual(secondPage.body['childtab-records'], []);
    assert.equal(secondPage.headers.get('x-page-number'), '1');
    const notChild = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/bank-cash/100/bank-account-document');
    assert.equal(notChild.status, 400);
    const missing = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/account/999999/bank-account-document');
    assert.equal(missing.status, 404);
    const one = await as(admin, 'GET', '/api/v1/windows/bank-cash/tabs/bank-account-document/100');
    assert.equal(one.body.name, 'Check Book');
    assert.equal(one.body.paymentRule.id, 'S');
  });

  it('writes through tabs with the validation and access of /models', async () => {
    const put = await as(admin, 'PUT', '/api/v1/windows/bank-cash/tabs/bank-account-document/100', { id: 100, name: 'My Check Book' });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.name, 'My Check Book');
    const model = await as(admin, 'GET', '/api/v1/models/c_bankaccountdoc/100');
    assert.equal(model.body.Name, 'My Check Book');
    const created = await as(admin, 'POST', '/api/v1/windows/bank-cash/tabs/account/100/bank-account-document', {
      AD_Org_ID: { identifier: 'HQ' },
      name: 'My Check Book 2',
      isActive: true,
      paymentRule: { id: 'S' },
      currentNext: 1000,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.C_BankAccount_ID.id, 100, 'linked to the parent record');
    const invalid = await as(admin, 'POST', '/api/v1/windows/bank-cash/tabs/account/100/bank-account-document', { name: 'x', paymentRule: { id: 'S' }, Check_PrintFormat_ID: { id: 999124 } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.title, 'Validation Errors');
    const unknown = await as(admin, 'PUT', '/api/v1/windows/bank-cash/tabs/bank-account-document/100', { nope: 1 });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /nope/);
    const noParent = await as(admin, 'POST', '/api/v1/windows/bank-cash/tabs/account/999999/bank-account-document', { name: 'x', paymentRule: 'S' });
    assert.equal(noParent.status, 404);
    const del = await as(admin, 'DELETE', `/api/v1/windows/bank-cash/tabs/bank-account-document/${created.body.id}`);
    assert.equal(del.status, 200, del.text);
    const gone = await as(admin, 'GET', `/api/v1/models/c_bankaccountdoc/${created.body.id}`);
    assert.equal(gone.status, 404);
  });

  it('creates a header record with child tab records, in one transaction', async () => {
    const body = { isSOTrx: true, C_DocTypeTarget_ID: { identifier: 'Standard Order' }, C_BPartner_ID: { identifier: 'C&W Construction' }, deliveryViaRule: 'P', 'order-line': [{ M_Product_ID: 128, qtyEntered: 1 }] };
    const r = await as(admin, 'POST', '/api/v1/windows/sales-order', body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.isSOTrx, true);
    assert.equal(r.body['order-line'].length, 1);
    assert.equal(r.body['order-line'][0].M_Product_ID.id, 128);
    const before = await as(admin, 'GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${r.body.id}`)}`);
    assert.equal(before.body['row-count'], 1);
    const bad = await as(admin, 'POST', '/api/v1/windows/sales-order', { ...body, 'order-line': [{ M_Product_ID: 999999 }] });
    assert.equal(bad.status, 400, bad.text);
    const tax = await as(admin, 'POST', '/api/v1/windows/sales-order', { ...body, 'order-tax': [{}] });
    assert.equal(tax.status, 403, 'a read-only child tab takes no records');
    const count = async () => (await as(admin, 'GET', `/api/v1/models/c_order?$filter=${q('IsSOTrx eq true')}`)).body['row-count'];
    const orders = await count();
    const dry = await as(admin, 'POST', '/api/v1/windows/sales-order?$save=false', body);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body['order-line'].length, 1, 'the record as it would be saved');
    assert.equal(await count(), orders, 'a dry run saves nothing');
    const dryBad = await as(admin, 'POST', '/api/v1/windows/sales-order?$save=maybe', body);
    assert.equal(dryBad.status, 400);
    const header = await as(admin, 'PUT', `/api/v1/windows/sales-order/${r.body.id}`, { description: 'through the window' });
    assert.equal(header.status, 200, header.text);
    assert.equal(header.body.description, 'through the window');
  });

  it('refuses writes a role may not make', async () => {
    const readOnlyTab = await as(admin, 'POST', '/api/v1/windows/sales-order/tabs/order/102/order-tax', {});
    assert.equal(readOnlyTab.status, 403);
    assert.equal(readOnlyTab.body.title, 'Create not allow');
    const userWindow = await as(user, 'PUT', '/api/v1/windows/bank-cash/tabs/bank-account-document/100', { name: 'x' });
    assert.equal(userWindow.status, 403);
    const wsDelete = await as(ws, 'DELETE', '/api/v1/windows/bank-cash/tabs/bank-account-document/100');
    assert.equal(wsDelete.status, 403);
    const still = await as(admin, 'GET', '/api/v1/models/c_bankaccountdoc/100');
    assert.equal(still.status, 200);
    const badId = await as(admin, 'GET', '/api/v1/windows/bank-cash/abc');
    assert.equal(badId.status, 400);
  });

  it('lists the forms the role was given, with $filter', async () => {
    const r = await as(admin, 'GET', `/api/v1/forms?$filter=${q("entityType neq 'D'")}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.forms.map((f: { slug: string }) => f.slug), ['garden-planner']);
    assert.equal(r.headers.get('x-row-count'), '1');
    const all = await as(admin, 'GET', '/api/v1/forms');
    const ids = all.body.forms.map((f: { id: number }) => f.id);
    assert.deepEqual(ids, [...ids].sort((x: number, y: number) => x - y), 'by id, as the original lists them');
    assert.equal(all.headers.get('x-row-count'), String(ids.length));
    for (const f of all.body.forms) {
      assert.equal(typeof f.id, 'number');
      assert.equal(typeof f.uid, 'string');
      assert.equal(typeof f.Name, 'string');
      assert.equal(f['model-name'], 'ad_form');
      assert.deepEqual(Object.keys(f.EntityType), ['propertyLabel', 'id', 'identifier', 'model-name']);
      assert.equal(f.EntityType.propertyLabel, 'Entity Type');
    }
    const u = await as(user, 'GET', '/api/v1/forms');
    assert.ok(u.body.forms.length < all.body.forms.length, `${u.body.forms.length} < ${all.body.forms.length}`);
    assert.equal(u.headers.get('x-row-count'), String(u.body.forms.length));
  });

  it('builds the menu tree from the role access', async () => {
    const names = (entries: { Name: string; entries?: unknown[] }[]): string[] => entries.flatMap((e) => [e.Name, ...names((e.entries ?? []) as never)]);
    const a = await as(admin, 'GET', '/api/v1/menutree/10');
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.Name, 'Menu');
    const u = await as(user, 'GET', '/api/v1/menutree/10');
    const adminNames = names(a.body.entries);
    const userNames = names(u.body.entries);
    assert.ok(adminNames.includes('Bank/Cash') && !userNames.includes('Bank/Cash'));
    assert.ok(userNames.includes('Sales Order'));
    assert.ok(userNames.length < adminNames.length);
    const salesOrder = a.body.entries.find((e: { Name: string }) => e.Name === 'Quote-to-Invoice').entries.find((e: { Name: string }) => e.Name === 'Sales Order');
    assert.equal(salesOrder.AD_Window_ID.id, 143);
    assert.equal(salesOrder.Action.id, 'W');
    const none = await as(admin, 'GET', '/api/v1/menutree/999');
    assert.equal(none.status, 404);
    const bad = await as(admin, 'GET', '/api/v1/menutree/x');
    assert.equal(bad.status, 400);
  });

  it('pages from 0: page 1 holds the records past the first hundred, for the least privileged role too', async () => {
    const db = server.services.db;
    // 150 more partners, so that the Business Partner window has a second page.
    await db.query(
      `INSERT INTO c_bpartner SELECT (jsonb_populate_record(NULL::c_bpartner, to_jsonb(b) || jsonb_build_object(
         'c_bpartner_id', 2000000 + g, 'c_bpartner_uu', gen_random_uuid()::text, 'value', 'PAGING' || g, 'name', 'Paging partner ' || g))).*
         FROM c_bpartner b, generate_series(1, 150) g WHERE b.c_bpartner_id = 117`,
    );
    try {
      for (const token of [admin, ws]) {
        const first = await as(token, 'GET', '/api/v1/windows/business-partner');
        assert.equal(first.status, 200, first.text);
        const total = first.body['row-count'] as number;
        assert.ok(total > 150 && total <= 200, String(total));
        assert.equal(first.body['page-count'], 2);
        assert.equal(first.body['page-number'], 0);
        assert.equal(first.body['window-records'].length, 100);
        const zero = await as(token, 'GET', '/api/v1/windows/business-partner?$page_no=0');
        assert.deepEqual(zero.body['window-records'], first.body['window-records']);
        const second = await as(token, 'GET', '/api/v1/windows/business-partner?$page_no=1');
        assert.equal(second.status, 200, second.text);
        assert.equal(second.body['page-number'], 1);
        assert.equal(second.body['window-records'].length, total - 100);
        const seen = new Set([...first.body['window-records'], ...second.body['window-records']].map((r: { id: number }) => r.id));
        assert.equal(seen.size, total, 'the two pages hold every record once');
        const negative = await as(token, 'GET', '/api/v1/windows/business-partner?$page_no=-1');
        assert.equal(negative.body['page-number'], 0, 'a negative page is the first, as the original reads it');
      }
    } finally {
      await db.query(`DELETE FROM c_bpartner WHERE c_bpartner_id > 2000000`);
    }
  });

  it('needs a token', async () => {
    const r = await server.request('GET', '/api/v1/windows');
    assert.equal(r.status, 401);
  });
});
