import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

describe('record versions: ETag, If-None-Match and If-Match', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => server.request(method, path, { token, body, headers });
  const created = async (name: string): Promise<number> => {
    const r = await call('POST', '/api/v1/models/c_bpartner', { Value: name, Name: name, C_BP_Group_ID: 104 });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  const draftInvoice = async () => {
    const r = await call('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 116,
      IsSOTrx: true,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 10, PriceActual: 10, C_Tax_ID: 104 }],
    });
    assert.equal(r.status, 201, r.text);
    return r;
  };
  const etagOf = async (path: string): Promise<string> => {
    const r = await call('GET', path);
    assert.equal(r.status, 200, r.text);
    const tag = r.headers.get('etag');
    assert.ok(tag, 'a single read carries an ETag');
    return tag;
  };
  const assertPreconditionFailed = (r: { status: number; body: any; text: string }) => {
    assert.equal(r.status, 412, r.text);
    assert.equal(r.body.status, 412);
    assert.equal(r.body.title, 'Precondition Failed');
    assert.match(r.body.detail, /changed/);
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('gives a single read a weak ETag, the same for the same version, whatever its $select', async () => {
    const id = await created('etag-read');
    const tag = await etagOf(`/api/v1/models/c_bpartner/${id}`);
    assert.match(tag, /^W\/"\d+\.\d+"$/);
    assert.equal(await etagOf(`/api/v1/models/c_bpartner/${id}?$select=Name`), tag);
    const byUuid = await call('GET', `/api/v1/models/c_bpartner/${id}`);
    assert.equal(await etagOf(`/api/v1/models/c_bpartner/${byUuid.body.uid}`), tag, 'read by UUID');
    // A change of any kind (here one that only another transaction makes) gives another version.
    await call('PUT', `/api/v1/models/c_bpartner/${id}`, { Description: 'changed' });
    assert.notEqual(await etagOf(`/api/v1/models/c_bpartner/${id}`), tag);
    const list = await call('GET', `/api/v1/models/c_bpartner?$top=1`);
    assert.equal(list.headers.get('etag'), null, 'lists carry none');
  });

  it('answers 304 without a body when If-None-Match names the current version, 200 otherwise', async () => {
    const id = await created('etag-304');
    const path = `/api/v1/models/c_bpartner/${id}`;
    const tag = await etagOf(path);
    const same = await call('GET', path, undefined, { 'If-None-Match': tag });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    assert.equal(same.headers.get('etag'), tag);
    assert.equal((await call('GET', path, undefined, { 'If-None-Match': `"other", ${tag.slice(2)}` })).status, 304, 'a list of tags, compared weakly');
    assert.equal((await call('GET', path, undefined, { 'If-None-Match': '*' })).status, 304);
    assert.equal((await call('GET', `${path}?$expand=AD_User`, undefined, { 'If-None-Match': tag })).status, 304, 'objects built by $expand too');
    const other = await call('GET', path, undefined, { 'If-None-Match': 'W/"1.2"' });
    assert.equal(other.status, 200);
    assert.equal(other.body.Name, 'etag-304');
    await call('PUT', path, { Description: 'now changed' });
    const after = await call('GET', path, undefined, { 'If-None-Match': tag });
    assert.equal(after.status, 200, 'a stale tag reads the record again');
    assert.equal(after.body.Description, 'now changed');
  });

  it('updates with If-Match at the current version and answers the new one; 412 with a stale one, writing nothing', async () => {
    const id = await created('etag-put');
    const path = `/api/v1/models/c_bpartner/${id}`;
    const tag = await etagOf(path);
    const first = await call('PUT', path, { Description: 'first' }, { 'If-Match': tag });
    assert.equal(first.status, 200, first.text);
    const next = first.headers.get('etag');
    assert.ok(next && next !== tag, 'the answer carries the new version');
    assert.equal(await etagOf(path), next);
    const stale = await call('PUT', path, { Description: 'second' }, { 'If-Match': tag });
    assertPreconditionFailed(stale);
    assert.equal((await call('GET', path)).body.Description, 'first', 'the stale write changed nothing');
    assert.equal((await call('PUT', path, { Description: 'strong form' }, { 'If-Match': next!.slice(2) })).status, 200, 'the tag without W/ names the same version');
    assertPreconditionFailed(await call('PUT', path, { Description: 'x' }, { 'If-Match': 'nope' }));
    assert.equal((await call('PUT', path, { Description: 'any' }, { 'If-Match': '*' })).status, 200);
    assert.equal((await call('PUT', path, { Description: 'no header' })).status, 200, 'without If-Match nothing changes');
  });

  it('deletes with If-Match only at the current version', async () => {
    const id = await created('etag-delete');
    const path = `/api/v1/models/c_bpartner/${id}`;
    const tag = await etagOf(path);
    await call('PUT', path, { Description: 'changed by someone else' });
    assertPreconditionFailed(await call('DELETE', path, undefined, { 'If-Match': tag }));
    assert.equal((await call('GET', path)).status, 200, 'still there');
    const current = await etagOf(path);
    assert.equal((await call('DELETE', path, undefined, { 'If-Match': current })).status, 200);
    assert.equal((await call('GET', path)).status, 404);
  });

  it('refuses a document action with a stale If-Match and leaves the document as it was', async () => {
    const inv = await draftInvoice();
    const path = `/api/v1/models/c_invoice/${inv.body.id}`;
    const tag = await etagOf(path);
    await call('PUT', path, { Description: 'edited meanwhile' });
    assertPreconditionFailed(await call('PUT', path, { 'doc-action': 'CO' }, { 'If-Match': tag }));
    assert.equal((await call('GET', path)).body.DocStatus.id, 'DR');
    const done = await call('PUT', path, { 'doc-action': 'CO' }, { 'If-Match': await etagOf(path) });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.DocStatus.id, 'CO');
  });

  it('runs a batch entry with If-Match only at the current version; a stale one rolls the batch back', async () => {
    const id = await created('etag-batch');
    const path = `/api/v1/models/c_bpartner/${id}`;
    const tag = await etagOf(path);
    const ok = await call('POST', '/api/v1/batch', [{ method: 'PUT', path: `v1/models/c_bpartner/${id}`, body: { Description: 'batch 1' }, headers: { 'if-match': tag } }]);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body[0].statusCode, 200);
    const stale = await call('POST', '/api/v1/batch', [
      { method: 'POST', path: 'v1/models/c_bpartner', body: { Value: 'etag-batch-2', Name: 'etag-batch-2', C_BP_Group_ID: 104 } },
      { method: 'PUT', path: `v1/models/c_bpartner/${id}`, body: { Description: 'batch 2' }, headers: { 'If-Match': tag } },
    ]);
    assert.equal(stale.status, 400, stale.text);
    assert.equal(stale.body[1].statusCode, 412);
    assert.equal(stale.body[1].body.title, 'Precondition Failed');
    assert.equal((await call('GET', path)).body.Description, 'batch 1');
    assert.equal((await call('GET', `/api/v1/models/c_bpartner?$filter=${encodeURIComponent("Value eq 'etag-batch-2'")}`)).body['row-count'], 0, 'rolled back');
    const own = await call('POST', '/api/v1/batch?transaction=false', [{ method: 'DELETE', path: `v1/models/c_bpartner/${id}`, headers: { 'If-Match': tag } }]);
    assert.equal(own.body[0].statusCode, 412);
  });

  it('checks a document action run as a process against If-Match', async () => {
    const inv = await draftInvoice();
    const path = `/api/v1/models/c_invoice/${inv.body.id}`;
    const tag = await etagOf(path);
    await call('PUT', path, { Description: 'moved on' });
    const run = { 'model-name': 'c_invoice', 'record-id': inv.body.id, DocAction: 'CO' };
    assertPreconditionFailed(await call('POST', '/api/v1/processes/rest_documentaction', run, { 'If-Match': tag }));
    assert.equal((await call('GET', path)).body.DocStatus.id, 'DR');
    const done = await call('POST', '/api/v1/processes/rest_documentaction', run, { 'If-Match': await etagOf(path) });
    assert.equal(done.status, 200, done.text);
    assert.equal((await call('GET', path)).body.DocStatus.id, 'CO');
    const noRecord = await call('POST', '/api/v1/processes/rest_documentaction', { DocAction: 'CO' }, { 'If-Match': tag });
    assert.equal(noRecord.status, 400);
  });

  it('tells no version of a record the caller may not write: 403 before 412', async () => {
    const tag = await etagOf('/api/v1/models/c_currency/100');
    assert.equal((await call('PUT', '/api/v1/models/c_currency/100', { Description: 'x' }, { 'If-Match': 'W/"1.1"' })).status, 403);
    assert.equal((await call('PUT', '/api/v1/models/c_currency/100', { Description: 'x' }, { 'If-Match': tag })).status, 403);
    const other = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    const missing = await server.request('GET', '/api/v1/models/c_bpartner/999999', { token: other, headers: { 'If-None-Match': '*' } });
    assert.equal(missing.status, 404);
  });
});
