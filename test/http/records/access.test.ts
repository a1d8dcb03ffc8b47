import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';

const q = (s: string) => encodeURIComponent(s);
const OTHER_CLIENT = 1_000_900;
const OTHER_ORG = 1_000_901;
const OTHER_ROLE = 1_000_902;
const OTHER_USER = 1_000_903;
const OTHER_BP = 1_000_904;
const ORG_ROLE = 1_000_910;
const ORG_USER = 1_000_911;
const STORE_BP = 1_000_912;
const EAST_BP = 1_000_913;

describe('access rules', () => {
  let server: TestServer;
  let admin: string;
  let other: string;
  let orgOnly: string;
  let storeUser: string;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  before(async () => {
    server = await startTestServer();
    const dict = server.services.dictionary.current;
    const now = new Date().toISOString();
    const put = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(server.services.db, dict.byName.get(table.toLowerCase())!, rows, now);
    // A second tenant with its own administrator and partner.
    await put('AD_Client', [{ AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Value: 'OtherCo', Name: 'Other Company', AD_Language: 'en_US' }]);
    await put('AD_Org', [{ AD_Org_ID: OTHER_ORG, AD_Client_ID: OTHER_CLIENT, Value: 'OHQ', Name: 'Other HQ' }]);
    await put('AD_Role', [{ AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'Other Admin', UserLevel: ' CO', IsAccessAllOrgs: 'Y', IsManual: 'N' }]);
    await put('AD_User', [{ AD_User_ID: OTHER_USER, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'OtherAdmin', Password: 'OtherAdmin1!' }]);
    await put('AD_User_Roles', [{ AD_User_ID: OTHER_USER, AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);
    await put('C_BPartner', [{ C_BPartner_ID: OTHER_BP, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: OTHER_ORG, Value: 'OBP', Name: 'Other partner', C_BP_Group_ID: 103 }]);
    // A restricted role of GardenWorld: organization level only, HQ only.
    await put('AD_Role', [{ AD_Role_ID: ORG_ROLE, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'Org only', UserLevel: '  O', IsAccessAllOrgs: 'N', IsManual: 'Y' }]);
    await put('AD_Role_OrgAccess', [{ AD_Role_ID: ORG_ROLE, AD_Org_ID: 11, AD_Client_ID: 11, IsReadOnly: 'N', AD_Role_OrgAccess_UU: randomUUID() }]);
    await put('AD_User', [{ AD_User_ID: ORG_USER, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'OrgOnly', Password: 'OrgOnly1!' }]);
    await put('AD_User_Roles', [{ AD_User_ID: ORG_USER, AD_Role_ID: ORG_ROLE, AD_Client_ID: 11, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);
    await put('C_BPartner', [
      { C_BPartner_ID: STORE_BP, AD_Client_ID: 11, AD_Org_ID: 12, Value: 'STOREBP', Name: 'Store partner', C_BP_Group_ID: 103 },
      { C_BPartner_ID: EAST_BP, AD_Client_ID: 11, AD_Org_ID: 50005, Value: 'EASTBP', Name: 'East partner', C_BP_Group_ID: 103 },
    ]);
    admin = await login(server);
    other = await login(server, { userName: 'OtherAdmin', password: 'OtherAdmin1!', clientId: OTHER_CLIENT, roleId: OTHER_ROLE, organizationId: OTHER_ORG, warehouseId: 0 });
    orgOnly = await login(server, { userName: 'OrgOnly', password: 'OrgOnly1!', clientId: 11, roleId: ORG_ROLE, organizationId: 11, warehouseId: 0 });
    storeUser = await login(server, { userName: 'GardenUser', password: 'GardenUser', clientId: 11, roleId: 103, organizationId: 11, warehouseId: 0 });
  });
  after(async () => {
    await server.close();
  });

  it('keeps each client to its own rows plus System rows', async () => {
    const mine = await as(other, 'GET', '/api/v1/models/c_bpartner');
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body.records.map((b: { id: number }) => b.id), [OTHER_BP]);
    const garden = await as(admin, 'GET', `/api/v1/models/c_bpartner?$filter=${q(`id eq ${OTHER_BP}`)}`);
    assert.equal(garden.body['row-count'], 0);
    assert.equal((await as(admin, 'GET', `/api/v1/models/c_bpartner/${OTHER_BP}`)).status, 403, 'a record of another client exists: 403');
    assert.equal((await as(other, 'GET', '/api/v1/models/c_bpartner/117')).status, 403);
    assert.equal((await as(other, 'GET', '/api/v1/models/c_bpartner/99999999')).status, 404);
    const currency = await as(other, 'GET', '/api/v1/models/c_currency/100');
    assert.equal(currency.status, 200, 'System rows are shared');
    const expanded = await as(other, 'GET', `/api/v1/models/c_bp_group/103?$expand=C_BPartner`);
    assert.equal(expanded.status, 403, 'the group belongs to GardenWorld');
    const uom = await as(other, 'GET', `/api/v1/models/c_uom/100?$expand=${q('M_Product($select=Name)')}`);
    assert.equal(uom.status, 200);
    assert.equal(uom.body.M_Product, undefined, 'expansions apply the same row access');
  });

  it('keeps System rows read-only and refuses writes into another client', async () => {
    const system = await as(admin, 'PUT', '/api/v1/models/c_currency/100', { Description: 'changed' });
    assert.equal(system.status, 403);
    assert.equal((await as(admin, 'DELETE', '/api/v1/models/c_currency/100')).status, 403);
    const foreign = await as(admin, 'POST', '/api/v1/models/c_bp_group', { Name: 'Foreign', Value: 'F', AD_Client_ID: OTHER_CLIENT });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.detail, 'You are not allowed to create a record for another tenant');
    const toSystem = await as(admin, 'POST', '/api/v1/models/c_bp_group', { Name: 'Foreign', Value: 'F', AD_Client_ID: 0 });
    assert.equal(toSystem.status, 403);
    const update = await as(other, 'PUT', '/api/v1/models/c_bpartner/117', { Description: 'not mine' });
    assert.equal(update.status, 403);
    const refer = await as(other, 'POST', '/api/v1/models/c_bpartner', { Name: 'Borrowing a group', C_BP_Group_ID: 103 });
    assert.equal(refer.status, 400, 'a reference into another client is not found');
    assert.match(refer.body.detail, /Foreign ID 103 not found in C_BP_Group_ID/);
    const batch = await as(other, 'POST', '/api/v1/batch', [{ method: 'PUT', path: 'v1/models/c_bpartner/117', body: { Description: 'batch' } }]);
    assert.equal(batch.status, 400);
    assert.equal(batch.body[0].statusCode, 403);
  });

  it('shows only the organizations the role may access', async () => {
    const seen = await as(storeUser, 'GET', `/api/v1/models/c_bpartner?$filter=${q(`id in (${STORE_BP}, ${EAST_BP})`)}`);
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.records.map((b: { id: number }) => b.id), [STORE_BP]);
    assert.equal((await as(storeUser, 'GET', `/api/v1/models/c_bpartner/${EAST_BP}`)).status, 403);
    const adminSees = await as(admin, 'GET', `/api/v1/models/c_bpartner/${EAST_BP}`);
    assert.equal(adminSees.status, 200, 'role 102 reaches organization 50005');
    const write = await as(storeUser, 'POST', '/api/v1/models/c_bpartner', { Name: 'East again', AD_Org_ID: 50005 });
    assert.equal(write.status, 403);
    const update = await as(storeUser, 'PUT', `/api/v1/models/c_bpartner/${EAST_BP}`, { Description: 'not reachable' });
    assert.equal(update.status, 403);
    assert.equal((await as(storeUser, 'DELETE', `/api/v1/models/c_bpartner/${EAST_BP}`)).status, 403);
    const own = await as(storeUser, 'PUT', `/api/v1/models/c_bpartner/${STORE_BP}`, { Description: 'reachable' });
    assert.equal(own.status, 200, own.text);
  });

  it('matches the role user level against the table access level for writes; every role reads every table', async () => {
    const tables = await as(admin, 'GET', '/api/v1/models/ad_table');
    assert.equal(tables.status, 200, 'a client role reads System-only tables, as in the original');
    assert.ok(tables.body.records.length > 0);
    assert.equal((await as(admin, 'POST', '/api/v1/models/ad_table', { TableName: 'X_Test', Name: 'x', AccessLevel: '3' })).status, 403, 'but writes none');
    const orgModels = await as(orgOnly, 'GET', '/api/v1/models');
    const names = orgModels.body.models.map((m: { 'model-name': string }) => m['model-name']);
    assert.ok(names.includes('c_order'), 'Organization tables (1)');
    assert.ok(names.includes('c_bpartner'), 'Client+Organization tables (3)');
    assert.ok(names.includes('c_tax'), 'Client-only tables (2) too: the level limits writing only');
    assert.equal((await as(orgOnly, 'GET', '/api/v1/models/c_tax')).status, 200);
    assert.equal((await as(orgOnly, 'GET', '/api/v1/models/c_tax/104')).status, 200);
    const created = await as(orgOnly, 'POST', '/api/v1/models/c_tax', { Name: 'x' });
    assert.equal(created.status, 403, created.text);
    assert.equal(created.body.detail, 'Role does not have access');
    assert.equal((await as(orgOnly, 'PUT', '/api/v1/models/c_tax/104', { Description: 'x' })).status, 403);
    assert.equal((await as(orgOnly, 'DELETE', '/api/v1/models/c_tax/104')).status, 403);
    const expand = await as(orgOnly, 'GET', `/api/v1/models/c_taxcategory/107?$expand=C_Tax`);
    assert.equal(expand.status, 200, expand.text);
    assert.equal((await as(orgOnly, 'GET', '/api/v1/models/c_bpartner/117')).status, 200);
    assert.equal((await as(orgOnly, 'GET', `/api/v1/models/c_bpartner/${STORE_BP}`)).status, 403, 'organization 12 is not in the role');
    const otherClients = await as(other, 'GET', '/api/v1/models/c_bpartner/117');
    assert.equal(otherClients.status, 403, 'reading every table does not reach other clients');
    assert.equal((await as(admin, 'GET', '/api/v1/models/no_table')).status, 404, 'unknown table: 404 before access');
  });

  // Runs last: it takes organization 50005 away from role 102.
  it('applies a change of role access to the next request, without a new login', async () => {
    assert.equal((await as(admin, 'GET', `/api/v1/models/c_bpartner/${EAST_BP}`)).status, 200);
    const found = await as(admin, 'GET', `/api/v1/models/ad_role_orgaccess?$filter=${q('AD_Role_ID eq 102 and AD_Org_ID eq 50005')}`);
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.records.length, 1);
    const removed = await as(admin, 'DELETE', `/api/v1/models/ad_role_orgaccess/${found.body.records[0].uid}`);
    assert.equal(removed.status, 200, removed.text);
    let status = 0;
    for (let i = 0; i < 100 && status !== 403; i++) {
      status = (await as(admin, 'GET', `/api/v1/models/c_bpartner/${EAST_BP}`)).status;
      if (status !== 403) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 403, 'organization 50005 is out of reach with the same token');
  });
});
