import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { badRequest } from '../../../src/errors.js';
import type { ModelEvent } from '../../../src/events/model-events.js';

const q = (s: string) => encodeURIComponent(s);

describe('writing records', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const count = async (table: string, filter: string) => {
    const r = await call('GET', `/api/v1/models/${table}?$filter=${q(filter)}`);
    assert.equal(r.status, 200, r.text);
    return r.body['row-count'] as number;
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('creates a record with defaults and answers 201 (the collection body)', async () => {
    const r = await call('POST', '/api/v1/models/c_tax', {
      AD_Org_ID: { id: 0, tableName: 'AD_Org' },
      isActive: true,
      name: 'MyGST',
      description: 'MyCanadian Federal Sales Tax',
      Parent_Tax_ID: { identifier: 'GST/PST', tableName: 'C_Tax' },
      C_TaxCategory_ID: { identifier: 'Standard', tableName: 'C_TaxCategory' },
      isDocumentLevel: false,
      validFrom: '2001-01-01',
      isSummary: false,
      rate: '7.0',
      requiresTaxCertificate: false,
      taxIndicator: 'GST',
      isDefault: false,
      isTaxExempt: false,
      sOPOType: { id: 'B' },
      isSalesTax: false,
      tableName: 'C_Tax',
    });
    assert.equal(r.status, 201, r.text);
    assert.ok(r.body.id >= 1_000_000);
    assert.equal(r.body.Name, 'MyGST');
    assert.equal(r.body.Rate, 7);
    assert.equal(r.body.ValidFrom, '2001-01-01');
    assert.equal(r.body.Parent_Tax_ID.id, 108, 'a reference given by identifier');
    assert.equal(r.body.C_TaxCategory_ID.id, 107);
    assert.equal(r.body.SOPOType.id, 'B');
    assert.equal(r.body.AD_Client_ID.id, 11, 'client from the login context');
    assert.equal(r.body.AD_Org_ID.id, 0);
    assert.match(r.body.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-7/, 'new records get a version 7 UUID');
    assert.equal(r.body['model-name'], 'c_tax');
    const update = await call('PUT', `/api/v1/models/c_tax/${r.body.id}`, { id: r.body.id, name: 'MyGST', description: 'My Sales Tax', validFrom: '2019-01-01', rate: '6.0', isSalesTax: true, taxIndicator: 'GST', tableName: 'C_Tax' });
    assert.equal(update.status, 200, update.text);
    assert.equal(update.body.Rate, 6);
    assert.equal(update.body.ValidFrom, '2019-01-01');
    assert.equal(update.body.IsSalesTax, true);
  });

  it('fills defaults from the dictionary: context, literals, SQL and the default record', async () => {
    const bp = await call('POST', '/api/v1/models/C_BPartner', { name: 'Defaults Partner' });
    assert.equal(bp.status, 201, bp.text);
    assert.equal(bp.body.AD_Org_ID.id, 11, '@#AD_Org_ID@');
    assert.equal(bp.body.IsActive, true, 'literal Y');
    assert.equal(bp.body.IsVendor, false, 'a mandatory Yes/No takes the value of the original\'s model class: false');
    assert.equal(bp.body.IsCustomer, true, 'MBPartner makes a new partner a customer');
    assert.equal(bp.body.SO_CreditLimit, 0, 'a mandatory amount without default is zero');
    assert.equal(typeof bp.body.C_BP_Group_ID.id, 'number', 'a mandatory reference takes the default record of its table');
    const group = await call('GET', `/api/v1/models/c_bp_group/${bp.body.C_BP_Group_ID.id}`);
    assert.equal(group.body.IsDefault, true);
    const lines = await call('GET', `/api/v1/models/c_orderline?$filter=${q('C_Order_ID eq 1000022')}&$orderby=Line desc&$top=1`);
    const maxLine = lines.body.records[0]?.Line ?? 0;
    const added = await call('PUT', '/api/v1/models/c_order/1000022', { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 104, C_UOM_ID: 100, PriceEntered: 10, PriceActual: 10, PriceList: 10, PriceLimit: 0 }] });
    assert.equal(added.status, 200, added.text);
    const line = added.body.C_OrderLine[0];
    assert.equal(line.Line, maxLine + 10, '@SQL= default with a parent column');
    assert.equal(line.QtyOrdered, 1, 'literal default of a quantity');
    assert.equal(line.M_Warehouse_ID.id, added.body.M_Warehouse_ID.id, '@M_Warehouse_ID@ from the parent record');
    assert.equal(line.DateOrdered, added.body.DateOrdered);
    assert.equal(line.AD_Org_ID.id, added.body.AD_Org_ID.id);
    const del = await call('PUT', '/api/v1/models/c_order/1000022', { C_OrderLine: [{ id: line.id, '(delete)': true }] });
    assert.equal(del.status, 200, del.text);
    assert.equal((await call('GET', `/api/v1/models/c_orderline/${line.id}`)).status, 404);
  });

  it('numbers DocumentNo and Value from sequences', async () => {
    const a = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Numbered A' });
    const b = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Numbered B' });
    assert.equal(a.status, 201, a.text);
    assert.match(a.body.Value, /^\d+$/);
    assert.equal(Number(b.body.Value), Number(a.body.Value) + 1, 'consecutive numbers');
    const given = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Numbered C', Value: 'MYKEY' });
    assert.equal(given.body.Value, 'MYKEY', 'a given value is kept');
    const placeholder = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Numbered D', Value: '<auto>' });
    assert.equal(Number(placeholder.body.Value), Number(b.body.Value) + 1, 'a <placeholder> is numbered');
    const user = await call('POST', '/api/v1/models/ad_user', { Name: 'No key user' });
    assert.equal(user.status, 201, user.text);
    assert.equal(user.body.Value, undefined, 'an optional search key stays empty');
    const location = await call('GET', `/api/v1/models/c_bpartner_location?$filter=${q('C_BPartner_ID eq 118')}&$top=1`);
    assert.equal(location.status, 200);
    const order = { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_BPartner_Location_ID: location.body.records[0].id, C_Currency_ID: 100 };
    const first = await call('POST', '/api/v1/models/c_order', order);
    assert.equal(first.status, 201, first.text);
    const second = await call('POST', '/api/v1/models/c_order', order);
    assert.match(first.body.DocumentNo, /\d+$/);
    const tail = (d: string) => Number(/(\d+)\D*$/.exec(d)![1]);
    assert.equal(tail(second.body.DocumentNo), tail(first.body.DocumentNo) + 1, 'document numbers come from one sequence');
    assert.equal(first.body.DocStatus.id, 'DR', 'literal default of a list');
    assert.equal(first.body.M_Warehouse_ID.id, 103, 'the login warehouse (#M_Warehouse_ID)');
    assert.equal(first.body.SalesRep_ID.id, 101, 'the login user (#SalesRep_ID)');
    assert.equal(typeof first.body.M_PriceList_ID.id, 'number', 'the default price list');
    assert.match(first.body.DateOrdered, /^\d{4}-\d{2}-\d{2}$/, '@#Date@');
    assert.equal(first.body.DateOrdered, new Date().toISOString().slice(0, 10));
  });

  it('creates nested details to any depth in one transaction', async () => {
    const r = await call('POST', '/api/v1/models/C_BPartner', {
      name: 'Test creating BP with User and Interest Area from REST',
      AD_User: [{ Name: 'Test User with Interest area', R_ContactInterest: [{ R_InterestArea_ID: 101 }] }, { Name: 'Second contact' }],
    });
    assert.equal(r.status, 201, r.text);
    assert.ok(r.body.Value, 'Value comes from the sequence');
    assert.equal(r.body.AD_User.length, 2);
    assert.equal(r.body.AD_User[0].Name, 'Test User with Interest area');
    assert.equal(r.body.AD_User[0].C_BPartner_ID.id, r.body.id);
    assert.equal(r.body.AD_User[0].R_ContactInterest.length, 1);
    assert.equal(r.body.AD_User[0].R_ContactInterest[0].R_InterestArea_ID.id, 101);
    assert.equal(await count('ad_user', `C_BPartner_ID eq ${r.body.id}`), 2);
    assert.equal(await count('r_contactinterest', `AD_User_ID eq ${r.body.AD_User[0].id}`), 1);
  });

  it('rolls back the whole create when a detail fails', async () => {
    const before = await count('ad_user', "Name eq 'Rollback contact'");
    const r = await call('POST', '/api/v1/models/C_BPartner', { name: 'Rollback BP', AD_User: [{ Name: 'Rollback contact' }, { Name: 'x', R_ContactInterest: [{ R_InterestArea_ID: 987654 }] }] });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /R_InterestArea_ID/);
    assert.equal(await count('c_bpartner', "Name eq 'Rollback BP'"), 0);
    assert.equal(await count('ad_user', "Name eq 'Rollback contact'"), before);
  });

  it('updates only the given columns, names in any case, and details by id', async () => {
    const before = (await call('GET', '/api/v1/models/c_bpartner/117')).body;
    const r = await call('PUT', '/api/v1/models/c_bpartner/117', { description: 'Updated through the API' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.Description, 'Updated through the API');
    assert.equal(r.body.Name, before.Name);
    assert.equal(r.body.Value, before.Value);
    assert.ok(r.body.Updated >= before.Updated);
    assert.equal(r.body.UpdatedBy?.id ?? r.body.UpdatedBy, 101);
    const byUuid = await call('PUT', `/api/v1/models/c_bpartner/${before.uid}`, { DESCRIPTION: 'by uuid' });
    assert.equal(byUuid.status, 200, byUuid.text);
    assert.equal(byUuid.body.Description, 'by uuid');
    const made = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Detail updates', AD_User: [{ Name: 'Keep' }, { Name: 'Drop' }] });
    const [keep, drop] = made.body.AD_User;
    const upd = await call('PUT', `/api/v1/models/c_bpartner/${made.body.id}`, { AD_User: [{ id: keep.id, Name: 'Kept' }, { id: drop.id, '(delete)': true }, { Name: 'Added' }] });
    assert.equal(upd.status, 200, upd.text);
    assert.deepEqual(upd.body.AD_User.map((u: { Name: string }) => u.Name), ['Kept', 'Added']);
    assert.equal(await count('ad_user', `C_BPartner_ID eq ${made.body.id}`), 2);
    const foreign = await call('PUT', `/api/v1/models/c_bpartner/${made.body.id}`, { AD_User: [{ id: 101, Name: 'hijack' }] });
    assert.equal(foreign.status, 400, 'a detail of another parent is refused');
  });

  it('validates writes with 400 naming the column', async () => {
    const cases: [unknown, RegExp][] = [
      [{ Name: 'x', Nope: 1 }, /Column Nope does not exist/],
      [{ Name: 'x', C_BP_Group_ID: 987654 }, /Foreign ID 987654 not found in C_BP_Group_ID/],
      [{ Name: 'x', IsCustomer: 'maybe' }, /IsCustomer/],
      [{ Name: 'x', SOCreditStatus: 'Q' }, /SOCreditStatus/],
      [{ Name: 'x'.repeat(500) }, /too long for column Name/],
      [{ Name: 'x', FirstSale: 'not a date' }, /FirstSale/],
      [{ Name: 'x', SO_CreditLimit: 'lots' }, /SO_CreditLimit/],
      [{ Name: 'x', NumberEmployees: 1.5 }, /NumberEmployees/],
      [{ Name: 'x', C_BP_Group_ID: { identifier: 'No such group' } }, /C_BP_Group_ID/],
      [{ Name: 'x', C_BP_Group_ID: { uid: 'not-a-uuid' } }, /C_BP_Group_ID/],
      [{ Name: 'x', Description: { nested: true } }, /Description/],
      [{ Name: 'x', AD_User: [1, 2] }, /AD_User/],
      [{ Name: 'x', No_Such_Table: [{}] }, /No_Such_Table/],
      [{ Name: null }, /Fill mandatory fields: .*Name/],
      [{ Name: 'nul \u0000 inside' }, /NUL.*Name|Name.*NUL/],
    ];
    for (const [body, detail] of cases) {
      const r = await call('POST', '/api/v1/models/c_bpartner', body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${r.text}`);
      assert.equal(typeof r.body.title, 'string');
      assert.match(r.body.detail, detail);
    }
    const date = await call('POST', '/api/v1/models/c_bpartner', { Name: 'x', FirstSale: '2020-02-30' });
    assert.equal(date.body.title, 'Invalid date');
    const notUpdatable = await call('PUT', '/api/v1/models/c_bpartner/117', { AD_Client_ID: 0 });
    assert.equal(notUpdatable.status, 400);
    assert.match(notUpdatable.body.detail, /Cannot update column AD_Client_ID/);
    const mandatoryCleared = await call('PUT', '/api/v1/models/c_bpartner/117', { Name: null });
    assert.equal(mandatoryCleared.status, 400);
    assert.match(mandatoryCleared.body.detail, /Name/);
    const processed = await call('PUT', '/api/v1/models/c_order/102', { Description: 'after completion' });
    assert.equal(processed.status, 400);
    assert.match(processed.body.detail, /Cannot update column Description on processed record/);
    const notJson = await server.request('POST', '/api/v1/models/c_bpartner', { token, raw: '{"Name": ', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    const array = await call('POST', '/api/v1/models/c_bpartner', [{ Name: 'x' }]);
    assert.equal(array.status, 400);
    const orgLevel = await call('POST', '/api/v1/models/c_order', { AD_Org_ID: 0, C_BPartner_ID: 118, C_DocTypeTarget_ID: 132 });
    assert.equal(orgLevel.status, 400, 'an organization-level table refuses organization *');
    assert.match(orgLevel.body.detail, /AD_Org_ID/);
  });

  it('writes a referenced address given as an object (location converter)', async () => {
    const bpl = await call('GET', `/api/v1/models/c_bpartner_location?$filter=${q('C_BPartner_ID eq 117')}&$top=1`);
    assert.equal(bpl.status, 200);
    const loc = bpl.body.records[0];
    assert.ok(loc, 'partner 117 has an address');
    const r = await call('PUT', `/api/v1/models/c_bpartner_location/${loc.id}`, {
      Name: 'Monroe',
      C_Location_ID: { id: loc.C_Location_ID.id, address1: 'address 1', postal: '06901', C_Country_ID: 100, C_Region_ID: 102, C_City_ID: 0, city: 'Near Village', IsActive: true },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.Name, 'Monroe');
    const address = await call('GET', `/api/v1/models/c_location/${loc.C_Location_ID.id}`);
    assert.equal(address.body.Address1, 'address 1');
    assert.equal(address.body.City, 'Near Village');
    assert.equal(address.body.C_City_ID, undefined, 'an optional reference of 0 is none');
    const fresh = await call('PUT', `/api/v1/models/c_bpartner_location/${loc.id}`, { C_Location_ID: { id: 0, address1: 'new street', C_Country_ID: 100 } });
    assert.equal(fresh.status, 200, fresh.text);
    assert.notEqual(fresh.body.C_Location_ID.id, loc.C_Location_ID.id, 'id 0 creates a new address');
  });

  it('deletes a record, its details, and refuses records still referenced', async () => {
    const created = await call('POST', '/api/v1/models/c_bp_group', { Name: 'Temporary group', Value: 'TMPGRP' });
    assert.equal(created.status, 201, created.text);
    const del = await call('DELETE', `/api/v1/models/c_bp_group/${created.body.id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { msg: 'Deleted' });
    assert.equal((await call('GET', `/api/v1/models/c_bp_group/${created.body.id}`)).status, 404);
    assert.equal((await call('DELETE', `/api/v1/models/c_bp_group/${created.body.id}`)).status, 404);
    const used = await call('DELETE', '/api/v1/models/c_bp_group/103');
    assert.equal(used.status, 409);
    assert.match(used.body.detail, /C_BPartner\.C_BP_Group_ID/);
    const parent = await call('POST', '/api/v1/models/r_interestarea', { Name: 'Short-lived area', Value: 'SLA' });
    assert.equal(parent.status, 201, parent.text);
    const withLines = await call('PUT', '/api/v1/models/c_order/1000022', { C_OrderLine: [{ M_Product_ID: 133, QtyEntered: 2, C_Tax_ID: 104, C_UOM_ID: 100 }] });
    assert.equal(withLines.status, 200, withLines.text);
    const orderLines = await count('c_orderline', 'C_Order_ID eq 1000022');
    assert.ok(orderLines >= 1);
    const order = await call('DELETE', '/api/v1/models/c_order/1000022');
    assert.equal(order.status, 200, order.text);
    assert.equal(await count('c_orderline', 'C_Order_ID eq 1000022'), 0, 'the lines go with the order');
    const completed = await call('DELETE', '/api/v1/models/c_order/102');
    assert.equal(completed.status, 400, 'a processed document cannot be deleted');
  });

  it('follows the dictionary constraint type of referencing columns on delete', async () => {
    assert.ok((await count('m_productprice', 'M_Product_ID eq 144')) > 0, 'the product has prices');
    const del = await call('DELETE', '/api/v1/models/m_product/144');
    assert.equal(del.status, 200, del.text);
    assert.equal(await count('m_productprice', 'M_Product_ID eq 144'), 0, 'prices cascade with the product (FKConstraintType C)');
    const referenced = await call('DELETE', '/api/v1/models/m_product/128');
    assert.equal(referenced.status, 409, 'order lines forbid deleting their product');
    assert.match(referenced.body.detail, /still referenced by/);
    assert.ok((await count('m_productprice', 'M_Product_ID eq 128')) > 0, 'a refused delete cascades nothing');
  });

  it('raises model events inside the write transaction', async () => {
    const seen: string[] = [];
    const record = (e: ModelEvent) => {
      if (e.table.dbName === 'c_bp_group') seen.push(`${e.type}:${String(e.row.name)}`);
    };
    for (const type of ['before-new', 'after-new', 'before-change', 'after-change', 'before-delete', 'after-delete'] as const) server.services.events.on(type, 'C_BP_Group', record);
    server.services.events.on('after-new', 'c_bp_group', (e) => {
      if (e.row.name === 'Refused by a handler') throw badRequest('Validation Errors', 'A model event refused the record');
    });
    const made = await call('POST', '/api/v1/models/c_bp_group', { Name: 'Evented', Value: 'EVT' });
    assert.equal(made.status, 201);
    await call('PUT', `/api/v1/models/c_bp_group/${made.body.id}`, { Description: 'changed' });
    await call('DELETE', `/api/v1/models/c_bp_group/${made.body.id}`);
    assert.deepEqual(seen, ['before-new:Evented', 'after-new:Evented', 'before-change:Evented', 'after-change:Evented', 'before-delete:Evented', 'after-delete:Evented']);
    const refused = await call('POST', '/api/v1/models/c_bp_group', { Name: 'Refused by a handler', Value: 'REF' });
    assert.equal(refused.status, 400);
    assert.equal(await count('c_bp_group', "Name eq 'Refused by a handler'"), 0, 'the after-new handler failure rolled the insert back');
  });
});
