import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('demo company', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const one = async (sql: string, params: unknown[] = []) => (await server.services.db.query<Record<string, unknown>>(sql, params)).rows[0];

  it('has the reference ids and names', async () => {
    assert.equal((await one('SELECT name FROM ad_client WHERE ad_client_id = 11'))?.name, 'GardenWorld');
    assert.equal((await one('SELECT name FROM ad_client WHERE ad_client_id = 0'))?.name, 'System');
    assert.equal((await one('SELECT name FROM ad_org WHERE ad_org_id = 11'))?.name, 'HQ');
    assert.equal((await one('SELECT name FROM ad_user WHERE ad_user_id = 101'))?.name, 'GardenAdmin');
    assert.equal((await one('SELECT name FROM ad_role WHERE ad_role_id = 102'))?.name, 'GardenWorld Admin');
    assert.equal((await one('SELECT ad_org_id FROM m_warehouse WHERE m_warehouse_id = 103'))?.ad_org_id, 11);
    assert.ok(await one('SELECT 1 FROM ad_user_roles WHERE ad_user_id = 101 AND ad_role_id = 102'));
    assert.ok(await one(`SELECT 1 FROM ad_val_rule WHERE ad_val_rule_id = 210`));
    assert.ok(await one(`SELECT 1 FROM c_order WHERE c_order_id = 1000022`));
  });

  it('stores passwords only as argon2id hashes', async () => {
    const { rows } = await server.services.db.query<{ password: string | null }>(`SELECT password FROM ad_user WHERE password IS NOT NULL`);
    assert.ok(rows.length >= 4);
    for (const r of rows) assert.match(r.password!, /^\$argon2id\$/);
  });

  it('hands out new ids from 1,000,000 on', async () => {
    const { rows } = await server.services.db.query<{ id: number }>(`SELECT nextval('c_bpartner_sq') AS id`);
    assert.ok(Number(rows[0]!.id) >= 1_000_000);
    const seq = await one(`SELECT currentnext FROM ad_sequence WHERE name = 'C_BPartner' AND istableid = 'Y' AND ad_client_id = 0`);
    assert.equal(Number(seq?.currentnext), 1_000_000);
  });

  it('gives every record a UUID', async () => {
    const r = await one(`SELECT count(*) AS n FROM c_bpartner WHERE c_bpartner_uu IS NULL`);
    assert.equal(Number(r?.n), 0);
  });
});
