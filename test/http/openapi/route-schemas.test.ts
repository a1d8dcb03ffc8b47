import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { openApiPath } from '../../../src/openapi/document.js';

type Operation = { summary?: string; tags?: string[]; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }>; headers?: Record<string, { example?: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** Whether an operation shows an example: of its body, of its answer, or of its redirect. */
const hasExample = (op: Operation): boolean =>
  Object.values(op.requestBody?.content ?? {}).some((c) => c.example !== undefined) ||
  Object.values(op.responses).some((r) => Object.values(r.content ?? {}).some((c) => c.example !== undefined) || Object.values(r.headers ?? {}).some((h) => h.example !== undefined));

describe('route schemas: the document comes from the registered routes', () => {
  const fx = serverWithDemoRoles();

  it('describes every registered route with its summary, and nothing else', async () => {
    const r = await fx.server.request('GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200, r.text);
    const doc = r.body as Doc;
    const routes = fx.server.app.routeCatalogue;
    assert.ok(routes.length > 100, `${routes.length} routes`);
    const described = new Set<string>();
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      assert.ok(route.schema?.summary, `${where} declares a summary`);
      const op = doc.paths[openApiPath(route.url).path]?.[route.method.toLowerCase()];
      assert.ok(op, `${where} is in the document`);
      assert.equal(op.summary, route.schema.summary, `${where}: the document's summary is the route's`);
      // Every operation shows an example, but for the answers that are files only.
      assert.ok(hasExample(op) || (route.schema.binary?.length && !route.schema.answer), `${where} shows an example`);
      if (route.schema.binary?.length) for (const media of route.schema.binary) assert.ok(op.responses[String(route.schema.status ?? 200)]?.content?.[media], `${where} declares its ${media} answer`);
      described.add(`${route.method.toLowerCase()} ${openApiPath(route.url).path}`);
    }
    // The document's other operations are the record operations of each table under its own path.
    const generic = new Set(routes.filter((x) => x.url.startsWith('/api/v1/models/:table')).map((x) => `${x.method.toLowerCase()} ${openApiPath(x.url).path}`));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (described.has(`${method} ${path}`)) continue;
        const table = /^models\/(.+)$/.exec(op.tags?.[0] ?? '')?.[1];
        assert.ok(table, `${method} ${path} has a route`);
        assert.ok(generic.has(`${method} ${path.replace(`/api/v1/models/${table}`, '/api/v1/models/{table}')}`), `${method} ${path} is a record operation of ${table}`);
      }
    }
  });

  it('declares the bodies of writes, and the file answers as files', async () => {
    const doc = (await fx.server.request('GET', '/api/v1/openapi.json')).body as Doc;
    const chunk = doc.paths['/api/v1/uploads/{uploadId}/chunks/{chunkOrder}']!.put!;
    assert.ok(chunk.requestBody?.content['application/octet-stream'], 'a chunk is sent as bytes');
    const chart = doc.paths['/api/v1/charts/{id}']!.get!;
    assert.deepEqual(Object.keys(chart.responses['200']!.content!).sort(), ['application/json', 'image/png']);
    assert.ok(doc.paths['/api/v1/auth/tokens']!.post!.requestBody!.content['application/json'], 'the login body');
  });
});

describe('route schemas: requests checked against them', () => {
  const fx = serverWithDemoRoles();
  const errorBody = (r: { status: number; body: unknown }, title: string, detail: string | RegExp) => {
    assert.equal(r.status, 400, JSON.stringify(r.body));
    const b = r.body as { title: string; status: number; detail: string };
    assert.deepEqual(Object.keys(b).sort(), ['detail', 'status', 'title']);
    assert.equal(b.title, title);
    assert.equal(b.status, 400);
    if (typeof detail === 'string') assert.equal(b.detail, detail);
    else assert.match(b.detail, detail);
  };

  it('answers a batch with an unknown transaction mode with the route error, and runs one in any case', async () => {
    for (const token of [fx.admin, fx.ws]) {
      errorBody(await fx.server.request('POST', '/api/v1/batch?transaction=maybe', { token, body: [] }), 'Invalid query', 'transaction must be true or false');
      errorBody(await fx.server.request('POST', '/api/v1/batch?transaction=true&transaction=false', { token, body: [] }), 'Invalid query', 'transaction must be true or false');
    }
    const ok = await fx.server.request('POST', '/api/v1/batch?transaction=FALSE', { token: fx.admin, body: [{ method: 'PUT', path: 'v1/models/c_bpartner/118', body: { Description: 'checked batch' } }] });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body[0].statusCode, 200, ok.text);
    const read = await fx.server.request('GET', '/api/v1/models/c_bpartner/118?$select=Description', { token: fx.admin });
    assert.equal(read.body.Description, 'checked batch');
  });

  it('answers a webhook delivery or endpoint id that is not a number with a 400 naming it, before any lookup', async () => {
    errorBody(await fx.server.request('POST', '/api/v1/webhooks/outbound/deliveries/abc/replay', { token: fx.admin }), 'Invalid id', 'Delivery id must be an integer: abc');
    errorBody(await fx.server.request('POST', '/api/v1/webhooks/outbound/endpoints/1x/test', { token: fx.admin }), 'Invalid id', 'Endpoint id must be an integer: 1x');
    errorBody(await fx.server.request('POST', '/api/v1/webhooks/outbound/endpoints/-1/replay', { token: fx.admin, body: { since: '2000-01-01' } }), 'Invalid id', 'Endpoint id must be an integer: -1');
    // A well-formed id goes on to the route: no such endpoint.
    const missing = await fx.server.request('POST', '/api/v1/webhooks/outbound/endpoints/999999999/test', { token: fx.admin });
    assert.equal(missing.status, 404, missing.text);
    // Without a token the answer is still a 401: the check comes after authentication.
    assert.equal((await fx.server.request('POST', '/api/v1/webhooks/outbound/deliveries/abc/replay')).status, 401);
  });

  it('checks the authentication bodies and queries with the error body', async () => {
    errorBody(await fx.server.request('POST', '/api/v1/auth/tokens', { body: { password: 'x' } }), 'Bad Request', 'userName is required');
    errorBody(await fx.server.request('POST', '/api/v1/auth/tokens', { raw: '[1]' }), 'Bad Request', /JSON object/);
    errorBody(await fx.server.request('POST', '/api/v1/auth/password-reset/request', { body: { email: 42 } }), 'Bad Request', 'email is required: a non-blank e-mail address of at most 254 characters');
    errorBody(await fx.server.request('GET', '/api/v1/auth/roles?client=11&client=12', { token: fx.admin }), 'Bad Request', /client/);
    // Nulls read as absent; an absent logout body is an empty one.
    const roles = await fx.server.request('GET', '/api/v1/auth/roles?client=11', { token: fx.admin });
    assert.equal(roles.status, 200, roles.text);
    const out = await fx.server.request('POST', '/api/v1/auth/logout', { token: fx.ws });
    assert.equal(out.status, 200, out.text);
  });
});
