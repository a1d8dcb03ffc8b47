import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { systemLogin } from '../../helpers/login.js';
import { insertRow } from '../../../src/auth/util.js';
import { SERVICE_INTERNAL_TABLES } from '../../../src/access/security-tables.js';
import type { TestResponse } from '../../helpers/server.js';

const q = (s: string) => encodeURIComponent(s);

/** The dictionary tables clients build their forms from; all but AD_Val_Rule are System-only (4). */
const DICTIONARY = ['AD_Table', 'AD_Column', 'AD_Field', 'AD_Tab', 'AD_Window', 'AD_Ref_List', 'AD_Ref_Table', 'AD_Reference', 'AD_Process', 'AD_Process_Para', 'AD_Element', 'AD_Val_Rule'];

/**
 * Every role reads the dictionary (the original's role access reads no access level for reading);
 * writing it stays the System's, and the service's internal tables stay closed to tenant roles.
 */
describe('reading the dictionary with tenant roles', () => {
  const t = serverWithDemoRoles();
  const roles = () => [
    ['GardenWorld Admin', t.admin],
    ['GardenWorld User', t.user],
    ['Web Service Execution', t.ws],
  ] as const;
  const as = (token: string, method: string, path: string, body?: unknown) => t.server.request(method, path, { token, body });
  const records = (r: TestResponse): Record<string, unknown>[] => r.body.records;

  it('lets every demo role read the dictionary tables, System rows only', async () => {
    for (const [name, token] of roles()) {
      for (const table of DICTIONARY) {
        const r = await as(token, 'GET', `/api/v1/models/${table.toLowerCase()}?$top=20`);
        assert.equal(r.status, 200, `${name} ${table}: ${r.text.slice(0, 200)}`);
        assert.ok(records(r).length > 0, `${name} ${table} has rows`);
        for (const rec of records(r)) assert.equal((rec.AD_Client_ID as { id: number }).id, 0, `${name} ${table} shows System rows`);
      }
      const one = await as(token, 'GET', '/api/v1/models/ad_table/259');
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.TableName, 'C_Order');
      const columns = await as(token, 'GET', `/api/v1/models/ad_column?$top=200&$filter=${q('AD_Table_ID eq 259')}`);
      assert.equal(columns.status, 200, columns.text);
      assert.ok(records(columns).some((c) => c.ColumnName === 'DocumentNo'), `${name} reads the columns of C_Order`);
      const list = await as(token, 'GET', `/api/v1/models/ad_ref_list?$filter=${q('AD_Reference_ID eq 131')}`);
      assert.equal(list.status, 200, list.text);
      assert.ok(records(list).some((v) => v.Value === 'CO'), `${name} reads the document status list`);
      const expanded = await as(token, 'GET', '/api/v1/models/ad_window/143?$expand=AD_Tab($select=Name)');
      assert.equal(expanded.status, 200, expanded.text);
      assert.ok(Array.isArray(expanded.body.AD_Tab) && expanded.body.AD_Tab.length > 0, `${name} expands a window's tabs`);
    }
  });

  it('lists the dictionary tables in GET /models for every demo role, and not the internal ones', async () => {
    for (const [name, token] of roles()) {
      const r = await as(token, 'GET', '/api/v1/models');
      assert.equal(r.status, 200, r.text);
      const names = new Set(r.body.models.map((m: { 'model-name': string }) => m['model-name']));
      for (const table of DICTIONARY) assert.ok(names.has(table.toLowerCase()), `${name} sees ${table}`);
      for (const table of SERVICE_INTERNAL_TABLES) assert.ok(!names.has(table), `${name} does not see ${table}`);
    }
  });

  it('refuses every write of the dictionary to every demo role with 403, and changes nothing', async () => {
    const db = t.server.services.db;
    const before = await db.query(`SELECT count(*)::int AS n FROM ad_ref_list`);
    const { rows } = await db.query<{ ad_ref_list_id: number }>(`SELECT ad_ref_list_id FROM ad_ref_list WHERE ad_reference_id = 131 AND value = 'CO'`);
    const listId = Number(rows[0]!.ad_ref_list_id);
    const column = (await db.query<{ id: number }>(`SELECT ad_column_id AS id FROM ad_column WHERE ad_table_id = 114 AND columnname = 'Password'`)).rows[0]!.id;
    const field = (await db.query<{ id: number }>(`SELECT min(ad_field_id) AS id FROM ad_field`)).rows[0]!.id;
    for (const [name, token] of roles()) {
      const attempts: [string, string, unknown?][] = [
        ['POST', '/api/v1/models/ad_ref_list', { AD_Reference_ID: 131, Value: 'ZZ', Name: 'Forged' }],
        ['PUT', `/api/v1/models/ad_ref_list/${listId}`, { Name: 'Forged' }],
        ['DELETE', `/api/v1/models/ad_ref_list/${listId}`],
        ['POST', '/api/v1/models/ad_table', { TableName: 'X_Forged', Name: 'Forged', AccessLevel: '3' }],
        ['PUT', '/api/v1/models/ad_table/259', { Description: 'Forged' }],
        ['PUT', `/api/v1/models/ad_column/${column}`, { IsSecure: false }],
        ['DELETE', `/api/v1/models/ad_field/${field}`],
      ];
      for (const [method, path, body] of attempts) {
        const r = await as(token, method, path, body);
        assert.equal(r.status, 403, `${name} ${method} ${path}: ${r.text.slice(0, 200)}`);
      }
    }
    assert.deepEqual((await db.query(`SELECT count(*)::int AS n FROM ad_ref_list`)).rows, before.rows);
    const co = await db.query<{ name: string }>(`SELECT name FROM ad_ref_list WHERE ad_ref_list_id = $1`, [listId]);
    assert.notEqual(co.rows[0]!.name, 'Forged');
    const order = await db.query<{ description: string | null }>(`SELECT description FROM ad_table WHERE ad_table_id = 259`);
    assert.notEqual(order.rows[0]!.description, 'Forged');
    assert.equal((await db.query<{ issecure: string }>(`SELECT issecure FROM ad_column WHERE ad_column_id = $1`, [column])).rows[0]!.issecure, 'Y');
    assert.equal((await db.query(`SELECT 1 FROM ad_field WHERE ad_field_id = $1`, [field])).rows.length, 1);
  });

  it('shows no secure or encrypted column of any table a tenant role reads now', async () => {
    const dict = t.server.services.dictionary.current;
    const opened = dict.tables.filter((table) => table.isActive && table.accessLevel === '4' && !SERVICE_INTERNAL_TABLES.has(table.dbName));
    assert.ok(opened.length > 20);
    for (const [name, token] of roles()) {
      for (const table of opened) {
        const r = await as(token, 'GET', `/api/v1/models/${table.modelName}?$top=100`);
        assert.equal(r.status, 200, `${name} ${table.name}: ${r.text.slice(0, 200)}`);
        const secret = table.columns.filter((c) => c.isSecure || c.isEncrypted).map((c) => c.name);
        for (const rec of records(r)) for (const c of secret) assert.ok(!(c in rec), `${name} ${table.name} shows ${c}`);
        assert.doesNotMatch(r.text, /\$argon2|BEGIN (EC )?PRIVATE KEY/, `${name} ${table.name}`);
      }
    }
  });

  it("keeps the service's internal tables (mail outbox, resets, uploads, keys, nodes) closed to tenant roles", async () => {
    const db = t.server.services.db;
    // A reset mail of the client and one of the System: tenants read neither.
    await insertRow(db, 'REST_Mail', { mailto: 'admin@gardenworld.com', subject: 'Reset', bodytext: 'code 123456', language: 'en_US', issent: 'N' }, { clientId: 11 });
    await insertRow(db, 'REST_Mail', { mailto: 'superuser@example.com', subject: 'Reset', bodytext: 'code 654321', language: 'en_US', issent: 'N' }, { clientId: 0 });
    for (const [name, token] of roles()) {
      for (const table of SERVICE_INTERNAL_TABLES) {
        const list = await as(token, 'GET', `/api/v1/models/${table}`);
        assert.equal(list.status, 403, `${name} ${table}: ${list.text.slice(0, 200)}`);
        assert.equal(list.body.detail, `Access denied for table: ${t.server.services.dictionary.current.byName.get(table)!.name}`);
      }
      const expand = await as(token, 'GET', '/api/v1/models/ad_user/101?$expand=REST_PasswordReset');
      assert.equal(expand.status, 403, `${name}: ${expand.text.slice(0, 200)}`);
    }
    const system = await systemLogin(t.server);
    const mail = await as(system, 'GET', '/api/v1/models/rest_mail');
    assert.equal(mail.status, 200, 'the System reads them, its own client only');
    assert.ok(records(mail).every((m) => (m.AD_Client_ID as { id: number }).id === 0));
  });

  it('still lets a table access rule close a dictionary table to a role', async () => {
    const rule = await as(t.admin, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 50004, AD_Table_ID: 101, IsExclude: true, IsReadOnly: false, AccessTypeRule: 'A' });
    assert.equal(rule.status, 201, rule.text);
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 403; i++) {
        status = (await as(t.ws, 'GET', '/api/v1/models/ad_column?$top=1')).status;
        if (status !== 403) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(status, 403, 'the exclude rule closes AD_Column to Web Service Execution');
      const models = await as(t.ws, 'GET', '/api/v1/models');
      assert.ok(!models.body.models.some((m: { 'model-name': string }) => m['model-name'] === 'ad_column'));
      assert.equal((await as(t.user, 'GET', '/api/v1/models/ad_column?$top=1')).status, 200, 'other roles keep reading it');
    } finally {
      assert.equal((await as(t.admin, 'DELETE', `/api/v1/models/ad_table_access/${rule.body.id ?? rule.body.uid}`)).status, 200);
    }
  });
});
