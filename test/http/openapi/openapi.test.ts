import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, Record<string, unknown>>; parameters: Record<string, unknown>; responses: Record<string, unknown>; headers: Record<string, unknown> } };

describe('OpenAPI description of the API', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let doc: Doc;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  /** A parameter or response as written, or the component its `$ref` names. */
  const resolve = <T>(x: unknown): T => {
    const r = (x as { $ref?: string }).$ref;
    if (!r) return x as T;
    const [, , kind, name] = r.split('/') as [string, string, 'parameters' | 'responses' | 'headers', string];
    return doc.components[kind][name] as T;
  };

  /** Checks a real response body against a component schema; `strict` refuses keys the schema does not name. */
  const check = (schemaName: string, body: unknown, strict = false) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemas = structuredClone(doc.components.schemas);
    if (strict) schemas[schemaName] = { ...schemas[schemaName], additionalProperties: false };
    for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const validate = ajv.compile({ $ref: `#/components/schemas/${schemaName}` });
    assert.ok(validate(body), `${schemaName}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  };

  before(async () => {
    server = await startTestServer();
    ({ admin, user } = await demoRoleTokens(server));
    const r = await as(admin, 'GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200, r.text);
    doc = r.body;
  });
  after(async () => {
    await server.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(doc) as never);
    assert.equal(v.version, '3.1');
    assert.ok(res.valid, String(JSON.stringify(res.errors)).slice(0, 2000));
  });

  it('describes every route the server serves, with parameters, statuses and the error body', async () => {
    for (const p of ['/api/v1/models/{table}', '/api/v1/windows/{window}/tabs/{tab}/{id}/{child}', '/api/v1/views/{view}/{id}/{property}', '/api/v1/menutree/{treeId}', '/api/v1/forms', '/api/v1/batch', '/api/v1/auth/tokens', '/api/v1/health']) {
      assert.ok(doc.paths[p], `${p} is described`);
    }
    const create = doc.paths['/api/v1/models/{table}']!.post!;
    assert.ok(create.responses['201'] && create.responses['400'] && create.responses['403']);
    assert.deepEqual(create.responses['400'], { $ref: '#/components/responses/BadRequest' });
    assert.deepEqual(resolve<{ content: Record<string, { schema: unknown }> }>(create.responses['400']).content['application/json']!.schema, { $ref: '#/components/schemas/ErrorBody' });
    const list = doc.paths['/api/v1/models/{table}']!.get as unknown as { parameters: unknown[] };
    const query = list.parameters.map((x) => resolve<{ name: string; in: string; schema: { type?: string } }>(x)).filter((x) => x.in === 'query');
    assert.deepEqual(query.map((x) => x.name).sort(), ['$context', '$expand', '$filter', '$orderby', '$report_type', '$rowcount', '$select', '$skip', '$top', '$valrule', 'label', 'locale', 'showlabel', 'showsql']);
    assert.equal(query.find((x) => x.name === '$top')!.schema.type, 'integer');
    assert.equal(query.find((x) => x.name === '$skip')!.schema.type, 'integer');
    const health = doc.paths['/api/v1/health']!.get as unknown as { security: unknown[]; responses: Record<string, unknown> };
    assert.deepEqual(health.security, [], 'public routes need no token');
    assert.equal(health.responses['401'], undefined);
  });

  it('holds a schema per table and view the role may see', async () => {
    assert.ok(doc.components.schemas.C_BPartner);
    assert.equal(doc.components.schemas.AD_Table, undefined, 'a System table the tenant administrator cannot read');
    assert.ok(doc.components.schemas.AD_User);
    assert.ok(doc.components.schemas['view.users']);
    const u = await as(user, 'GET', '/api/v1/openapi.json');
    assert.equal(u.status, 200);
    assert.ok(Object.keys(u.body.components.schemas).length <= Object.keys(doc.components.schemas).length);
    const sys = await as(user, 'GET', '/api/v1/models');
    const readable = new Set(sys.body.models.map((m: { 'model-name': string }) => m['model-name']));
    for (const name of Object.keys(u.body.components.schemas)) {
      const s = u.body.components.schemas[name];
      const modelName = s.properties?.['model-name']?.const;
      if (modelName && !name.startsWith('view.') && !['ListValue', 'Image'].includes(name)) assert.ok(readable.has(modelName), `${name} is readable by the role`);
    }
  });

  it('is public: without a token (or with an unusable one) it describes every table and no client view', async () => {
    const anon = await server.request('GET', '/api/v1/openapi.json');
    assert.equal(anon.status, 200);
    assert.ok(anon.body.components.schemas.AD_Table, 'System tables are described to the public');
    assert.equal(anon.body.components.schemas['view.users'], undefined, 'REST views belong to a client');
    for (const token of ['x.y.z', admin.slice(0, -4) + 'AAAA']) {
      const r = await server.request('GET', '/api/v1/openapi.json', { headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200, 'a broken or expired token does not refuse the document');
      assert.ok(r.body.components.schemas.AD_Table);
    }
    const out = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11 } } });
    await as(out.body.token, 'POST', '/api/v1/auth/logout', { token: out.body.token });
    const ended = await as(out.body.token, 'GET', '/api/v1/openapi.json');
    assert.equal(ended.status, 200);
    assert.ok(ended.body.components.schemas.AD_Table, 'the token of an ended session counts as none');
  });

  it('names a summary and an example on every operation, and the success answer of each', () => {
    const missing: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops) as [string, Record<string, any>][]) {
        const at = `${m.toUpperCase()} ${p}`;
        if (!op.summary || op.summary === `${m.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`) missing.push(`${at}: summary`);
        const media = (c: Record<string, { example?: unknown }> | undefined) => Object.values(c ?? {});
        const success = Object.entries(op.responses).find(([st]) => /^[23]/.test(st))![1] as { content?: Record<string, { example?: unknown; schema: Record<string, unknown> }>; headers?: Record<string, { example?: unknown }> };
        const params = (op.parameters ?? []).map((x: unknown) => resolve<{ example?: unknown }>(x));
        const examples = [...media(op.requestBody?.content), ...media(success.content), ...media(success.headers), ...params].some((x) => x.example !== undefined);
        if (!examples) missing.push(`${at}: example`);
        const json = success.content?.['application/json']?.schema;
        if (json && json.type === 'object' && json.additionalProperties === true && !json.properties) missing.push(`${at}: untyped answer`);
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (body && body.type === 'object' && !body.properties) missing.push(`${at}: untyped body`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('gives each table its record operations, typed by the table schema', () => {
    const one = doc.paths['/api/v1/models/c_bpartner/{id}']!;
    for (const m of ['get', 'put', 'delete']) assert.ok(one[m], m);
    const get = one.get as unknown as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    assert.deepEqual(get.responses['200']!.content['application/json']!.schema, { $ref: '#/components/schemas/C_BPartner' });
    const put = one.put as unknown as { requestBody: { content: Record<string, { schema: unknown }> } };
    assert.deepEqual(put.requestBody.content['application/json']!.schema, { $ref: '#/components/schemas/C_BPartner' });
    const list = doc.paths['/api/v1/models/c_bpartner']!.get as unknown as { responses: Record<string, { content: Record<string, { schema: { properties: { records: { items: unknown } } } }> }> };
    assert.deepEqual(list.responses['200']!.content['application/json']!.schema.properties.records.items, { $ref: '#/components/schemas/C_BPartner' });
    assert.ok(doc.paths['/api/v1/models/c_bpartner']!.post);
    for (const [p, ops] of Object.entries(doc.paths)) {
      const m = /^\/api\/v1\/models\/([a-z0-9_]+)(\/\{id\})?$/.exec(p);
      if (!m) continue;
      const refs = JSON.stringify(ops);
      assert.ok(Object.values(doc.components.schemas).some((s) => (s.properties as Record<string, { const?: string }> | undefined)?.['model-name']?.const?.toLowerCase() === m[1] && refs.includes(`"#/components/schemas/${String(s.title ? Object.keys(doc.components.schemas).find((k) => doc.components.schemas[k] === s) : '')}"`)), `${p} names its table's schema`);
    }
    assert.equal(doc.paths['/api/v1/models/ad_table'], undefined, 'not for tables the role cannot read');
  });

  it('types the login body and answer, and declares binary answers with their media types', () => {
    const login = doc.paths['/api/v1/auth/tokens']!.post as unknown as { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    assert.deepEqual(login.requestBody.content['application/json']!.schema, { $ref: '#/components/schemas/LoginRequest' });
    const body = doc.components.schemas.LoginRequest as { required: string[]; properties: Record<string, unknown> };
    assert.deepEqual(body.required.sort(), ['password', 'userName']);
    assert.ok(body.properties.parameters);
    assert.deepEqual(login.responses['200']!.content['application/json']!.schema, { $ref: '#/components/schemas/LoginAnswer' });
    const media = (p: string, m = 'get') => Object.keys((doc.paths[p]![m] as unknown as { responses: Record<string, { content?: Record<string, unknown> }> }).responses['200']!.content ?? {});
    assert.ok(media('/api/v1/charts/{id}').includes('image/png'));
    assert.ok(media('/api/v1/models/{table}/{id}/attachments/zip').includes('application/zip'));
    assert.ok(media('/api/v1/models/{table}/{id}/attachments/{fileName}').includes('application/octet-stream'));
    assert.ok(media('/api/v1/uploads/{uploadId}/file').includes('application/octet-stream'));
    assert.deepEqual(media('/api/v1/models/{table}/yaml'), ['application/yaml']);
    const chunk = doc.paths['/api/v1/uploads/{uploadId}/chunks/{chunkOrder}']!.put as unknown as { requestBody: { content: Record<string, unknown> } };
    assert.deepEqual(Object.keys(chunk.requestBody.content), ['application/octet-stream']);
  });

  it('declares the answers the operations give', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const templates = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/[.$]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`), concrete: !p.includes('{') }));
    /** The operation's declared JSON answer for the status, preferring a table's own path to the template. */
    const declared = (method: string, url: string, status: number) => {
      const bare = url.split('?')[0]!;
      const t = templates.filter((x) => x.re.test(bare) && doc.paths[x.p]![method]).sort((a, b) => Number(b.concrete) - Number(a.concrete) || b.p.length - a.p.length)[0];
      assert.ok(t, `${method} ${bare} is described`);
      const r = resolve<{ content?: Record<string, { schema: unknown }> }>(doc.paths[t.p]![method]!.responses[String(status)]);
      assert.ok(r, `${method} ${t.p} declares ${status}`);
      return { path: t.p, schema: r.content?.['application/json']?.schema };
    };
    const slug = (await as(admin, 'GET', '/api/v1/processes')).body.processes[0].slug as string;
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/auth/jwk'],
      ['GET', '/api/v1/health'],
      ['GET', '/api/v1/models'],
      ['GET', '/api/v1/models/c_bpartner?$top=2'],
      ['GET', '/api/v1/models/c_order/102'],
      ['GET', '/api/v1/models/c_order/102/DocumentNo'],
      ['GET', '/api/v1/processes'],
      ['GET', `/api/v1/processes/${slug}`],
      ['GET', '/api/v1/processes/jobs'],
      ['GET', '/api/v1/models/c_order/102/attachments'],
      ['GET', '/api/v1/models/c_order/102/archives'],
      ['GET', '/api/v1/models/c_order/102/print'],
      ['GET', '/api/v1/uploads'],
      ['GET', '/api/v1/workflow'],
      ['GET', '/api/v1/infos'],
      ['GET', '/api/v1/statuslines'],
      ['GET', '/api/v1/charts/data'],
      ['GET', '/api/v1/windows'],
      ['GET', '/api/v1/windows/sales-order/tabs'],
      ['GET', '/api/v1/windows/sales-order'],
      ['GET', '/api/v1/windows/sales-order/102'],
      ['GET', '/api/v1/forms'],
      ['GET', '/api/v1/menutree/10'],
      ['GET', '/api/v1/views'],
      ['GET', '/api/v1/views/users'],
      ['GET', '/api/v1/caches'],
      ['DELETE', '/api/v1/caches'],
      ['GET', '/api/v1/servers'],
      ['GET', '/api/v1/auth/organizations?client=11&role=102'],
      ['GET', '/api/v1/auth/warehouses?client=11&role=102&organization=11'],
      ['PUT', '/api/v1/models/c_bpartner/118', { Description: 'checked against its schema' }],
      ['POST', '/api/v1/models/c_bpartner', { Name: 'Schema Check', Value: 'SCHEMA-CHECK' }],
      ['POST', '/api/v1/batch', [{ method: 'PUT', path: 'v1/models/c_bpartner/118', body: { Description: 'in a batch' } }]],
    ];
    const problems: string[] = [];
    for (const [method, url, body] of calls) {
      const r = await as(admin, method, url, body);
      const { path, schema } = declared(method.toLowerCase(), url, r.status);
      if (!schema) {
        problems.push(`${method} ${url}: ${r.status} declares no JSON answer`);
        continue;
      }
      const validate = ajv.compile(schema as object);
      if (!validate(r.body)) problems.push(`${method} ${url} (${path}): ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    const made = await as(admin, 'POST', '/api/v1/models/c_bpartner', { Name: 'Deleted Soon', Value: 'DELETED-SOON' });
    const gone = await as(admin, 'DELETE', `/api/v1/models/c_bpartner/${String(made.body.id)}`);
    const del = declared('delete', `/api/v1/models/c_bpartner/${String(made.body.id)}`, gone.status);
    assert.equal(del.path, '/api/v1/models/c_bpartner/{id}');
    assert.deepEqual(del.schema, { $ref: '#/components/schemas/Deleted' }, 'a delete answers its confirmation, not the record');
    if (!ajv.compile(del.schema as object)(gone.body)) problems.push(`DELETE on the table's own path: ${JSON.stringify(gone.body)}`);
    assert.deepEqual(problems, []);
  });

  it('declares the concurrency headers: ETag, If-None-Match, If-Match and Idempotency-Key, with their answers', async () => {
    type Op = { parameters: unknown[]; responses: Record<string, unknown> };
    const headersOf = (op: Op) => op.parameters.map((x) => resolve<{ name: string; in: string }>(x)).filter((x) => x.in === 'header').map((x) => x.name).sort();
    const answerHeaders = (op: Op, status: string) => Object.keys(resolve<{ headers?: Record<string, unknown> }>(op.responses[status]).headers ?? {}).sort();
    const expected: [string, string, string[], string[], string][] = [
      // path, method, header parameters, statuses, success status
      ['/api/v1/models/{table}/{id}', 'get', ['If-None-Match'], ['304'], '200'],
      ['/api/v1/models/c_bpartner/{id}', 'get', ['If-None-Match'], ['304'], '200'],
      ['/api/v1/models/{table}/{id}', 'put', ['Idempotency-Key', 'If-Match'], ['409', '412', '422'], '200'],
      ['/api/v1/models/c_order/{id}', 'put', ['Idempotency-Key', 'If-Match'], ['409', '412', '422'], '200'],
      ['/api/v1/models/{table}/{id}', 'delete', ['If-Match'], ['412'], '200'],
      ['/api/v1/models/{table}', 'post', ['Idempotency-Key'], ['409', '422'], '201'],
      ['/api/v1/models/c_bpartner', 'post', ['Idempotency-Key'], ['409', '422'], '201'],
      ['/api/v1/batch', 'post', ['Idempotency-Key'], ['409', '422'], '200'],
      ['/api/v1/processes/{slug}', 'post', ['Idempotency-Key', 'If-Match'], ['409', '412', '422'], '200'],
      ['/api/v1/processes/jobs/{slug}', 'post', ['Idempotency-Key', 'If-Match'], ['409', '412', '422'], '202'],
    ];
    for (const [path, method, params, statuses, ok] of expected) {
      const op = doc.paths[path]?.[method] as unknown as Op;
      assert.ok(op, `${method} ${path} is described`);
      assert.deepEqual(headersOf(op), params, `${method} ${path} header parameters`);
      for (const s of statuses) assert.ok(op.responses[s], `${method} ${path} declares ${s}`);
      assert.ok(op.responses[ok], `${method} ${path} declares ${ok}`);
      const shown = answerHeaders(op, ok);
      if (method === 'get' || method === 'put') assert.ok(shown.includes('ETag'), `${method} ${path} answers an ETag`);
      if (params.includes('Idempotency-Key')) assert.ok(shown.includes('Idempotent-Replayed'), `${method} ${path} answers Idempotent-Replayed`);
    }
    assert.deepEqual(headersOf(doc.paths['/api/v1/models/{table}']!.get as unknown as Op), [], 'a list takes none of them');
    assert.equal(resolve<{ description: string }>(doc.paths['/api/v1/batch']!.post!.responses['422']).description.includes('Idempotency-Key'), true);

    // The declared headers are the ones the server answers.
    const read = await server.request('GET', '/api/v1/models/c_bpartner/118', { token: admin });
    const tag = read.headers.get('etag');
    assert.ok(tag, 'a single read answers an ETag');
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner/118', { token: admin, headers: { 'If-None-Match': tag } })).status, 304);
    const stale = await server.request('PUT', '/api/v1/models/c_bpartner/118', { token: admin, headers: { 'If-Match': 'W/"1.1"' }, body: { Description: 'stale' } });
    assert.equal(stale.status, 412, stale.text);
    const key = `openapi-${Date.now()}`;
    const create = () => server.request('POST', '/api/v1/models/c_bpartner', { token: admin, headers: { 'Idempotency-Key': key }, body: { Name: `Idempotent ${key}`, Value: key } });
    const first = await create();
    assert.equal(first.status, 201, first.text);
    const again = await create();
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await server.request('POST', '/api/v1/models/c_bpartner', { token: admin, headers: { 'Idempotency-Key': key }, body: { Name: 'Another body', Value: `${key}-2` } });
    assert.equal(other.status, 422, other.text);
  });

  it('matches real responses', async () => {
    const list = await as(admin, 'GET', '/api/v1/models/c_bpartner?$top=5');
    check('Records', list.body);
    for (const rec of list.body.records) check('C_BPartner', rec, true);
    const one = await as(admin, 'GET', '/api/v1/models/c_order/102');
    check('C_Order', one.body, true);
    const view = await as(admin, 'GET', '/api/v1/views/users/102');
    check('view.users', view.body, true);
    const window = await as(admin, 'GET', '/api/v1/windows/bank-cash');
    check('WindowRecords', window.body);
    const missing = await as(admin, 'GET', '/api/v1/models/c_bpartner/99999');
    assert.equal(missing.status, 404);
    check('ErrorBody', missing.body, true);
    const bad = await as(admin, 'GET', '/api/v1/models/c_bpartner?$filter=x');
    check('ErrorBody', bad.body, true);
    const deleted = await as(admin, 'DELETE', '/api/v1/models/m_product/144');
    check('Deleted', deleted.body, true);
    const login = await server.request('POST', '/api/v1/auth/tokens', { body: { userName: 'GardenAdmin', password: 'GardenAdmin' } });
    check('LoginAnswer', login.body, true);
    const full = await server.request('PUT', '/api/v1/auth/tokens', { token: login.body.token, body: { clientId: 11, roleId: 102, organizationId: 11 } });
    check('LoginAnswer', full.body, true);
    const refreshed = await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: full.body.refresh_token } });
    check('TokenPair', refreshed.body, true);
    const print = await as(admin, 'GET', '/api/v1/models/c_order/102/print');
    check('ProcessInfo', print.body);
  });

  it('answers a table or view description in YAML, as the original does', async () => {
    const r = await as(admin, 'GET', '/api/v1/models/ad_user/yaml');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /yaml/);
    const y = parse(r.text);
    assert.equal(y.openapi, '3.1.0');
    assert.ok(y.components.schemas.AD_User.properties.Name);
    assert.equal(y.components.schemas.AD_User.properties.Password, undefined, 'secure columns are not described');
    assert.ok(y.paths['/api/v1/models/ad_user/{id}'].put);
    const v = new Validator();
    assert.ok((await v.validate(y)).valid);
    const view = await as(admin, 'GET', '/api/v1/views/users/yaml');
    assert.equal(view.status, 200);
    const vy = parse(view.text);
    assert.ok(vy.components.schemas['view.users'].properties.contact.properties.phone);
    assert.ok(vy.components.schemas['view.businessPartners'], 'the reference view is described too');
    const none = await as(admin, 'GET', '/api/v1/models/nope/yaml');
    assert.equal(none.status, 404);
    const denied = await as(user, 'GET', '/api/v1/models/ad_table/yaml');
    const models = await as(user, 'GET', '/api/v1/models/ad_table');
    assert.equal(denied.status, models.status, 'the same access as the records');
  });

  it('renders the same description as OpenAPI 3.0.3 on ?openapi=3.0, which the documentation page reads', async () => {
    const keys = (d: Doc) => Object.entries(d.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    const has = (value: unknown, key: string): boolean =>
      Array.isArray(value) ? value.some((v) => has(v, key)) : value !== null && typeof value === 'object' ? Object.entries(value).some(([k, v]) => k === key || has(v, key)) : false;
    for (const token of [admin, undefined]) {
      const full = token ? doc : (await server.request('GET', '/api/v1/openapi.json')).body;
      const r = await server.request('GET', '/api/v1/openapi.json?openapi=3.0', { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.openapi, '3.0.3');
      const v = new Validator();
      const res = await v.validate(structuredClone(r.body) as never);
      assert.equal(v.version, '3.0');
      assert.ok(res.valid, String(JSON.stringify(res.errors)).slice(0, 2000));
      assert.deepEqual(keys(r.body), keys(full), 'the same operations');
      assert.deepEqual(Object.keys(r.body.components.schemas).sort(), Object.keys(full.components.schemas).sort(), 'the same schemas');
      assert.ok(has(full, 'const') && !has(r.body, 'const'), 'const as a one-value enum');
      assert.ok(!has(r.body, 'contentEncoding') && !has(r.body, 'patternProperties'));
    }
    const explicit = await server.request('GET', '/api/v1/openapi.json?openapi=3.1', { token: admin });
    assert.equal(explicit.body.openapi, '3.1.0');
    const bad = await server.request('GET', '/api/v1/openapi.json?openapi=2.0');
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body).sort(), ['detail', 'status', 'title']);
  });

  it('serves the interactive documentation page, under both paths and from /', async () => {
    const page = await server.request('GET', '/api/v1/docs');
    assert.equal(page.status, 200);
    assert.match(page.text, /swagger-ui-bundle\.js/);
    // The login form's script (built with the web console) opens the document in Swagger UI.
    assert.match(page.text, /src="\/api\/v1\/docs\/login\.js"/);
    const login = await server.request('GET', '/api/v1/docs/login.js');
    assert.equal(login.headers.get('content-type'), 'application/javascript; charset=utf-8');
    assert.equal(login.headers.get('cache-control'), 'no-cache');
    assert.match(login.text, /SwaggerUIBundle/);
    assert.match(login.text, /openapi\.json/);
    const slash = await server.request('GET', '/api/v1/docs/');
    assert.equal(slash.status, 200);
    assert.equal(slash.text, page.text);
    for (const m of page.text.matchAll(/(?:href|src)="([^"]+)"/g)) {
      const asset = await fetch(new URL(m[1]!, `${server.url}/api/v1/docs/`));
      assert.equal(asset.status, 200, `${m[1]} from the page with a trailing slash`);
      assert.equal((await fetch(new URL(m[1]!, `${server.url}/api/v1/docs`))).status, 200, `${m[1]} from the page without it`);
      await asset.arrayBuffer();
    }
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/api/v1/docs');
    const js = await server.request('GET', '/api/v1/docs/swagger-ui-bundle.js');
    assert.equal(js.status, 200);
    assert.ok(js.text.length > 100_000);
    const other = await server.request('GET', '/api/v1/docs/..%2Fpackage.json');
    assert.equal(other.status, 404);
  });
});
