import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { sleep } from '../../helpers/wait.js';
import { insertRow } from '../../../src/auth/util.js';
import { Receiver } from '../webhooks/receiver.js';

const M_INVENTORY = 321;
const M_MOVEMENT = 323;

describe('webhooks of moves and counts', () => {
  let server: TestServer;
  let receiver: Receiver;
  let admin: string;
  const q = (text: string, values: unknown[] = []) => server.services.db.query<any>(text, values);
  const setConfig = async (name: string, value: string, clientId = 0) => {
    await q('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = $2', [name, clientId]);
    await insertRow(server.services.db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
    server.services.sysConfig.clear();
  };
  const received = async (n: number) => {
    for (let i = 0; i < 300 && receiver.received.length < n; i++) await sleep(30);
    assert.equal(receiver.received.length, n, 'requests received');
  };

  before(async () => {
    receiver = await new Receiver().start();
    server = await startTestServer();
    admin = await login(server);
    await setConfig('REST_WEBHOOK_ENABLED', 'Y', 11);
    await setConfig('REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1');
    const hook = await server.request('POST', '/api/v1/models/REST_Webhook_Out', { token: admin, body: { Name: 'Stock', URL: receiver.url + '/hook' } });
    assert.equal(hook.status, 201, hook.text);
    for (const [table, code] of [
      [M_INVENTORY, 'DACO'],
      [M_MOVEMENT, 'DACO'],
      [M_MOVEMENT, 'DAVO'],
    ] as const) {
      const sub = await server.request('POST', '/api/v1/models/REST_Webhook_Out_Event', { token: admin, body: { REST_Webhook_Out_ID: hook.body.id, AD_Table_ID: table, EventModelValidator: code } });
      assert.equal(sub.status, 201, sub.text);
    }
    await sleep(50);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('delivers DACO of a completed count and DACO and DAVO of a move', async () => {
    const count = await server.request('POST', '/api/v1/models/m_inventory', { token: admin, body: { M_InventoryLine: [{ M_Product_ID: 133, QtyCount: 50 }], 'doc-action': 'CO' } });
    assert.equal(count.status, 201, count.text);
    await received(1);
    const first = JSON.parse(receiver.received[0]!.body);
    assert.equal(first.type, 'M_Inventory.DACO');
    assert.equal(first.data.id, count.body.id);
    assert.equal(first.data.DocStatus.id, 'CO');

    const move = await server.request('POST', '/api/v1/models/m_movement', {
      token: admin,
      body: { M_MovementLine: [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], 'doc-action': 'CO' },
    });
    assert.equal(move.status, 201, move.text);
    await received(2);
    assert.equal(JSON.parse(receiver.received[1]!.body).type, 'M_Movement.DACO');
    const voided = await server.request('PUT', `/api/v1/models/m_movement/${move.body.id}`, { token: admin, body: { 'doc-action': 'VO' } });
    assert.equal(voided.status, 200, voided.text);
    await received(3);
    const last = JSON.parse(receiver.received[2]!.body);
    assert.equal(last.type, 'M_Movement.DAVO');
    assert.equal(last.data.DocStatus.id, 'VO');
  });
});
