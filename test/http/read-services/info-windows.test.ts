import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);

describe('info windows', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let webService: string;
  const get = (path: string, token = admin) => server.request('GET', path, { token });
  const records = async (path: string, token = admin) => {
    const r = await get(path, token);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.body['infowindow-records'] as Record<string, any>[];
  };

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    webService = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
  });
  after(async () => {
    await server.close();
  });

  it('lists the info windows the role may open, with slugs, and filters them', async () => {
    const r = await get('/api/v1/infos');
    assert.equal(r.status, 200, r.text);
    const slugs = r.body.infowindows.map((w: { slug: string }) => w.slug);
    for (const s of ['business-partner-info', 'product-info', 'order-info', 'invoice-info', 'shipment-info', 'payment-info', 'support-users-vs-roles']) assert.ok(slugs.includes(s), s);
    const names = r.body.infowindows.map((w: { Name: string }) => w.Name);
    assert.deepEqual(names, [...names].sort());
    const bp = r.body.infowindows.find((w: { slug: string }) => w.slug === 'business-partner-info');
    assert.equal(bp.id, 200001);
    assert.equal(bp['model-name'], 'ad_infowindow');
    assert.equal(bp.FromClause, 'C_BPartner b');
    assert.equal(bp.AD_Table_ID.id, 291);
    const restricted = await get('/api/v1/infos', user);
    assert.deepEqual(restricted.body.infowindows.map((w: { slug: string }) => w.slug).sort(), ['business-partner-info', 'order-info', 'product-info']);
    const filtered = await get(`/api/v1/infos?$filter=${q("Name eq 'Order Info' OR AD_InfoWindow_ID eq 200000")}`);
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(filtered.body.infowindows.map((w: { slug: string }) => w.slug), ['order-info', 'product-info']);
    const bad = await get(`/api/v1/infos?$filter=${q('NoSuchColumn eq 1')}`);
    assert.equal(bad.status, 400);
  });

  it('answers a window page with its columns, lookups and headers', async () => {
    const r = await get('/api/v1/infos/business-partner-info');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-page'), '1');
    assert.equal(r.headers.get('x-per-page'), '100');
    assert.equal(r.headers.get('x-next-page'), null);
    assert.equal(r.headers.get('x-prev-page'), null);
    const rows = r.body['infowindow-records'];
    assert.equal(r.headers.get('x-array-count'), String(rows.length));
    assert.equal(r.body['row-count'], rows.length);
    assert.equal(rows.length, 19);
    const joe = rows.find((b: { Name: string }) => b.Name === 'Joe Block');
    assert.equal(typeof joe.C_BPartner_ID, 'number');
    assert.equal(joe.IsCustomer, true);
    assert.deepEqual(Object.keys(joe.C_BP_Group_ID).sort(), ['id', 'identifier', 'propertyLabel']);
    assert.equal(typeof joe.C_BP_Group_ID.identifier, 'string');
    // Ordered by the window's order clause (b.Value).
    const values = rows.map((b: { Value: string }) => b.Value);
    const models = await get('/api/v1/models/c_bpartner?$select=Value&$orderby=Value&$top=100');
    assert.deepEqual(values, models.body.records.map((b: { Value: string }) => b.Value));
  });

  it('applies $parameters with each column operator, function and ranges', async () => {
    const like = await records(`/api/v1/infos/business-partner-info?$parameters=${q(JSON.stringify({ Name: 'C' }))}`);
    assert.ok(like.length > 0);
    assert.ok(like.every((b) => b.Name.startsWith('C')), 'Like matches a prefix');
    const customers = await records(`/api/v1/infos/business-partner-info?$parameters=${q(JSON.stringify({ IsCustomer: true, IsVendor: false }))}`);
    assert.ok(customers.length > 0 && customers.every((b) => b.IsCustomer === true && b.IsVendor === false));
    const orders = await records(`/api/v1/infos/order-info?$parameters=${q(JSON.stringify({ DocStatus: 'CO', IsSOTrx: true }))}`);
    assert.deepEqual(orders.map((o) => o.DocumentNo).sort(), ['80000', '80001']);
    assert.deepEqual(orders[0]!.DocStatus, { propertyLabel: orders[0]!.DocStatus.propertyLabel, id: 'CO', identifier: 'Completed' });
    const byPartner = await records(`/api/v1/infos/order-info?$parameters=${q(JSON.stringify({ C_BPartner_ID: { id: 118 } }))}`);
    // With the demo orders pending in workflows (docs/workflow.md).
    assert.deepEqual(byPartner.map((o) => o.DocumentNo).sort(), ['80001', '80003', 'WF80001', 'WF80002', 'WF80003', 'WF80004']);
    assert.equal(byPartner[0]!.C_BPartner_ID.id, 118);
    const all = await records('/api/v1/infos/order-info');
    const totals = all.map((o) => o.GrandTotal).sort((a, b) => a - b);
    const ranged = await records(`/api/v1/infos/order-info?$parameters=${q(JSON.stringify({ GrandTotal: [totals[1], totals[3]] }))}`);
    assert.deepEqual(ranged.map((o) => o.GrandTotal).sort((a, b) => a - b), totals.slice(1, 4));
    const open = await records(`/api/v1/infos/order-info?$parameters=${q(JSON.stringify({ GrandTotal: { from: totals[3], to: null } }))}`);
    assert.equal(open.length, totals.length - 3);
    const none = await records(`/api/v1/infos/business-partner-info?$parameters=${q(JSON.stringify({ Name: "x' OR '1'='1" }))}`);
    assert.deepEqual(none, []);
  });

  it('orders by $orderBy over the window columns only', async () => {
    const rows = await records(`/api/v1/infos/business-partner-info?$orderBy=${q('Name desc')}`);
    const names = rows.map((b) => b.Name);
    const models = await get('/api/v1/models/c_bpartner?$select=Name&$orderby=Name desc&$top=100'.replace(' ', '%20'));
    assert.deepEqual(names, models.body.records.map((b: { Name: string }) => b.Name));
    const bad = await get(`/api/v1/infos/business-partner-info?$orderBy=${q('Password')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.title, 'Invalid $orderBy');
    const injected = await get(`/api/v1/infos/business-partner-info?$orderBy=${q('Name; DROP TABLE c_bpartner')}`);
    assert.equal(injected.status, 400);
  });

  it('pages by 100 with next and previous page headers', async () => {
    await server.services.db.query(`INSERT INTO c_bpartner SELECT (jsonb_populate_record(NULL::c_bpartner, to_jsonb(b) || jsonb_build_object(
        'c_bpartner_id', 900000 + g, 'value', 'Paging' || lpad(g::text, 3, '0'), 'name', 'Paging ' || g, 'c_bpartner_uu', gen_random_uuid()::text))).*
      FROM c_bpartner b, generate_series(1, 120) g WHERE b.c_bpartner_id = 112`);
    const first = await get('/api/v1/infos/business-partner-info');
    assert.equal(first.body['infowindow-records'].length, 100);
    assert.equal(first.body['row-count'], 139);
    assert.equal(first.headers.get('x-next-page'), '2');
    assert.equal(first.headers.get('x-prev-page'), null);
    const second = await get('/api/v1/infos/business-partner-info?$page_no=2');
    assert.equal(second.body['infowindow-records'].length, 39);
    assert.equal(second.body['row-count'], 139);
    assert.equal(second.headers.get('x-page'), '2');
    assert.equal(second.headers.get('x-prev-page'), '1');
    assert.equal(second.headers.get('x-next-page'), null);
    const ids = new Set([...first.body['infowindow-records'], ...second.body['infowindow-records']].map((b: { C_BPartner_ID: number }) => b.C_BPartner_ID));
    assert.equal(ids.size, 139);
    const zero = await get('/api/v1/infos/business-partner-info?$page_no=0');
    assert.equal(zero.status, 200, zero.text);
    assert.equal(zero.headers.get('x-page'), '1', '0, the default of the original, is the first page');
    assert.deepEqual(zero.body['infowindow-records'], first.body['infowindow-records']);
    const past = await get('/api/v1/infos/business-partner-info?$page_no=5');
    assert.deepEqual(past.body['infowindow-records'], []);
    assert.equal(past.body['row-count'], 139);
    const bad = await get('/api/v1/infos/business-partner-info?$page_no=abc');
    assert.equal(bad.status, 400);
    await server.services.db.query('DELETE FROM c_bpartner WHERE c_bpartner_id > 900000');
  });

  it('reads joined windows and applies access rules to every table of the FROM clause', async () => {
    const rows = await records('/api/v1/infos/support-users-vs-roles');
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => typeof r.AD_User_ID === 'number' && r.AD_Role_ID && typeof r.AD_Role_ID.identifier === 'string'));
    assert.ok(rows.some((r) => r.AD_Role_ID.id === 102));
    // The System client reads only its own rows of each joined table: the tenant's role assignments are left out.
    const system = await systemLogin(server);
    const own = await records('/api/v1/infos/support-users-vs-roles', system);
    assert.ok(own.length > 0);
    assert.deepEqual([...new Set(own.map((r) => r.AD_Role_ID.id))], [0]);
    assert.ok(own.length < rows.length);
  });

  it('refuses a window the role lacks (403) and an unknown one (404)', async () => {
    for (const path of ['', '/columns', '/processes', '/relateds']) {
      const denied = await get(`/api/v1/infos/support-users-vs-roles${path}`, user);
      assert.equal(denied.status, 403, path);
      assert.equal(denied.body.title, 'Access denied');
      const wsDenied = await get(`/api/v1/infos/invoice-info${path}`, webService);
      assert.equal(wsDenied.status, 403, path);
      const unknown = await get(`/api/v1/infos/no-such-window${path}`);
      assert.equal(unknown.status, 404, path);
      assert.equal(unknown.body.title, 'Invalid info window name');
    }
    const allowed = await records('/api/v1/infos/product-info', webService);
    assert.ok(allowed.length > 0);
    const anonymous = await server.request('GET', '/api/v1/infos/product-info');
    assert.equal(anonymous.status, 401);
  });

  it('lists columns, processes and related windows', async () => {
    const cols = await get('/api/v1/infos/business-partner-info/columns');
    assert.equal(cols.status, 200);
    const names = cols.body.infowindowcolumns.map((c: { ColumnName: string }) => c.ColumnName);
    assert.deepEqual(names.slice(0, 3), ['C_BPartner_ID', 'Value', 'Name']);
    const nameCol = cols.body.infowindowcolumns.find((c: { ColumnName: string }) => c.ColumnName === 'Name');
    assert.equal(nameCol.QueryOperator.id, 'Like');
    assert.equal(nameCol['model-name'], 'ad_infocolumn');
    const processes = await get('/api/v1/infos/business-partner-info/processes');
    assert.equal(processes.status, 200);
    assert.equal(processes.body.infowindowprocesses[0].AD_Process_ID.id, 136);
    assert.equal(processes.body.infowindowprocesses[0].slug, 'c_bpartner-validate');
    const support = await get('/api/v1/infos/support-users-vs-roles/processes');
    assert.equal(support.status, 200);
    assert.equal(support.body.infowindowprocesses.length, 1);
    const related = await get('/api/v1/infos/business-partner-info/relateds');
    assert.equal(related.status, 200);
    assert.deepEqual(related.body.infowindowrelateds.map((r: { slug: string }) => r.slug), ['order-info', 'invoice-info']);
  });

  it('serves every standard info window with every query column given a value', async () => {
    const list = await get('/api/v1/infos');
    for (const w of list.body.infowindows) {
      const cols = (await get(`/api/v1/infos/${w.slug}/columns`)).body.infowindowcolumns;
      const plain = await get(`/api/v1/infos/${w.slug}`);
      assert.equal(plain.status, 200, `${w.slug}: ${plain.text}`);
      for (const c of cols) {
        const value = c.AD_Reference_ID.id === 20 ? true : [11, 12, 13, 19, 22, 29, 30, 37].includes(c.AD_Reference_ID.id) ? 1 : [15, 16].includes(c.AD_Reference_ID.id) ? '2020-01-01' : 'A';
        const r = await get(`/api/v1/infos/${w.slug}?$parameters=${q(JSON.stringify({ [c.ColumnName]: value }))}&$orderBy=${q(c.ColumnName)}`);
        assert.equal(r.status, 200, `${w.slug} ${c.ColumnName}: ${r.text}`);
      }
    }
  });

  it('checks the SQL clauses of an info window and its columns when they are saved', async () => {
    const system = await systemLogin(server);
    const post = (table: string, body: unknown) => server.request('POST', `/api/v1/models/${table}`, { token: system, body });
    const put = (table: string, id: number, body: unknown) => server.request('PUT', `/api/v1/models/${table}/${id}`, { token: system, body });
    const window = { Name: 'Partner Check', AD_Table_ID: 291, FromClause: 'C_BPartner bp', EntityType: 'U' };
    for (const [column, text] of [
      ['FromClause', 'C_BPartner bp; DELETE FROM C_BPartner'],
      ['FromClause', 'C_BPartner bp -- comment'],
      ['WhereClause', "bp.IsActive='Y') OR (1=1"],
      ['WhereClause', 'bp.NoSuchColumn = 1'],
      ['WhereClause', '(SELECT pg_sleep(1)) IS NULL'],
      ['WhereClause', 'EXISTS (SELECT 1 FROM C_BPartner FOR UPDATE)'],
      ['OrderByClause', '$1'],
    ]) {
      const r = await post('ad_infowindow', { ...window, [column as string]: text });
      assert.equal(r.status, 400, `${column} ${text}: ${r.text}`);
      assert.match(r.body.detail, /[a-z]/);
    }
    const ok = await post('ad_infowindow', { ...window, WhereClause: 'bp.AD_Client_ID=@#AD_Client_ID@', OrderByClause: 'bp.Name' });
    assert.equal(ok.status, 201, ok.text);
    const id = ok.body.id as number;
    const badColumn = await post('ad_infocolumn', { AD_InfoWindow_ID: id, Name: 'Bad', ColumnName: 'Bad', SelectClause: 'bp.Nothing', AD_Reference_ID: 10, EntityType: 'U' });
    assert.equal(badColumn.status, 400, badColumn.text);
    const badFunction = await post('ad_infocolumn', { AD_InfoWindow_ID: id, Name: 'Name', ColumnName: 'Name', SelectClause: 'bp.Name', AD_Reference_ID: 10, QueryFunction: 'lo_import', EntityType: 'U' });
    assert.equal(badFunction.status, 400, badFunction.text);
    const column = await post('ad_infocolumn', { AD_InfoWindow_ID: id, Name: 'Name', ColumnName: 'Name', SelectClause: 'bp.Name', AD_Reference_ID: 10, QueryOperator: 'Like', QueryFunction: 'Upper', IsDisplayed: true, IsQueryCriteria: true, EntityType: 'U' });
    assert.equal(column.status, 201, column.text);
    const broken = await put('ad_infowindow', id, { FromClause: 'C_BPartner x' });
    assert.equal(broken.status, 400, 'a column that names bp no longer fits');
    const access = await post('ad_infowindow_access', { AD_InfoWindow_ID: id, AD_Role_ID: 0 });
    assert.equal(access.status, 201, access.text);
    const rows = await server.request('GET', `/api/v1/infos/partner-check?$parameters=${q(JSON.stringify({ Name: 'joe' }))}`, { token: system });
    assert.equal(rows.status, 200, rows.text);
    assert.deepEqual(rows.body['infowindow-records'], [], "the System role reads partners as /models/c_bpartner answers it: its own client's, none");
    // The tenant's administrator gives the tenant's role access to the System's window.
    const tenantAccess = await server.request('POST', '/api/v1/models/ad_infowindow_access', { token: admin, body: { AD_InfoWindow_ID: id, AD_Role_ID: 102 } });
    assert.equal(tenantAccess.status, 201, tenantAccess.text);
    const joe = await records(`/api/v1/infos/partner-check?$parameters=${q(JSON.stringify({ Name: 'joe' }))}`);
    assert.deepEqual(joe.map((b) => b.Name), ['Joe Block'], 'Upper(Name) LIKE UPPER(value%)');
  });

  it('refuses secret columns in clauses and windows over tables the role may not read', async () => {
    const system = await systemLogin(server);
    const post = (table: string, body: unknown) => server.request('POST', `/api/v1/models/${table}`, { token: system, body });
    const secret = await post('ad_infowindow', { Name: 'Users', AD_Table_ID: 114, FromClause: 'AD_User u', WhereClause: "u.Password IS NOT NULL", EntityType: 'U' });
    assert.equal(secret.status, 400, secret.text);
    assert.match(secret.body.detail, /secret column/);
    const outboxTable = server.services.dictionary.current.byName.get('rest_mail')!.id;
    const outbox = await post('ad_infowindow', { Name: 'Outbox', AD_Table_ID: outboxTable, FromClause: 'REST_Mail m', EntityType: 'U' });
    assert.equal(outbox.status, 201, outbox.text);
    assert.equal((await server.request('POST', '/api/v1/models/ad_infowindow_access', { token: admin, body: { AD_InfoWindow_ID: outbox.body.id, AD_Role_ID: 102 } })).status, 201);
    assert.equal((await post('ad_infowindow_access', { AD_InfoWindow_ID: outbox.body.id, AD_Role_ID: 0 })).status, 201);
    const denied = await get('/api/v1/infos/outbox');
    assert.equal(denied.status, 403, 'a client role does not read the mail outbox through an info window either');
    assert.equal((await server.request('GET', '/api/v1/infos/outbox', { token: system })).status, 200);
    // The dictionary is readable by every role, through an info window as through /models.
    const tables = await post('ad_infowindow', { Name: 'Tables', AD_Table_ID: 100, FromClause: 'AD_Table t', EntityType: 'U' });
    assert.equal(tables.status, 201, tables.text);
    assert.equal((await server.request('POST', '/api/v1/models/ad_infowindow_access', { token: admin, body: { AD_InfoWindow_ID: tables.body.id, AD_Role_ID: 102 } })).status, 201);
    const allowed = await get('/api/v1/infos/tables');
    assert.equal(allowed.status, 200, allowed.text);
  });
});
