import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { recordStatements } from '../../helpers/statements.js';

describe('health', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ REST_HEALTH_CACHE_DURATION: '0' });
  });
  after(async () => {
    await server.close();
  });

  it('answers UP without a token', async () => {
    // The first answer of the instance: its monitoring key was read before it listened, so a
    // monitor polling a starting instance waits behind none of its start's statements.
    const { result: r, statements } = await recordStatements(server.services.db, () => server.request('GET', '/api/v1/health'));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'UP' });
    assert.deepEqual(statements, []);
  });

  it('checks the database with db=true', async () => {
    const r = await server.request('GET', '/api/v1/health?db=true');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'UP', database: 'connected' });
  });

  it('requires the monitoring key once it is configured', async () => {
    await server.services.db.query(
      `INSERT INTO ad_sysconfig (ad_sysconfig_id, ad_sysconfig_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, value, configurationlevel)
       VALUES (nextval('ad_sysconfig_sq'), gen_random_uuid()::text, 0, 0, 'Y', now(), 100, now(), 100, 'REST_HEALTH_MONITORING_KEY', 's3cret-key', 'S')`,
    );
    server.services.sysConfig.clear();
    const missing = await server.request('GET', '/api/v1/health');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.status, 401);
    assert.equal(typeof missing.body.title, 'string');
    const wrong = await server.request('GET', '/api/v1/health?key=nope');
    assert.equal(wrong.status, 401);
    const right = await server.request('GET', '/api/v1/health?key=s3cret-key&db=true');
    assert.equal(right.status, 200);
    assert.deepEqual(right.body, { status: 'UP', database: 'connected' });
    await server.services.db.query(`DELETE FROM ad_sysconfig WHERE name = 'REST_HEALTH_MONITORING_KEY'`);
    server.services.sysConfig.clear();
  });

  it('answers unknown routes with the error body', async () => {
    const r = await server.request('GET', '/api/v1/no-such-thing');
    assert.equal(r.status, 404);
    assert.equal(r.body.status, 404);
    assert.equal(r.body.title, 'Not Found');
    assert.match(r.body.detail, /no-such-thing/);
  });

  it('answers malformed JSON with 400 and no internals', async () => {
    const r = await server.request('POST', '/api/v1/auth/tokens', { raw: '{"userName": ' });
    assert.equal(r.status, 400);
    assert.equal(r.body.status, 400);
    assert.doesNotMatch(r.text, /at .*\.js|SyntaxError|stack/i);
  });

  it('reads a JSON content type with an empty body as no body, and still refuses bad JSON behind it', async () => {
    const token = await login(server);
    const json = { 'content-type': 'application/json' };
    const read = await server.request('GET', '/api/v1/models/c_bpartner/118?$select=Name', { token, headers: json });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.id, 118);

    const created = await server.request('POST', '/api/v1/models/c_bpartner', { token, body: { Name: 'Deleted with a JSON content type' } });
    assert.equal(created.status, 201, created.text);
    const deleted = await server.request('DELETE', `/api/v1/models/c_bpartner/${created.body.id}`, { token, headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { msg: 'Deleted' });
    assert.equal((await server.request('GET', `/api/v1/models/c_bpartner/${created.body.id}`, { token })).status, 404);

    // A route that needs a body says so, with or without the header, and writes nothing.
    for (const headers of [json, {}]) {
      const none = await server.request('POST', '/api/v1/models/c_bpartner', { token, headers, raw: '' });
      assert.equal(none.status, 400, none.text);
      assert.deepEqual(none.body, { title: 'Invalid body', status: 400, detail: 'The request body must be a JSON object' });
    }
    const blank = await server.request('POST', '/api/v1/auth/tokens', { headers: json, raw: ' \n' });
    assert.equal(blank.status, 400, blank.text);
    assert.match(blank.body.detail, /must be a JSON object/);

    const broken = await server.request('PUT', '/api/v1/models/c_bpartner/118', { token, headers: json, raw: '{"Name": ' });
    assert.deepEqual(broken.body, { title: 'Invalid JSON', status: 400, detail: 'The request body is not valid JSON' });
    const poisoned = await server.request('PUT', '/api/v1/models/c_bpartner/118', { token, headers: json, raw: '{"__proto__": {"Name": "x"}}' });
    assert.equal(poisoned.status, 400, 'a __proto__ key is refused as before');
    const after = await server.request('GET', '/api/v1/models/c_bpartner/118?$select=Name', { token });
    assert.equal(after.body.Name, read.body.Name);
  });
});

describe('an unexpected fault', () => {
  it('answers 500 with the error body and nothing of the internals', async () => {
    const server = await startTestServer();
    const token = await login(server);
    const db = server.services.db;
    const realQuery = db.query.bind(db);
    (db as { query: unknown }).query = async (text: string) => {
      throw Object.assign(new Error(`relation "secret_table" does not exist in ${text}`), { code: '42P01' });
    };
    try {
      const r = await server.request('GET', '/api/v1/models/c_bpartner?$top=1', { token });
      assert.equal(r.status, 500);
      assert.equal(r.body.status, 500);
      assert.equal(typeof r.body.title, 'string');
      assert.doesNotMatch(r.text, /secret_table|SELECT|relation|\.js:\d+|stack/i);
    } finally {
      (db as { query: unknown }).query = realQuery;
      await server.close();
    }
  });
});

describe('health with the database gone', () => {
  it('answers 503 DOWN', async () => {
    const server = await startTestServer({ REST_HEALTH_CACHE_DURATION: '0' });
    const db = server.services.db;
    const realQuery = db.query.bind(db);
    // Simulates an unreachable database for the health check only.
    (db as { query: unknown }).query = async () => {
      throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    };
    try {
      const r = await server.request('GET', '/api/v1/health?db=true');
      assert.equal(r.status, 503);
      assert.deepEqual(r.body, { status: 'DOWN', database: 'disconnected' });
    } finally {
      (db as { query: unknown }).query = realQuery;
      await server.close();
    }
  });
});
