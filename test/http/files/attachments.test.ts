import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unzipSync, zipSync } from 'fflate';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('attachments of records', () => {
  let server: TestServer;
  let admin: string;
  const path = '/api/v1/models/c_order/1000022/attachments';

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('adds, lists, reads, zips and deletes entries as the original', async () => {
    const empty = await server.request('GET', path, { token: admin });
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, { attachments: [] });

    const created = await server.request('POST', path, { token: admin, body: { name: 'IDEMPIERE-4018.patch', data: b64('# HG changeset patch\n') } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.text, '');
    const second = await server.request('POST', path, { token: admin, body: { name: 'notes.txt', data: b64('hello') } });
    assert.equal(second.status, 201, second.text);

    const list = await server.request('GET', path, { token: admin });
    assert.deepEqual(list.body, { attachments: [{ name: 'IDEMPIERE-4018.patch', contentType: 'text/x-patch' }, { name: 'notes.txt', contentType: 'text/plain' }] });

    const one = await server.request('GET', `${path}/notes.txt`, { token: admin });
    assert.equal(one.status, 200);
    assert.equal(one.text, 'hello');
    assert.match(one.headers.get('content-type') ?? '', /^text\/plain/);
    const oneJson = await server.request('GET', `${path}/notes.txt?json=true`, { token: admin });
    assert.deepEqual(oneJson.body, { data: b64('hello') });

    const zipJson = await server.request('GET', `${path}/zip?json`, { token: admin });
    assert.equal(zipJson.status, 200, zipJson.text);
    const files = unzipSync(new Uint8Array(Buffer.from(zipJson.body.data as string, 'base64')));
    assert.deepEqual(Object.keys(files).sort(), ['IDEMPIERE-4018.patch', 'notes.txt']);
    assert.equal(Buffer.from(files['notes.txt']!).toString(), 'hello');
    const zipRaw = await fetch(`${server.url}${path}/zip`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(zipRaw.headers.get('content-type'), 'application/octet-stream');
    assert.equal(Buffer.from(unzipSync(new Uint8Array(await zipRaw.arrayBuffer()))['IDEMPIERE-4018.patch']!).toString(), '# HG changeset patch\n');

    const dup = await server.request('POST', path, { token: admin, body: { name: 'notes.txt', data: b64('other') } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.detail, 'Duplicate file name');
    const over = await server.request('POST', path, { token: admin, body: { name: 'notes.txt', data: b64('other'), overwrite: true } });
    assert.equal(over.status, 201, over.text);
    assert.equal((await server.request('GET', `${path}/notes.txt`, { token: admin })).text, 'other');

    const del = await server.request('DELETE', `${path}/notes.txt`, { token: admin });
    assert.equal(del.status, 200, del.text);
    const gone = await server.request('GET', `${path}/notes.txt`, { token: admin });
    assert.equal(gone.status, 404);
    assert.deepEqual((await server.request('GET', path, { token: admin })).body, { attachments: [{ name: 'IDEMPIERE-4018.patch', contentType: 'text/x-patch' }] });
  });

  it('adds the entries of a zip and deletes the whole set (m_product 144)', async () => {
    const p = '/api/v1/models/m_product/144/attachments';
    const zip = Buffer.from(zipSync({ 'a.txt': new Uint8Array(Buffer.from('A')), 'b.csv': new Uint8Array(Buffer.from('x,y')) })).toString('base64');
    const r = await server.request('POST', `${p}/zip`, { token: admin, body: { data: zip } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((await server.request('GET', p, { token: admin })).body, { attachments: [{ name: 'a.txt', contentType: 'text/plain' }, { name: 'b.csv', contentType: 'text/csv' }] });
    const notZip = await server.request('POST', `${p}/zip`, { token: admin, body: { data: b64('not a zip') } });
    assert.equal(notZip.status, 400);
    const all = await server.request('DELETE', p, { token: admin });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual((await server.request('GET', p, { token: admin })).body, { attachments: [] });
    assert.equal((await server.request('DELETE', p, { token: admin })).status, 404);
    assert.equal((await server.request('GET', `${p}/zip`, { token: admin })).status, 404);
  });

  it('refuses missing or malformed fields and unknown records', async () => {
    const noName = await server.request('POST', path, { token: admin, body: { data: b64('x') } });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.detail, 'name property is mandatory');
    const noData = await server.request('POST', path, { token: admin, body: { name: 'x.txt' } });
    assert.equal(noData.status, 400);
    assert.equal(noData.body.detail, 'data property is mandatory');
    const badData = await server.request('POST', path, { token: admin, body: { name: 'x.txt', data: '***' } });
    assert.equal(badData.status, 400);
    const badName = await server.request('POST', path, { token: admin, body: { name: '../x.txt', data: b64('x') } });
    assert.equal(badName.status, 400);
    const noRecord = await server.request('GET', '/api/v1/models/c_order/99999999/attachments', { token: admin });
    assert.equal(noRecord.status, 404);
    assert.equal(noRecord.body.title, 'Record not found');
    const noTable = await server.request('POST', '/api/v1/models/no_such/1/attachments', { token: admin, body: { name: 'x.txt', data: b64('x') } });
    assert.equal(noTable.status, 404);
  });

  it('answers 409, not 500, when the stored attachment is not a zip, and still deletes it', async () => {
    const p = '/api/v1/models/c_bpartner/118/attachments';
    assert.equal((await server.request('POST', p, { token: admin, body: { name: 'a.txt', data: b64('A') } })).status, 201);
    await server.services.db.query(`UPDATE ad_attachment SET binarydata = convert_to('not a zip at all', 'UTF8') WHERE ad_table_id = 291 AND record_id = 118`);
    for (const [method, target, body] of [['GET', p], ['GET', `${p}/zip`], ['GET', `${p}/a.txt`], ['POST', p, { name: 'b.txt', data: b64('B') }]] as const) {
      const r = await server.request(method, target, { token: admin, body });
      assert.equal(r.status, 409, `${method} ${target}: ${r.text}`);
      assert.equal(r.body.title, 'Invalid attachment');
    }
    assert.equal((await server.request('DELETE', p, { token: admin })).status, 200);
    assert.deepEqual((await server.request('GET', p, { token: admin })).body, { attachments: [] });
  });

  for (const who of [
    { userName: 'GardenUser', password: 'GardenUser', roleId: 103 },
    { userName: 'WebService', password: 'WebService', roleId: 50004 },
  ]) {
    it(`lets ${who.userName} change attachments only of records it may write`, async () => {
      const token = await login(server, who);
      // System records (client 0): readable to the client's roles, writable by none of them.
      for (const target of ['/api/v1/models/ad_table/259/attachments', '/api/v1/models/ad_user/100/attachments', '/api/v1/models/ad_org/0/attachments']) {
        const before = await server.request('GET', target, { token: admin });
        const add = await server.request('POST', target, { token, body: { name: 'evil.txt', data: b64('x') } });
        assert.ok([403, 404].includes(add.status), `${target} ${add.status} ${add.text}`);
        assert.ok(add.body.detail, add.text);
        const del = await server.request('DELETE', target, { token });
        assert.ok([403, 404].includes(del.status), `${target} delete ${del.status}`);
        assert.deepEqual((await server.request('GET', target, { token: admin })).body, before.body);
      }
      // The same rule as a record update: allowed exactly when the role may update the order.
      const order = await server.request('GET', '/api/v1/models/c_order/1000022?$select=Description', { token: admin });
      const put = await server.request('PUT', '/api/v1/models/c_order/1000022', { token, body: { Description: order.body.Description ?? 'x' } });
      const add = await server.request('POST', path, { token, body: { name: `${who.userName}.txt`, data: b64('x') } });
      assert.equal(add.status < 300, put.status < 300, `attachment ${add.status} vs update ${put.status}`);
    });
  }
});
