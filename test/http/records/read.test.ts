import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordStatements } from '../../helpers/statements.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { countingServer } from '../../helpers/counting-server.js';

const q = (s: string) => encodeURIComponent(s);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('reading records', () => {
  let server: TestServer;
  let token: string;
  const get = (path: string) => server.request('GET', path, { token });
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const list = async (path: string) => {
    const r = await get(path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.body.records as Record<string, any>[];
  };

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
    assert.ok(names.includes('c_order'));
    assert.ok(names.includes('ad_table'), 'System-only tables are listed for a client role: it may read them');
    assert.ok(!names.includes('rest_mail'), "the service's internal tables are not");
    const bp = r.body.models.find((m: { 'model-name': string }) => m['model-name'] === 'c_bpartner');
    assert.equal(bp.id, 291);
    assert.equal(typeof bp.name, 'string');
    const system = await systemLogin(server);
    const all = await server.request('GET', '/api/v1/models', { token: system });
    assert.equal(all.status, 200);
    assert.ok(all.body.models.some((m: { 'model-name': string }) => m['model-name'] === 'ad_table'));
  });

  it('reads lookups stored as text that point at numeric keys (AD_Ref_Table.AD_Key)', async () => {
    const system = await systemLogin(server);
    const r = await server.request('GET', '/api/v1/models/ad_ref_table?$top=5', { token: system });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.records.length > 0);
    const key = r.body.records[0].AD_Key;
    assert.equal(typeof key.id, 'number');
    assert.equal(typeof key.identifier, 'string', JSON.stringify(key));
  });

  it('reads a collection with the envelope and the five X- headers', async () => {
    const r = await get('/api/v1/models/c_tax');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['page-count', 'records-size', 'skip-records', 'row-count', 'records', 'array-count']);
    assert.ok(r.body['row-count'] >= 6);
    assert.equal(r.body['array-count'], r.body.records.length);
    assert.equal(r.body['page-count'], Math.ceil(r.body['row-count'] / 100));
    assert.equal(r.headers.get('x-row-count'), String(r.body['row-count']));
    assert.equal(r.headers.get('x-array-count'), String(r.body['array-count']));
    assert.equal(r.headers.get('x-records-size'), '100');
    assert.equal(r.headers.get('x-skip-records'), '0');
    assert.equal(r.headers.get('x-page-count'), String(r.body['page-count']));
    const first = r.body.records[0];
    assert.equal(typeof first.id, 'number');
    assert.match(first.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(Object.keys(first).slice(0, 2), ['id', 'uid']);
    assert.equal(Object.keys(first).at(-1), 'model-name');
    assert.equal(first['model-name'], 'c_tax');
  });

  it('accepts table names in any case', async () => {
    const lower = await get('/api/v1/models/c_bpartner/117');
    const mixed = await get('/api/v1/models/C_BPartner/117');
    assert.equal(mixed.status, 200);
    assert.deepEqual(mixed.body, lower.body);
  });

  it('formats columns by type', async () => {
    const bp = (await get('/api/v1/models/c_bpartner/117')).body;
    assert.equal(bp.id, 117);
    assert.equal(typeof bp.Name, 'string');
    assert.equal(typeof bp.IsCustomer, 'boolean');
    assert.deepEqual(Object.keys(bp.AD_Org_ID), ['propertyLabel', 'id', 'identifier', 'model-name']);
    assert.equal(bp.AD_Client_ID.id, 11);
    assert.equal(bp.AD_Client_ID['model-name'], 'ad_client');
    assert.equal(typeof bp.AD_Client_ID.identifier, 'string');
    assert.equal(typeof bp.AD_Client_ID.propertyLabel, 'string');
    assert.match(bp.Created, TIMESTAMP);
    assert.equal(typeof bp.SO_CreditLimit, 'number');
    assert.deepEqual(bp.SOCreditStatus, { propertyLabel: bp.SOCreditStatus.propertyLabel, id: 'X', identifier: 'No Credit Check', 'model-name': 'ad_ref_list' });
    assert.deepEqual(bp.AD_Language, { propertyLabel: bp.AD_Language.propertyLabel, id: 'en_US', identifier: bp.AD_Language.identifier, 'model-name': 'ad_language' }, 'a reference with a text key keeps it as text');
    for (const v of Object.values(bp)) assert.notEqual(v, null, 'null values are left out');

    const tax = (await get('/api/v1/models/c_tax/104')).body;
    assert.match(tax.ValidFrom, DATE, 'a Date column is YYYY-MM-DD');
    assert.equal(typeof tax.Rate, 'number');
    assert.deepEqual(tax.SOPOType && Object.keys(tax.SOPOType), ['propertyLabel', 'id', 'identifier', 'model-name']);

    const order = (await get('/api/v1/models/c_order/102')).body;
    assert.equal(order.C_BPartner_ID['model-name'], 'c_bpartner', 'a Search column is a lookup object');
    assert.equal(typeof order.C_BPartner_ID.identifier, 'string');
    assert.equal(order.DocStatus.id, 'CO');
    assert.equal(order.DocStatus['model-name'], 'ad_ref_list');
    assert.match(order.DateOrdered, DATE);
    assert.equal(typeof order.GrandTotal, 'number');

    const fact = await list(`/api/v1/models/fact_acct?$filter=${q('AD_Table_ID eq 318 and Record_ID eq 104')}&$select=Record_ID,AmtAcctDr`);
    assert.ok(fact.length >= 2);
    assert.equal(fact[0]!.Record_ID, 104, 'a Record ID is a plain number');

    const uom = (await get('/api/v1/models/c_uom/100')).body;
    assert.equal(typeof uom.StdPrecision, 'number', 'an Integer column is a number');

    const user = await get('/api/v1/models/ad_user/101');
    assert.equal(user.status, 200);
    assert.equal(user.body.Password, undefined, 'secure columns never appear');
    assert.equal(user.body.Salt, undefined);
    assert.doesNotMatch(user.text, /GardenAdmin"?\s*,\s*"Password|argon2/);
  });

  it('formats binary, image and JSON columns', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const image = await call('POST', '/api/v1/models/ad_image', { Name: 'logo.png', BinaryData: png });
    assert.equal(image.status, 201, image.text);
    assert.equal(image.body.BinaryData, png, 'binary is base64');
    const user = await call('POST', '/api/v1/models/ad_user', { Name: 'With picture', AD_Image_ID: image.body.id });
    assert.equal(user.status, 201, user.text);
    const read = await get(`/api/v1/models/ad_user/${user.body.id}`);
    assert.deepEqual(read.body.AD_Image_ID, { propertyLabel: read.body.AD_Image_ID.propertyLabel, id: image.body.id, data: png, 'model-name': 'ad_image' });
    assert.equal(typeof read.body.AD_Image_ID.propertyLabel, 'string');
    const viaObject = await call('PUT', `/api/v1/models/ad_user/${user.body.id}`, { AD_Image_ID: { file_name: 'second.png', data: png } });
    assert.equal(viaObject.status, 200, viaObject.text);
    assert.notEqual(viaObject.body.AD_Image_ID.id, image.body.id, 'an image object without id creates a new image');
    assert.equal(viaObject.body.AD_Image_ID.data, png);

    const json = { steps: [1, 2], ok: true };
    // Process runs are written by the runner only: the row is made as the runner makes it, then read.
    const instId = 1_000_950;
    await server.services.db.query(
      `INSERT INTO ad_pinstance (ad_pinstance_id, ad_pinstance_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_process_id, record_id, isprocessing, jsondata)
       VALUES ($1, gen_random_uuid()::text, 11, 0, 'Y', now(), 101, now(), 101, 104, 0, 'N', $2)`,
      [instId, JSON.stringify(json)],
    );
    const inst = await get(`/api/v1/models/ad_pinstance/${instId}`);
    assert.equal(inst.status, 200, inst.text);
    assert.deepEqual(inst.body.JsonData, json, 'a JSON column is embedded JSON');
  });

  it('filters with every comparison operator', async () => {
    const count = async (filter: string) => {
      const r = await get(`/api/v1/models/c_tax?$filter=${q(filter)}&$select=Name`);
      assert.equal(r.status, 200, `${filter}: ${r.text}`);
      return r.body['row-count'] as number;
    };
    const ids = async (filter: string) => (await list(`/api/v1/models/c_tax?$filter=${q(filter)}&$select=Name&$orderby=C_Tax_ID`)).map((t) => t.id);
    const all = await count('C_Tax_ID gt 0');
    assert.deepEqual(await ids('C_Tax_ID eq 106'), [106]);
    assert.equal(await count('C_Tax_ID neq 106'), all - 1);
    assert.deepEqual(await ids('C_Tax_ID ge 104 and C_Tax_ID le 105'), [104, 105]);
    assert.deepEqual(await ids('C_Tax_ID gt 104 and C_Tax_ID lt 106'), [105]);
    assert.deepEqual(await ids('C_Tax_ID in (106,107)'), [106, 107]);
    assert.deepEqual(await ids("Name in ('106','PST','Exempt') AND C_Tax_ID in (106,107)"), [107]);
    assert.deepEqual(await ids('id eq 106 or id eq 108'), [106, 108]);
    assert.deepEqual(await ids('(id eq 106 or id eq 108) and not (id eq 108)'), [106]);
    assert.deepEqual(await ids('106 eq C_Tax_ID'), [106], 'a value may stand on the left');
    assert.equal(await count('Parent_Tax_ID eq null') + (await count('Parent_Tax_ID neq null')), all);
    assert.ok((await count('C_TaxCategory_ID eq 107')) >= 1);
  });

  it('filters text with methods, case functions and quoted strings', async () => {
    const names = async (filter: string) => (await list(`/api/v1/models/c_bpartner?$filter=${q(filter)}&$select=Name`)).map((b) => b.Name as string);
    const bp117 = (await get('/api/v1/models/c_bpartner/117')).body.Name as string;
    assert.deepEqual(await names(`Name eq '${bp117.replace(/'/g, "''")}'`), [bp117]);
    const prefix = bp117.slice(0, 3);
    const starts = await names(`startswith(Name,'${prefix}')`);
    assert.ok(starts.includes(bp117));
    for (const n of starts) assert.ok(n.startsWith(prefix));
    const lowered = await names(`startswith(tolower(Name),'${prefix.toLowerCase()}')`);
    assert.ok(lowered.includes(bp117));
    const upper = await names(`contains(toupper(Name),'${bp117.slice(1, 4).toUpperCase()}')`);
    assert.ok(upper.includes(bp117));
    const ends = await names(`endswith(Name,'${bp117.slice(-3)}')`);
    assert.ok(ends.includes(bp117));
    const without = await names(`not contains(Name,'${bp117.slice(1, 4)}')`);
    assert.ok(!without.includes(bp117));
    assert.deepEqual(await names("contains(Name,'%')"), [], '% matches itself, not anything');
    const quoted = await call('POST', '/api/v1/models/c_bpartner', { Name: "O'Brien & Sons", C_BP_Group_ID: 103 });
    assert.equal(quoted.status, 201, quoted.text);
    assert.deepEqual(await names("Name eq 'O''Brien & Sons'"), ["O'Brien & Sons"]);
    assert.deepEqual(await names("tolower(Name) eq 'o''brien & sons'"), ["O'Brien & Sons"]);
  });

  it('filters on dates and timestamps', async () => {
    const taxes = await list('/api/v1/models/c_tax?$select=Created,ValidFrom&$orderby=Created');
    const created = taxes[0]!.Created as string;
    const day = created.slice(0, 10);
    const same = await list(`/api/v1/models/c_tax?$filter=${q(`Created eq '${created}'`)}&$select=Created`);
    assert.ok(same.length >= 1);
    for (const t of same) assert.equal(t.Created, created);
    const local = await list(`/api/v1/models/c_tax?$filter=${q(`Created eq '${created.slice(0, 19)}'`)}&$select=Created`);
    assert.equal(local.length, same.length, 'a timestamp without zone is UTC');
    const range = await list(`/api/v1/models/c_tax?$filter=${q(`created ge '${day}' and created lt '${day}T23:59:59Z'`)}&$select=name,created`);
    assert.ok(range.length >= 1);
    const validFrom = taxes[0]!.ValidFrom as string;
    const byDate = await list(`/api/v1/models/c_tax?$filter=${q(`ValidFrom le '${validFrom}'`)}&$select=ValidFrom`);
    for (const t of byDate) assert.ok((t.ValidFrom as string) <= validFrom);
    const bad = await get(`/api/v1/models/c_tax?$filter=${q("Created gt '2020-13-40'")}`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /Created/);
  });

  it('shows active records only unless the filter names IsActive', async () => {
    const made = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Sleeping Partner', C_BP_Group_ID: 103, IsActive: false });
    assert.equal(made.status, 201, made.text);
    const plain = await list(`/api/v1/models/c_bpartner?$filter=${q("Name eq 'Sleeping Partner'")}`);
    assert.equal(plain.length, 0);
    const inactive = await list(`/api/v1/models/c_bpartner?$filter=${q("Name eq 'Sleeping Partner' and IsActive eq false")}`);
    assert.equal(inactive.length, 1);
    assert.equal(inactive[0]!.IsActive, false);
    const one = await get(`/api/v1/models/c_bpartner/${made.body.id}`);
    assert.equal(one.status, 200, 'a single read shows inactive records');
  });

  it('orders, pages and selects', async () => {
    const all = await list('/api/v1/models/m_product?$orderby=Value&$select=Value');
    const values = all.map((p) => p.Value as string);
    assert.deepEqual(values, [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const desc = await list('/api/v1/models/m_product?$orderby=Value desc&$select=Value');
    assert.deepEqual(desc.map((p) => p.Value), [...values].reverse());
    const two = await list('/api/v1/models/m_product?$orderby=IsStocked desc, Value asc&$select=Value,IsStocked');
    for (let i = 1; i < two.length; i++) {
      const [a, b] = [two[i - 1]!, two[i]!];
      assert.ok(a.IsStocked > b.IsStocked || (a.IsStocked === b.IsStocked && a.Value <= b.Value));
    }
    const paged = await get('/api/v1/models/m_product?$top=2&$skip=3&$orderby=Value');
    assert.equal(paged.status, 200);
    assert.equal(paged.body['records-size'], 2);
    assert.equal(paged.body['skip-records'], 3);
    assert.equal(paged.body['page-count'], Math.ceil(paged.body['row-count'] / 2));
    assert.deepEqual(paged.body.records.map((p: { Value: string }) => p.Value), values.slice(3, 5));
    assert.equal(paged.headers.get('x-records-size'), '2');
    const capped = await get('/api/v1/models/m_product?$top=100000');
    assert.equal(capped.body['records-size'], 100, '$top above the maximum is the maximum');
    const sel = await list('/api/v1/models/c_bpartner?$select=Name,value&$top=3');
    for (const rec of sel) assert.deepEqual(Object.keys(rec), ['id', 'uid', 'Name', 'Value', 'model-name']);
    const idOnly = await list('/api/v1/models/c_bpartner?$select=id,uid&$top=1');
    assert.deepEqual(Object.keys(idOnly[0]!), ['id', 'uid', 'model-name']);
  });

  it('reads one property and records by UUID', async () => {
    const r = await get('/api/v1/models/ad_client/11/AD_Language');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['id', 'uid', 'AD_Language', 'model-name']);
    const name = await get('/api/v1/models/c_bpartner/117/name');
    assert.equal(name.body.Name, (await get('/api/v1/models/c_bpartner/117')).body.Name);
    assert.equal((await get('/api/v1/models/ad_client/11/Nope')).status, 404);
    assert.equal((await get('/api/v1/models/ad_user/101/Password')).status, 404);
    const byId = await get('/api/v1/models/c_bpartner/118');
    const byUuid = await get(`/api/v1/models/c_bpartner/${byId.body.uid}`);
    assert.equal(byUuid.status, 200);
    assert.equal(byUuid.body.id, 118);
    const acct = await get('/api/v1/models/c_tax_acct/7df64952-88e0-4ebf-9f56-9cb899b555f8');
    assert.equal(acct.status, 200, acct.text);
    assert.equal(acct.body.C_Tax_ID.id, 106);
  });

  it('expands detail tables with inner options (rules 1 and 2)', async () => {
    const orders = await get(`/api/v1/models/c_order?$select=DocumentNo,Description&$expand=${q('C_OrderTax,C_OrderLine($select=Line,Linenetamt ; $top=1 ; $skip=1 ; $filter=IsActive eq true ; $orderby=Line)')}`);
    assert.equal(orders.status, 200, orders.text);
    const o102 = orders.body.records.find((o: { id: number }) => o.id === 102);
    assert.ok(o102.C_OrderTax.length >= 1);
    const lines = await list(`/api/v1/models/c_orderline?$filter=${q('C_Order_ID eq 102')}&$orderby=Line&$select=Line`);
    assert.ok(lines.length >= 2);
    assert.equal(o102.C_OrderLine.length, 1);
    assert.equal(o102.C_OrderLine[0].Line, lines[1]!.Line, '$skip=1 and $top=1 pick the second line');
    assert.deepEqual(Object.keys(o102.C_OrderLine[0]).sort(), ['Line', 'LineNetAmt', 'id', 'uid'].sort());
    const full = await get('/api/v1/models/c_order/102?$expand=C_OrderLine');
    assert.equal(full.body.C_OrderLine.length, lines.length);
    assert.equal(full.body.C_OrderLine[0]['model-name'], undefined, 'details leave out model-name');
    assert.equal(full.body.C_OrderLine[0].C_Order_ID, undefined, 'details leave out their link column');
    const tax = await get('/api/v1/models/c_tax/106?$expand=c_tax_acct');
    assert.equal(tax.status, 200);
    assert.ok(tax.body.c_tax_acct.length >= 1, 'the key is the table name as written');
  });

  it('expands through a custom join column and record_id tables (rules 3 and 4)', async () => {
    const rep = await get(`/api/v1/models/ad_user/100?$expand=${q('C_order.salesrep_id($select=documentno)')}&$select=Name`);
    assert.equal(rep.status, 200, rep.text);
    assert.ok(Array.isArray(rep.body.C_order));
    assert.ok(rep.body.C_order.length >= 1);
    assert.deepEqual(Object.keys(rep.body.C_order[0]).sort(), ['DocumentNo', 'id', 'uid'].sort());
    const inv = await get(`/api/v1/models/c_invoice/104?$expand=${q('fact_acct.record_id($select=fact_acct_id),c_invoiceline')}`);
    assert.equal(inv.status, 200, inv.text);
    assert.ok(inv.body.fact_acct.length >= 2);
    const direct = await list(`/api/v1/models/fact_acct?$filter=${q('AD_Table_ID eq 318 and Record_ID eq 104')}`);
    assert.equal(inv.body.fact_acct.length, direct.length, 'only facts of the invoice table are joined');
    assert.ok(inv.body.c_invoiceline.length >= 1);
  });

  it('expands a master record with $select only (rule 5)', async () => {
    const master = await get(`/api/v1/models/m_product/122?$expand=${q('m_product_category_id($select=Name,IsDefault),M_ProductPrice')}`);
    assert.equal(master.status, 200, master.text);
    assert.equal(master.body.M_Product_Category_ID['model-name'], 'm_product_category');
    assert.equal(typeof master.body.M_Product_Category_ID.Name, 'string');
    assert.equal(typeof master.body.M_Product_Category_ID.IsDefault, 'boolean');
    assert.equal(master.body.M_Product_Category_ID.id, (await get('/api/v1/models/m_product/122')).body.M_Product_Category_ID.id);
    const bad = await get(`/api/v1/models/m_product/122?$expand=${q('M_Product_Category_ID($filter=IsActive eq true)')}`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /only support the \$select/);
    const notFk = await get('/api/v1/models/m_product/122?$expand=Name');
    assert.equal(notFk.status, 400);
  });

  it('nests expansions and refuses a master below the first level (rule 6)', async () => {
    const nested = await get(`/api/v1/models/c_bpartner/119?$select=Name&$expand=${q('AD_User($select=Name ; $expand=R_ContactInterest($select=IsActive ; $filter=IsActive eq true))')}&showsql`);
    assert.equal(nested.status, 200, nested.text);
    assert.equal(typeof nested.body['sql-command'], 'string');
    assert.equal(typeof nested.body['sql-command-AD_User'], 'string');
    assert.equal(typeof nested.body['sql-command-R_ContactInterest'], 'string');
    assert.ok(Array.isArray(nested.body.AD_User));
    const orders = await get(`/api/v1/models/c_order/102?$expand=${q('C_OrderLine($expand=M_Product_ID)')}`);
    assert.equal(orders.status, 400);
    assert.match(orders.body.detail, /first level/);
    const byCode = await get(`/api/v1/models/c_bpartner?$filter=${q("AD_Language eq 'en_US' and id eq 117")}&$select=AD_Language`);
    assert.equal(byCode.body['row-count'], 1, 'a text-keyed reference filters by its code');
    const deep = await get(`/api/v1/models/c_order/102?$expand=${q('C_OrderLine($select=Line;$expand=C_OrderTax)')}`);
    assert.equal(deep.status, 400, 'a detail of another table is no detail of the line');
    assert.equal(deep.body.title, 'Wrong detail');
  });

  it('applies validation rules with context', async () => {
    const r = await get('/api/v1/models/c_uom?$valrule=210&$context=M_Product_ID:124&$select=name');
    assert.equal(r.status, 200, r.text);
    const product = (await get('/api/v1/models/m_product/124')).body;
    assert.ok(r.body.records.some((u: { id: number }) => u.id === product.C_UOM_ID.id));
    const all = await get('/api/v1/models/c_uom');
    assert.ok(r.body['row-count'] < all.body['row-count']);
    const missing = await get('/api/v1/models/c_uom?$valrule=210');
    assert.equal(missing.status, 400);
    assert.match(missing.body.detail, /M_Product_ID/);
    assert.equal((await get('/api/v1/models/c_uom?$valrule=999999')).status, 404);
    assert.equal((await get('/api/v1/models/c_uom?$valrule=210&$context=M_Product_ID:1;drop')).status, 400);
  });

  it('filters by labels and shows them', async () => {
    const r = await get(`/api/v1/models/C_BPartner?showlabel=Name&label=${q("Name eq '#Customer'")}&$select=Name,IsCustomer,IsVendor&$filter=${q('IsCustomer eq true')}&$expand=${q("AD_User($select=Name,C_Job_ID;label=Name eq '#Manager')")}`);
    assert.equal(r.status, 200, r.text);
    const ids = r.body.records.map((b: { id: number }) => b.id).sort();
    assert.ok(ids.includes(117) || ids.includes(119));
    for (const rec of r.body.records) assert.ok(rec['assigned-labels'].includes('#Customer'));
    const objects = await get('/api/v1/models/C_BPartner/119?showlabel&$select=Name,IsCustomer,IsVendor');
    assert.equal(objects.status, 200);
    assert.deepEqual(Object.keys(objects.body['assigned-labels'][0]), ['Name', 'Description']);
    const chosen = await get('/api/v1/models/C_BPartner/119?showlabel=Name,Description');
    assert.equal(chosen.body['assigned-labels'][0].Name, '#Customer');
    const none = await get(`/api/v1/models/C_BPartner?label=${q("Name eq 'no such label'")}`);
    assert.equal(none.body['row-count'], 0);
    const bad = await get('/api/v1/models/C_BPartner/119?showlabel=Password');
    assert.equal(bad.status, 400);
  });

  it('shows the SQL, and the SQL without data with showsql=nodata', async () => {
    const r = await get('/api/v1/models/c_bpartner?showsql=nodata');
    assert.equal(r.status, 200);
    assert.equal(r.body.records, undefined);
    assert.match(r.body['sql-command'], /^SELECT .* FROM "c_bpartner"/);
    const withData = await get(`/api/v1/models/c_bpartner?showsql&$filter=${q("Name eq 'x'")}`);
    assert.ok(Array.isArray(withData.body.records));
    assert.match(withData.body['sql-command'], /\$\d/, 'values stay parameters');
    assert.doesNotMatch(withData.body['sql-command'], /'x'/);
    const one = await get('/api/v1/models/c_bpartner/117?showsql');
    assert.match(one.body['sql-command'], /WHERE/);
  });

  it('answers bad options with 400 naming the culprit and unknown things with 404', async () => {
    const cases: [string, RegExp][] = [
      ['$filter=Foo eq 1', /Foo/],
      ['$filter=Name eq', /end of input/],
      ["$filter=Name ne 'x'", /Unsupported operator: ne/],
      ['$filter=Name eq 5', /single quotes/],
      ['$filter=C_BPartner_ID eq \'abc\'', /integer/],
      ["$filter=substringof('a',Name)", /substringof/],
      ['$filter=Password eq \'x\'', /Password/],
      ['$filter=Name gt null', /null/],
      ['$select=Nope', /Nope/],
      ['$select=Password', /Password/],
      ['$expand=Nope', /Nope/],
      ['$expand=C_BPartner_Location(', /Unclosed/],
      ['$expand=AD_User($bogus=1)', /bogus/],
      ['$top=abc', /abc/],
      ['$skip=-1', /-1/],
      ['$context=a', /Name:Value/],
    ];
    for (const [option, detail] of cases) {
      const eq = option.indexOf('=');
      const r = await get(`/api/v1/models/c_bpartner?${option.slice(0, eq)}=${q(option.slice(eq + 1))}`);
      assert.equal(r.status, 400, `${option}: ${r.text}`);
      assert.equal(typeof r.body.title, 'string');
      assert.ok(r.body.title.length > 0);
      assert.match(r.body.detail, detail, option);
      assert.doesNotMatch(r.text, /SELECT|"c_bpartner"\./);
    }
    const table = await get('/api/v1/models/no_such_table');
    assert.equal(table.status, 404);
    assert.equal(table.body.title, 'Invalid table name');
    const rec = await get('/api/v1/models/c_bpartner/99999999');
    assert.equal(rec.status, 404);
    assert.equal(rec.body.title, 'Record not found');
    const wrongId = await get('/api/v1/models/c_bpartner/abc');
    assert.equal(wrongId.status, 400);
    assert.match(wrongId.body.detail, /Wrong ID abc/);
  });

  it('requires a token', async () => {
    const r = await server.request('GET', '/api/v1/models/c_bpartner');
    assert.equal(r.status, 401);
  });
});

