import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

const q = (s: string) => encodeURIComponent(s);

describe('REST views', () => {
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

  it('lists the views with their columns and related views', async () => {
    const r = await as(admin, 'GET', '/api/v1/views');
    assert.equal(r.status, 200, r.text);
    const users = r.body.views.find((v: { name: string }) => v.name === 'users');
    assert.equal(users.tableName, 'ad_user');
    const bp = users.columns.find((c: { name: string }) => c.name === 'C_BPartner_ID');
    assert.equal(bp.columnName, 'C_BPartner_ID');
    assert.equal(bp.referenceView.name, 'businessPartners');
    assert.ok(users.columns.some((c: { name: string; columnName: string }) => c.name === 'contact.phone' && c.columnName === 'Phone'));
    assert.equal(users.relatedViews[0].view.name, 'userRoles');
  });

  it('reads a list with every query option in view property names', async () => {
    const r = await as(admin, 'GET', `/api/v1/views/users?$filter=${q("name eq 'GardenUser'")}&$select=${q('name,contact.phone')}&$orderby=${q('name desc')}&$top=5&showsql`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['row-count'], 1);
    assert.equal(r.headers.get('x-row-count'), '1');
    const rec = r.body.records[0];
    assert.equal(rec.name, 'GardenUser');
    assert.equal(typeof rec.contact.phone, 'string');
    assert.equal(rec.email, undefined, 'not selected');
    assert.equal(rec['view-name'], 'users');
    assert.equal(rec['model-name'], 'ad_user');
    assert.match(r.body['sql-command'], /SELECT/);
    const paged = await as(admin, 'GET', `/api/v1/views/users?$top=2&$skip=1&$orderby=name`);
    assert.equal(paged.body.records.length, 2);
    assert.equal(paged.body['skip-records'], 1);
    const inactive = await as(admin, 'GET', `/api/v1/views/users?$filter=${q('active eq false')}`);
    assert.equal(inactive.status, 200, inactive.text);
    const bad = await as(admin, 'GET', `/api/v1/views/users?$filter=${q("Password eq 'x'")}`);
    assert.equal(bad.status, 400);
    const badSelect = await as(admin, 'GET', `/api/v1/views/users?$select=nope`);
    assert.equal(badSelect.status, 400);
  });

  it('reads one record, expands a master through its reference view, and reads one property', async () => {
    const r = await as(admin, 'GET', '/api/v1/views/users/102?$expand=C_BPartner_ID');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.tenant.id, 11);
    assert.equal(r.body.C_BPartner_ID.name, 'GardenUser BP');
    assert.equal(r.body.C_BPartner_ID.employee, true, 'the partner in the businessPartners view shape');
    assert.equal(r.body.C_BPartner_ID['view-name'], undefined);
    assert.equal(r.body.C_BPartner_ID['model-name'], 'c_bpartner');
    const plain = await as(admin, 'GET', '/api/v1/views/users/102');
    assert.equal(plain.body.C_BPartner_ID.propertyLabel, 'Business Partner', 'a lookup without $expand');
    const p = await as(admin, 'GET', '/api/v1/views/users/102/contact.phone');
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(Object.keys(p.body), ['id', 'uid', 'contact', 'model-name', 'view-name']);
    const none = await as(admin, 'GET', '/api/v1/views/users/102/Password');
    assert.equal(none.status, 404);
    const missing = await as(admin, 'GET', '/api/v1/views/users/99999');
    assert.equal(missing.status, 404);
    const noView = await as(admin, 'GET', '/api/v1/views/nope');
    assert.equal(noView.status, 404);
    assert.equal(noView.body.title, 'Invalid view name');
  });

  it('creates, updates and deletes with renamed and nested properties that round-trip', async () => {
    const c = await as(admin, 'POST', '/api/v1/views/users', { name: 'first_name', email: 'myemail@test.com', contact: { phone: '555-0100', fax: '555-0101' } });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.body.name, 'first_name');
    assert.deepEqual(c.body.contact, { phone: '555-0100', fax: '555-0101' });
    const model = await as(admin, 'GET', `/api/v1/models/ad_user/${c.body.id}`);
    assert.equal(model.body.Phone, '555-0100');
    assert.equal(model.body.EMail, 'myemail@test.com');
    const u = await as(admin, 'PUT', `/api/v1/views/users/${c.body.id}`, { name: 'updated_name', contact: { phone: '555-0199' } });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.body.name, 'updated_name');
    assert.deepEqual(u.body.contact, { phone: '555-0199', fax: '555-0101' });
    const back = await as(admin, 'GET', `/api/v1/views/users/${c.body.id}`);
    assert.deepEqual(back.body.contact, u.body.contact);
    const bad = await as(admin, 'PUT', `/api/v1/views/users/${c.body.id}`, { Password: 'x' });
    assert.equal(bad.status, 400);
    const invalid = await as(admin, 'POST', '/api/v1/views/users', { email: 'no name' });
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.body.title, 'Validation Errors');
    const d = await as(admin, 'DELETE', `/api/v1/views/users/${c.body.id}`);
    assert.equal(d.status, 200, d.text);
    const gone = await as(admin, 'GET', `/api/v1/views/users/${c.body.id}`);
    assert.equal(gone.status, 404);
  });

  it('shows the records of an auto-expanded related view under its name', async () => {
    await server.services.db.query(`UPDATE rest_viewrelated SET isrestautoexpand = 'Y' WHERE rest_viewrelated_id = 200000`);
    try {
      const r = await as(admin, 'GET', '/api/v1/views/users/101');
      assert.equal(r.status, 200, r.text);
      assert.ok(Array.isArray(r.body.roles) && r.body.roles.length > 0, r.text);
      assert.ok(r.body.roles.every((x: Record<string, unknown>) => x.role && x['model-name'] === 'ad_user_roles' && !('AD_Role_ID' in x)), JSON.stringify(r.body.roles));
      const list = await as(admin, 'GET', `/api/v1/views/users?$filter=${q("name eq 'GardenAdmin'")}`);
      assert.deepEqual(list.body.records[0].roles, r.body.roles);
    } finally {
      await server.services.db.query(`UPDATE rest_viewrelated SET isrestautoexpand = 'N' WHERE rest_viewrelated_id = 200000`);
    }
    const plain = await as(admin, 'GET', '/api/v1/views/users/101');
    assert.equal(plain.body.roles, undefined);
  });

  it('follows the same access rules as /models', async () => {
    const sys = await as(user, 'PUT', '/api/v1/views/users/100', { name: 'hacked' });
    assert.equal(sys.status, 403, sys.text);
    const del = await as(ws, 'DELETE', '/api/v1/views/users/100');
    assert.equal(del.status, 403);
    const roles = await as(user, 'GET', '/api/v1/views/userRoles');
    const models = await as(user, 'GET', '/api/v1/models/ad_user_roles');
    assert.equal(roles.status, models.status);
    const views = await as(user, 'GET', '/api/v1/views');
    const names = views.body.views.map((v: { name: string }) => v.name);
    assert.equal(names.includes('userRoles'), models.status === 200, 'a view on a table the role cannot read is not listed');
    // Views carry SQL (their where clause): only the System role defines them.
    const define = await as(admin, 'POST', '/api/v1/models/rest_view', { Name: 'mine', AD_Table_ID: 114, WhereClause: '1=1' });
    assert.equal(define.status, 403, define.text);
    const change = await as(admin, 'PUT', '/api/v1/models/rest_view/200000', { WhereClause: '1=1' });
    assert.equal(change.status, 403, change.text);
    const anon = await server.request('GET', '/api/v1/views/users');
    assert.equal(anon.status, 401);
  });
});
