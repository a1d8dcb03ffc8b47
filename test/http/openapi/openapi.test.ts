import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, Record<string, unknown>> } };

describe('OpenAPI description of the API', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let doc: Doc;
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

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
    assert.deepEqual((create.responses['400'] as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema, { $ref: '#/components/schemas/ErrorBody' });
    const list = doc.paths['/api/v1/models/{table}']!.get as unknown as { parameters: { name: string; in: string }[] };
    assert.deepEqual(list.parameters.filter((x) => x.in === 'query').map((x) => x.name).sort(), ['$context', '$expand', '$filter', '$orderby', '$select', '$skip', '$top', '$valrule', 'label', 'showlabel', 'showsql']);
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
    const anon = await server.request('GET', '/api/v1/openapi.json');
    assert.equal(anon.status, 401);
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

  it('serves the interactive documentation page', async () => {
    const page = await server.request('GET', '/api/v1/docs');
    assert.equal(page.status, 200);
    assert.match(page.text, /SwaggerUIBundle/);
    assert.match(page.text, /openapi\.json/);
    const js = await server.request('GET', '/api/v1/docs/swagger-ui-bundle.js');
    assert.equal(js.status, 200);
    assert.ok(js.text.length > 100_000);
    const other = await server.request('GET', '/api/v1/docs/..%2Fpackage.json');
    assert.equal(other.status, 404);
  });
});
