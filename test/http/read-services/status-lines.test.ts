import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

const q = (s: string) => encodeURIComponent(s);

describe('status lines', () => {
  let server: TestServer;
  let admin: string;
  let webService: string;
  const get = (path: string, token = admin) => server.request('GET', path, { token });

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    webService = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
  });
  after(async () => {
    await server.close();
  });

  it('lists the active status lines ordered by name, with messages on request', async () => {
    const r = await get('/api/v1/statuslines');
    assert.equal(r.status, 200, r.text);
    const lines = r.body.statusLines;
    assert.deepEqual(lines.map((l: { Name: string }) => l.Name), ['Dashboard_OrderCount', 'InvoiceSummary', 'OrderSummary']);
    assert.deepEqual(Object.keys(lines[0]).sort(), ['EntityType', 'Name', 'id', 'model-name', 'uid']);
    assert.equal(lines[0].id, 200024);
    assert.equal(lines[0]['model-name'], 'ad_statusline');
    assert.equal(lines[0].EntityType.id, 'D');
    assert.equal(lines[0].message, undefined);
    const withMessages = await get('/api/v1/statuslines?with_messages=true');
    const orders = withMessages.body.statusLines.find((l: { Name: string }) => l.Name === 'OrderSummary');
    // Completed sales orders of GardenWorld and their total, from the records themselves.
    const completed = await get(`/api/v1/models/c_order?$filter=${q("IsSOTrx eq true and DocStatus eq 'CO'")}&$select=GrandTotal`);
    const total = completed.body.records.reduce((n: number, o: { GrandTotal: number }) => n + o.GrandTotal, 0);
    assert.equal(orders.message, `${completed.body['row-count']} completed sales orders, total ${total.toLocaleString('en-US', { maximumFractionDigits: 3 })}`);
    const none = await get(`/api/v1/statuslines?$filter=${q("EntityType neq 'D'")}&with_messages=true`);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.statusLines, []);
    const one = await get(`/api/v1/statuslines?$filter=${q("Name eq 'InvoiceSummary'")}&with_messages=false`);
    assert.deepEqual(one.body.statusLines.map((l: { id: number }) => l.id), [200001]);
    const bad = await get(`/api/v1/statuslines?$filter=${q('Nope eq 1')}`);
    assert.equal(bad.status, 400);
  });

  it('answers one line as its message with line breaks, in the caller context', async () => {
    const r = await get('/api/v1/statuslines/200024');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['message']);
    const lines = r.body.message.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'Order Count');
    assert.match(lines[1], /^ Top Year \(\d{4}\): [1-9]\d* $/);
    assert.match(lines[2], /^ Current Year: \d+$/);
    const uid = (await get('/api/v1/statuslines')).body.statusLines[0].uid;
    const byUuid = await get(`/api/v1/statuslines/${uid}`);
    assert.equal(byUuid.body.message, r.body.message);
    // The System client has no orders: the same line counts none there.
    const system = await systemLogin(server);
    const empty = await get('/api/v1/statuslines/200024', system);
    assert.equal(empty.body.message, 'Order Count\n Top Year (-): 0 \n Current Year: 0');
    const ws = await get('/api/v1/statuslines/200000', webService);
    assert.equal(ws.status, 200);
  });

  it('answers 404 for unknown lines and 401 without a token', async () => {
    for (const id of ['999999', 'abc', '00000000-0000-4000-8000-000000000000']) {
      const r = await get(`/api/v1/statuslines/${id}`);
      assert.equal(r.status, 404, id);
      assert.equal(r.body.title, 'Status Line not found');
    }
    assert.equal((await server.request('GET', '/api/v1/statuslines')).status, 401);
    assert.equal((await server.request('GET', '/api/v1/statuslines/200024')).status, 401);
  });

  it('checks the statement of a status line when it is saved', async () => {
    const system = await systemLogin(server);
    const post = (body: unknown) => server.request('POST', '/api/v1/models/ad_statusline', { token: system, body: { Name: 'Check', AD_Message_ID: 200500, EntityType: 'U', ...(body as object) } });
    for (const statement of ['DELETE FROM C_Order', 'SELECT 1; SELECT 2', 'SELECT nope FROM C_Order', "SELECT pg_read_file('/etc/passwd')", 'SELECT 1 FROM C_Order FOR UPDATE']) {
      const r = await post({ SQLStatement: statement });
      assert.equal(r.status, 400, `${statement}: ${r.text}`);
    }
    const ok = await post({ SQLStatement: 'SELECT COUNT(*), COUNT(*) FROM C_BPartner WHERE AD_Client_ID=@#AD_Client_ID@' });
    assert.equal(ok.status, 201, ok.text);
    const message = await get(`/api/v1/statuslines/${ok.body.id}`);
    const partners = await get('/api/v1/models/c_bpartner?$top=1');
    assert.equal(message.body.message, `${partners.body['row-count']} completed sales orders, total ${partners.body['row-count']}`);
  });
});
