import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { writeArchive } from '../../../src/archives/archive-store.js';

/** The archive endpoints under /views behave as under /models, on the view's records. */
describe('archives of REST view records', () => {
  let server: TestServer;
  let admin: string;
  let archiveId = 0;
  const bytes = Buffer.from('%PDF-1.4 partner statement');

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    const auth = { clientId: 11, orgId: 11, userId: 101 } as Parameters<typeof writeArchive>[1];
    archiveId = await writeArchive(server.services.db, auth, { name: 'statement.pdf', contentType: 'application/pdf', data: bytes, isReport: false, processId: null, tableId: 291, recordId: 118 });
  });
  after(async () => {
    await server.close();
  });

  it('lists a record\'s archives and answers one as bytes or as {data}', async () => {
    const list = await server.request('GET', '/api/v1/views/businessPartners/118/archives', { token: admin });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.archives.map((a: { id: number; contentType: string }) => [a.id, a.contentType]), [[archiveId, 'application/pdf']]);
    const file = await fetch(`${server.url}/api/v1/views/businessPartners/118/archives/${archiveId}`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);
    const json = await server.request('GET', `/api/v1/views/businessPartners/118/archives/${archiveId}?json=true`, { token: admin });
    assert.equal(json.body.data, bytes.toString('base64'));
    assert.equal(json.headers.get('x-ignored-parameters'), null);
  });

  it('answers 404 for an unknown view, record or archive, and 400 for a malformed archive id', async () => {
    assert.equal((await server.request('GET', '/api/v1/views/noSuchView/118/archives', { token: admin })).status, 404);
    assert.equal((await server.request('GET', '/api/v1/views/businessPartners/99999999/archives', { token: admin })).status, 404);
    assert.equal((await server.request('GET', `/api/v1/views/businessPartners/118/archives/${archiveId + 1000}`, { token: admin })).status, 404);
    assert.equal((await server.request('GET', '/api/v1/views/businessPartners/118/archives/x1', { token: admin })).status, 400);
  });

  it('keeps archives to roles that may read the record', async () => {
    const user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const r = await server.request('GET', '/api/v1/views/businessPartners/118/archives', { token: user });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.archives.length, 1);
    // A role whose table access rules close business partners sees neither the view nor its archives.
    const rule = await server.request('POST', '/api/v1/models/ad_table_access', { token: admin, body: { AD_Role_ID: 50004, AD_Table_ID: 291, IsExclude: true } });
    assert.equal(rule.status, 201, rule.text);
    const ws = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    const closed = await server.request('GET', '/api/v1/views/businessPartners/118/archives', { token: ws });
    assert.ok([403, 404].includes(closed.status), closed.text);
    assert.equal((await server.request('GET', '/api/v1/views/businessPartners/118/archives')).status, 401);
  });
});
