import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { systemLogin } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);
type Model = { id: number; uid?: string; 'model-name': string; name: string; description?: string };

/** GET /models: the tables the role may read, narrowed by a $filter over AD_Table, as in the original. */
describe('GET /models with $filter', () => {
  const t = serverWithDemoRoles();
  const models = async (token: string, filter?: string): Promise<Model[]> => {
    const r = await t.server.request('GET', `/api/v1/models${filter === undefined ? '' : `?$filter=${q(filter)}`}`, { token });
    assert.equal(r.status, 200, `${filter}: ${r.text}`);
    assert.deepEqual(Object.keys(r.body), ['models']);
    return r.body.models;
  };
  const names = (list: Model[]) => list.map((m) => m['model-name']);

  it("answers the original's shape: id, uid, model-name, name and description, ordered by table name", async () => {
    const all = await models(t.admin);
    assert.ok(all.length > 100);
    for (const m of all) {
      assert.ok(Object.keys(m).every((k) => ['id', 'uid', 'model-name', 'name', 'description'].includes(k)), JSON.stringify(m));
      assert.equal(typeof m.id, 'number');
      assert.equal(typeof m.name, 'string');
      if (m.uid !== undefined) assert.match(m.uid, /^[0-9a-f-]{36}$/);
    }
    const order = all.find((m) => m['model-name'] === 'c_order')!;
    assert.equal(order.id, 259);
    const { rows } = await t.server.services.db.query<{ ad_table_uu: string | null }>(`SELECT ad_table_uu FROM ad_table WHERE ad_table_id = 259`);
    assert.equal(order.uid, rows[0]!.ad_table_uu ?? undefined, 'uid is AD_Table_UU');
    const sorted = [...all].sort((a, b) => a['model-name'].localeCompare(b['model-name']));
    assert.deepEqual(names(all), names(sorted));
  });

  it('applies the filter to AD_Table, for every demo role', async () => {
    for (const token of [t.admin, t.user, t.ws]) {
      const orders = await models(token, "startswith(TableName,'C_Order')");
      assert.ok(names(orders).includes('c_order') && names(orders).includes('c_orderline'), names(orders).join());
      assert.ok(names(orders).every((n) => n.startsWith('c_order')), names(orders).join());
      assert.deepEqual(names(await models(token, "TableName eq 'C_BPartner'")), ['c_bpartner']);
      assert.deepEqual(names(await models(token, 'id eq 259')), ['c_order']);
      const system = await models(token, "AccessLevel eq '4' and IsView eq N");
      assert.ok(names(system).includes('ad_table') && names(system).includes('ad_column'), 'the dictionary, which every role reads');
      assert.ok(!names(system).includes('rest_mail'), 'not the internal tables a tenant role may not read');
      assert.deepEqual(await models(token, "TableName eq 'No_Such_Table'"), []);
    }
  });

  it('lists active tables only, whatever the filter says about IsActive', async () => {
    const db = t.server.services.db;
    await db.query(`UPDATE ad_table SET isactive = 'N' WHERE ad_table_id = 394`);
    try {
      assert.deepEqual(await models(t.admin, 'IsActive eq false'), []);
      assert.deepEqual(await models(t.admin, "TableName eq 'C_BP_Group'"), []);
    } finally {
      await db.query(`UPDATE ad_table SET isactive = 'Y' WHERE ad_table_id = 394`);
    }
  });

  it('lists the internal tables to the System only', async () => {
    assert.deepEqual(await models(t.ws, "TableName eq 'REST_Mail'"), []);
    assert.deepEqual(names(await models(await systemLogin(t.server), "TableName eq 'REST_Mail'")), ['rest_mail']);
  });

  it('answers 400 for a bad filter, naming the culprit', async () => {
    for (const [filter, detail] of [
      ['Nope eq 1', /^Invalid column for filter: Nope$/],
      ["TableName ne 'x'", /^Unsupported operator: ne/],
      ['TableName eq 5', /single quotes/],
      ["TableName eq 'x", /Unterminated string/],
    ] as const) {
      const r = await t.server.request('GET', `/api/v1/models?$filter=${q(filter)}`, { token: t.ws });
      assert.equal(r.status, 400, `${filter}: ${r.text}`);
      assert.equal(r.body.title, 'Invalid $filter');
      assert.match(r.body.detail, detail);
    }
    const twice = await t.server.request('GET', `/api/v1/models?$filter=${q("TableName eq 'C_Order'")}&$filter=${q('id eq 1')}`, { token: t.ws });
    assert.equal(twice.status, 400, twice.text);
    assert.equal((await t.server.request('GET', `/api/v1/models?$filter=${q('id eq 259')}`)).status, 401, 'a token is needed');
  });
});
