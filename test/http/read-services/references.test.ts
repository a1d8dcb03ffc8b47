import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

describe('references', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  const get = (path: string, token = admin) => server.request('GET', path, { token });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
  });
  after(async () => {
    await server.close();
  });

  it('answers a list reference by id, UUID and name with its values', async () => {
    const byId = await get('/api/v1/references/152');
    assert.equal(byId.status, 200, byId.text);
    assert.equal(byId.body.id, 152);
    assert.equal(byId.body.uid, '42522223-92ae-4405-92dc-e02e2dea61a7');
    assert.equal(byId.body.Name, 'C_Order DeliveryViaRule');
    assert.deepEqual(byId.body.ValidationType, { propertyLabel: 'Validation type', id: 'L', identifier: 'List Validation', 'model-name': 'ad_ref_list' });
    assert.equal(byId.body['model-name'], 'ad_reference');
    assert.deepEqual(byId.body.reflist, [
      { value: 'D', name: 'Delivery' },
      { value: 'P', name: 'Pickup' },
      { value: 'S', name: 'Shipper' },
    ]);
    const byUuid = await get('/api/v1/reference/42522223-92ae-4405-92dc-e02e2dea61a7');
    assert.deepEqual(byUuid.body, byId.body);
    const byName = await get(`/api/v1/reference/${encodeURIComponent('C_Order DeliveryViaRule')}`);
    assert.deepEqual(byName.body, byId.body);
  });

  it('names columns by the original\'s elements, whose names label lookups and lists (propertyLabel)', async () => {
    const system = await systemLogin(server);
    const expected: Record<string, string> = {
      ValidationType: 'Validation type',
      AD_CtxHelp_ID: 'Context Help',
      AD_Task_ID: 'OS Task',
      RelatedColumn_ID: 'Related Info Column',
      RelatedInfo_ID: 'Related Info Window',
    };
    const filter = encodeURIComponent(Object.keys(expected).map((c) => `ColumnName eq '${c}'`).join(' or '));
    const elements = await get(`/api/v1/models/ad_element?$filter=${filter}&$select=ColumnName,Name,PrintName`, system);
    assert.equal(elements.status, 200, elements.text);
    assert.deepEqual(
      Object.fromEntries(elements.body.records.map((e: { ColumnName: string; Name: string; PrintName: string }) => [e.ColumnName, [e.Name, e.PrintName]])),
      Object.fromEntries(Object.entries(expected).map(([c, n]) => [c, [n, n]])),
    );
    const columns = await get(`/api/v1/models/ad_column?$filter=${filter}&$select=ColumnName,Name`, system);
    assert.equal(columns.status, 200, columns.text);
    assert.ok(columns.body.records.length >= 5);
    for (const c of columns.body.records as { ColumnName: string; Name: string }[]) assert.equal(c.Name, expected[c.ColumnName], c.ColumnName);
    const related = await get('/api/v1/infos/business-partner-info/relateds');
    assert.equal(related.status, 200, related.text);
    const first = related.body.infowindowrelateds[0];
    assert.equal(first.RelatedColumn_ID.propertyLabel, 'Related Info Column');
    assert.equal(first.RelatedInfo_ID.propertyLabel, 'Related Info Window');
    const asUser = await get('/api/v1/reference/104', user);
    assert.equal(asUser.status, 200, asUser.text);
    assert.equal(asUser.body.ValidationType.propertyLabel, 'Validation type');
  });

  it('answers a table reference with the readable active records, key and display columns', async () => {
    const r = await get('/api/v1/reference/f973985f-3064-40de-b097-baed00bb8d5d');
    assert.equal(r.status, 200, r.text);
    assert.ok(Array.isArray(r.body.reftable));
    assert.ok(r.body.reftable.length >= 10);
    for (const bp of r.body.reftable) {
      assert.equal(typeof bp.id, 'number');
      assert.equal(typeof bp.Name, 'string');
      assert.equal(bp['model-name'], 'c_bpartner');
      assert.deepEqual(Object.keys(bp).filter((k) => !['id', 'uid', 'Name', 'model-name'].includes(k)), []);
    }
    const names = r.body.reftable.map((b: { Name: string }) => b.Name);
    // The same rows, in the same order, as the records endpoint's active partners ordered by name.
    const models = await get('/api/v1/models/c_bpartner?$top=100&$select=Name&$orderby=Name');
    assert.deepEqual(names, models.body.records.map((b: { Name: string }) => b.Name));
  });

  it('applies the reference where clause and the text key of the target', async () => {
    const r = await get('/api/v1/references/106');
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.reftable.some((l: { AD_Language?: string }) => l.AD_Language === 'en_US'), r.text);
    const types = await get('/api/v1/references/4');
    assert.equal(types.status, 200);
    const ids = types.body.reftable.map((x: { id: number }) => x.id);
    assert.ok(ids.includes(152) && ids.includes(138));
    assert.ok(!ids.includes(10), 'data types are left out by the where clause');
  });

  it('shows a restricted role fewer rows of a table reference (organisation access)', async () => {
    const all = await get('/api/v1/references/197');
    const some = await get('/api/v1/references/197', user);
    assert.equal(all.status, 200);
    assert.equal(some.status, 200);
    const allIds = all.body.reftable.map((w: { id: number }) => w.id);
    const someIds = some.body.reftable.map((w: { id: number }) => w.id);
    assert.ok(someIds.length > 0 && someIds.length < allIds.length, `${someIds} vs ${allIds}`);
    assert.ok(someIds.every((id: number) => allIds.includes(id)));
    assert.ok(!someIds.includes(50001), 'a warehouse of an organisation the role lacks is not shown');
  });

  it('refuses unknown references (404), data types (501) and answers without a token 401', async () => {
    const unknown = await get('/api/v1/references/999999');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.title, 'Invalid reference id');
    const byName = await get('/api/v1/references/No%20Such%20Reference');
    assert.equal(byName.status, 404);
    const uuid = await get('/api/v1/references/00000000-0000-4000-8000-000000000000');
    assert.equal(uuid.status, 404);
    const data = await get('/api/v1/references/10');
    assert.equal(data.status, 501);
    assert.equal(data.body.status, 501);
    assert.match(data.body.detail, /10/);
    const anonymous = await server.request('GET', '/api/v1/references/152');
    assert.equal(anonymous.status, 401);
  });

  it('answers a table reference without table configuration with 404', async () => {
    const system = await systemLogin(server);
    const created = await server.request('POST', '/api/v1/models/ad_reference', { token: system, body: { Name: 'Table without configuration', ValidationType: 'T', EntityType: 'U' } });
    assert.equal(created.status, 201, created.text);
    const r = await get(`/api/v1/references/${created.body.id}`);
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.title, 'Invalid reference table id');
  });

  it('serves every reference of the dictionary without a server error', async () => {
    const system = await systemLogin(server);
    const records: { id: number; ValidationType: { id: string } }[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = await server.request('GET', `/api/v1/models/ad_reference?$top=100&$skip=${skip}&$select=ValidationType`, { token: system });
      assert.equal(page.status, 200);
      records.push(...page.body.records);
      if (page.body.records.length < 100) break;
    }
    assert.ok(records.length > 200);
    for (const token of [admin, user, system]) {
      for (const ref of records) {
        const r = await get(`/api/v1/references/${ref.id}`, token);
        const type = ref.ValidationType.id;
        const expected = type === 'D' ? 501 : 200;
        if (type === 'T' && r.status === 404) assert.equal(r.body.title, 'Invalid reference table id');
        else assert.equal(r.status, expected, `${ref.id}: ${r.text}`);
        if (type === 'L') assert.ok(Array.isArray(r.body.reflist));
        if (type === 'T' && r.status === 200) assert.ok(Array.isArray(r.body.reftable));
      }
    }
  });

  it('translates list values into the language of the login', async () => {
    // es_ES becomes a system language (the demo data has en_US only), as an administrator would set it.
    await server.services.db.query(`UPDATE ad_language SET isactive = 'Y', issystemlanguage = 'Y' WHERE ad_language = 'es_ES'`);
    const login = await server.request('POST', '/api/v1/auth/tokens', {
      body: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103, language: 'es_ES' } },
    });
    assert.equal(login.status, 200, login.text);
    const r = await get('/api/v1/references/152', login.body.token);
    assert.deepEqual(r.body.reflist, [
      { value: 'D', name: 'Entrega' },
      { value: 'P', name: 'Recogida' },
      { value: 'S', name: 'Transportista' },
    ]);
    const statuses = await get('/api/v1/references/131', login.body.token);
    assert.ok(statuses.body.reflist.some((v: { value: string; name: string }) => v.value === 'CO' && v.name === 'Completo'), 'document statuses in Spanish');
    // Document actions (135) have no Spanish names in the demo.
    const other = await get('/api/v1/references/135', login.body.token);
    assert.ok(other.body.reflist.some((v: { value: string; name: string }) => v.value === 'CL' && v.name === 'Close'), 'values without a translation keep their name');
  });
});