describe('reading efficiently', () => {
  // Statements are counted in the steady state: the small tables counted, so that a warm-up read keeps their identifiers.
  const fx = countingServer();

  /** Records the statements the database runs during fn. */
  const statements = async (fn: () => Promise<unknown>) => (await recordStatements(fx.server().services.db, fn)).statements;

  it('reads a full page in one statement plus one count, and one statement per expanded table', async () => {
    const path = `/api/v1/models/c_order?$top=2&$expand=${encodeURIComponent('C_OrderLine,C_OrderTax')}`;
    await fx.server().request('GET', path, { token: fx.token() });
    let rowCount = 0;
    const seen = await statements(async () => {
      const r = await fx.server().request('GET', path, { token: fx.token() });
      assert.equal(r.status, 200);
      assert.equal(r.body.records.length, 2, 'the page is full');
      rowCount = r.body['row-count'];
    });
    assert.ok(rowCount > 2, 'the count says how many there are beyond the page');
    assert.equal(seen.length, 4, seen.map((s) => s.text.slice(0, 60)).join('\n'));
    assert.equal(seen.filter((s) => /count\(\*\)/.test(s.text)).length, 1);
    assert.ok(seen.every((s) => s.name && s.name.startsWith('rec_')), 'hot statements are prepared under a name');
    const again = await statements(() => fx.server().request('GET', path, { token: fx.token() }));
    assert.deepEqual(again.map((s) => s.name), seen.map((s) => s.name), 'the same read reuses the same statements');
  });

  it('does not count when the page holds the last matches, and still tells the right total', async () => {
    const all = await fx.server().request('GET', '/api/v1/models/c_order', { token: fx.token() });
    const total = all.body['row-count'];
    assert.ok(total > 2 && total < 100);
    const partial = await statements(async () => {
      const r = await fx.server().request('GET', '/api/v1/models/c_order?$top=100&$skip=1', { token: fx.token() });
      assert.equal(r.body['row-count'], total);
      assert.equal(r.body.records.length, total - 1);
    });
    assert.equal(partial.filter((s) => /count\(\*\)/.test(s.text)).length, 0);
    const pastTheEnd = await statements(async () => {
      const r = await fx.server().request('GET', `/api/v1/models/c_order?$skip=${total + 5}`, { token: fx.token() });
      assert.equal(r.body['row-count'], total, 'an empty page past the end is counted');
      assert.equal(r.body.records.length, 0);
    });
    assert.equal(pastTheEnd.filter((s) => /count\(\*\)/.test(s.text)).length, 1);
  });

  it('reads one record in one statement', async () => {
    await fx.server().request('GET', '/api/v1/models/c_bpartner/117', { token: fx.token() });
    const seen = await statements(() => fx.server().request('GET', '/api/v1/models/c_bpartner/118', { token: fx.token() }));
    assert.equal(seen.length, 1);
  });

  it('writes a prefix match as a range when the collation allows it', async () => {
    const { rows } = await fx.server().services.db.query<{ c: string }>('SELECT datcollate AS c FROM pg_database WHERE datname = current_database()');
    const r = await fx.server().request('GET', `/api/v1/models/c_bpartner?showsql&$filter=${encodeURIComponent("startswith(Name,'C')")}`, { token: fx.token() });
    assert.equal(r.status, 200);
    assert.ok(r.body.records.length >= 1);
    for (const b of r.body.records) assert.ok(b.Name.startsWith('C'));
    if (/^(C|POSIX)/i.test(rows[0]!.c)) assert.match(r.body['sql-command'], /"name"::text >= \$\d+::text AND "c_bpartner"\."name"::text < \$\d+::text/);
    else assert.match(r.body['sql-command'], /LIKE/);
  });
});
