import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

describe('reading records', () => {
  let server: TestServer;
  let token: string;
  const get = (path: string) => server.request('GET', path, { token });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('lists the tables the role may see', async () => {
    const r = await get('/api/v1/models');
    assert.equal(r.status, 200);
    const names = r.body.models.map((m: { 'model-name': string }) => m['model-name']);
    assert.ok(names.includes('c_bpartner'));
    assert.ok(!names.includes('ad_table'), 'System-only tables are not listed for a client role');
  });

  it('reads a collection with the envelope and X- headers', async () => {
    const r = await get('/api/v1/models/c_tax');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['page-count', 'records-size', 'skip-records', 'row-count', 'records', 'array-count']);
    assert.equal(r.body['array-count'], r.body.records.length);
    assert.equal(r.headers.get('x-row-count'), String(r.body['row-count']));
    assert.equal(r.headers.get('x-array-count'), String(r.body['array-count']));
    assert.equal(r.headers.get('x-records-size'), '100');
    assert.equal(r.headers.get('x-skip-records'), '0');
    assert.equal(r.headers.get('x-page-count'), String(r.body['page-count']));
    const first = r.body.records[0];
    assert.equal(typeof first.id, 'number');
    assert.equal(typeof first.uid, 'string');
    assert.equal(first['model-name'], 'c_tax');
    assert.deepEqual(Object.keys(first).slice(0, 2), ['id', 'uid']);
    assert.equal(Object.keys(first).at(-1), 'model-name');
  });

  it('formats columns by type', async () => {
    const r = await get('/api/v1/models/c_bpartner/117');
    assert.equal(r.status, 200);
    const bp = r.body;
    assert.equal(bp.id, 117);
    assert.equal(bp.Name, 'C&W Construction');
    assert.equal(typeof bp.IsCustomer, 'boolean');
    assert.deepEqual(Object.keys(bp.AD_Org_ID), ['propertyLabel', 'id', 'identifier', 'model-name']);
    assert.equal(bp.AD_Client_ID.id, 11);
    assert.equal(bp.AD_Client_ID['model-name'], 'ad_client');
    assert.match(bp.Created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(bp.SOCreditStatus['model-name'], 'ad_ref_list');
    assert.equal(typeof bp.SOCreditStatus.id, 'string');
    const user = await get('/api/v1/models/ad_user/101');
    assert.equal(user.status, 200);
    assert.equal(user.body.Password, undefined, 'secure columns never appear');
    assert.doesNotMatch(user.text, /argon2/);
  });

  it('filters, orders, pages and selects', async () => {
    const r = await get(`/api/v1/models/c_tax?$filter=${encodeURIComponent("Name in ('106','PST','Exempt') AND C_Tax_ID in (106,107)")}&$select=Name`);
    assert.equal(r.status, 200);
    for (const rec of r.body.records) assert.deepEqual(Object.keys(rec).sort(), ['Name', 'id', 'model-name', 'uid'].sort());
    const paged = await get('/api/v1/models/m_product?$top=2&$skip=3&$orderby=Value desc');
    assert.equal(paged.status, 200);
    assert.equal(paged.body['records-size'], 2);
    assert.equal(paged.body['skip-records'], 3);
    assert.equal(paged.body.records.length, 2);
    const values = paged.body.records.map((p: { Value: string }) => p.Value);
    assert.deepEqual([...values].sort().reverse(), values);
    const dates = await get(`/api/v1/models/c_tax?$filter=${encodeURIComponent("created ge '2003-01-08T01:06:11Z' and created lt '2003-01-09T23:20:21Z'")}&$select=name,created`);
    assert.equal(dates.status, 200);
    assert.ok(dates.body['row-count'] >= 1);
  });

  it('reads one property', async () => {
    const r = await get('/api/v1/models/ad_client/11/AD_Language');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['id', 'uid', 'AD_Language', 'model-name']);
    const bad = await get('/api/v1/models/ad_client/11/Nope');
    assert.equal(bad.status, 404);
  });

  it('reads a record by UUID', async () => {
    const byId = await get('/api/v1/models/c_bpartner/118');
    const byUuid = await get(`/api/v1/models/c_bpartner/${byId.body.uid}`);
    assert.equal(byUuid.status, 200);
    assert.equal(byUuid.body.id, 118);
  });

  it('expands details, masters, custom joins and record_id tables', async () => {
    const orders = await get(`/api/v1/models/c_order?$select=DocumentNo,Description&$expand=${encodeURIComponent('C_OrderTax,C_OrderLine($select=Line,Linenetamt ; $top=1 ; $skip=1 ; $filter=IsActive eq true ; $orderby=Line)')}`);
    assert.equal(orders.status, 200);
    const withLines = orders.body.records.find((o: { C_OrderLine?: unknown[] }) => o.C_OrderLine);
    assert.ok(withLines, 'some order has a second line');
    assert.equal(withLines.C_OrderLine.length, 1);
    assert.equal(withLines.C_OrderLine[0]['model-name'], undefined);
    assert.equal(withLines.C_OrderLine[0].C_Order_ID, undefined);
    const rep = await get(`/api/v1/models/ad_user/100?$expand=${encodeURIComponent('C_order.salesrep_id($select=documentno)')}&$select=Name`);
    assert.equal(rep.status, 200);
    assert.ok(Array.isArray(rep.body.C_order));
    const inv = await get(`/api/v1/models/c_invoice/104?$expand=${encodeURIComponent('fact_acct.record_id($select=fact_acct_id),c_invoiceline')}`);
    assert.equal(inv.status, 200);
    assert.ok(inv.body.fact_acct.length >= 2);
    assert.ok(inv.body.c_invoiceline.length >= 1);
    const master = await get(`/api/v1/models/m_product/122?$expand=${encodeURIComponent('m_product_category_id($select=Name,IsDefault),M_ProductPrice')}`);
    assert.equal(master.status, 200);
    assert.equal(master.body.M_Product_Category_ID['model-name'], 'm_product_category');
    assert.equal(typeof master.body.M_Product_Category_ID.Name, 'string');
    const nested = await get(`/api/v1/models/c_bpartner/119?$select=Name&$expand=${encodeURIComponent('AD_User($select=Name ; $expand=R_ContactInterest($select=IsActive ; $filter=IsActive eq true))')}&showsql`);
    assert.equal(nested.status, 200);
    assert.equal(typeof nested.body['sql-command'], 'string');
    assert.equal(typeof nested.body['sql-command-AD_User'], 'string');
  });

  it('applies validation rules with context', async () => {
    const r = await get('/api/v1/models/c_uom?$valrule=210&$context=M_Product_ID:124&$select=name');
    assert.equal(r.status, 200);
    assert.ok(r.body['row-count'] >= 1);
    const missing = await get('/api/v1/models/c_uom?$valrule=210');
    assert.equal(missing.status, 400);
    const unknown = await get('/api/v1/models/c_uom?$valrule=999999');
    assert.equal(unknown.status, 404);
  });

  it('filters by labels and shows them', async () => {
    const r = await get(`/api/v1/models/C_BPartner?showlabel=Name&label=${encodeURIComponent("Name eq '#Customer'")}&$select=Name,IsCustomer,IsVendor`);
    assert.equal(r.status, 200);
    assert.ok(r.body.records.length >= 1);
    for (const rec of r.body.records) assert.ok(rec['assigned-labels'].includes('#Customer'));
    const objects = await get('/api/v1/models/C_BPartner/119?showlabel&$select=Name');
    assert.equal(objects.status, 200);
    assert.ok(Array.isArray(objects.body['assigned-labels']));
  });

  it('shows the SQL without data with showsql=nodata', async () => {
    const r = await get('/api/v1/models/c_bpartner?showsql=nodata');
    assert.equal(r.status, 200);
    assert.equal(r.body.records, undefined);
    assert.equal(typeof r.body['sql-command'], 'string');
  });

  it('answers bad input with 400 and unknown things with 404', async () => {
    for (const q of ['$filter=Foo eq 1', "$filter=Name eq", '$orderby=Nope', '$select=Nope', '$expand=Nope', '$top=abc', "$filter=substringof('a',Name)"]) {
      const r = await get(`/api/v1/models/c_bpartner?${q.split('=')[0]}=${encodeURIComponent(q.slice(q.indexOf('=') + 1))}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.equal(typeof r.body.title, 'string');
      assert.doesNotMatch(r.text, /SELECT|FROM /);
    }
    assert.equal((await get('/api/v1/models/no_such_table')).status, 404);
    assert.equal((await get('/api/v1/models/c_bpartner/99999999')).status, 404);
    const wrongId = await get('/api/v1/models/c_bpartner/abc');
    assert.equal(wrongId.status, 400);
    assert.match(wrongId.body.detail, /Wrong ID abc/);
  });

  it('requires a token', async () => {
    const r = await server.request('GET', '/api/v1/models/c_bpartner');
    assert.equal(r.status, 401);
  });
});
