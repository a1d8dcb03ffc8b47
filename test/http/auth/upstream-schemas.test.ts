import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ADMIN, FULL } from './auth-helpers.js';

type Schema = Record<string, any>;

const idName = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } };
/**
 * The 200 response schemas of these operations, the same in both upstream documents
 * (idempiere-rest.yml and its PR 505 version), without their descriptions and examples.
 */
const UPSTREAM: Record<string, Schema> = {
  '/auth/tokens': {
    type: 'object',
    properties: {
      clients: { type: 'array', items: { properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
      userId: { type: 'integer' },
      language: { type: 'string' },
      menuTreeId: { type: 'integer' },
      token: { type: 'string' },
      refresh_token: { type: 'string' },
    },
  },
  '/auth/roles': { type: 'object', properties: { roles: idName } },
  '/auth/organizations': { type: 'object', properties: { organizations: idName } },
  '/auth/warehouses': { type: 'object', properties: { warehouses: idName } },
  '/auth/language': { type: 'object', properties: { AD_Language: { type: 'string' } } },
  '/auth/refresh': { type: 'object', properties: { token: { type: 'string' }, refresh_token: { type: 'string' } } },
  '/auth/logout': { type: 'object', properties: { summary: { type: 'string' } } },
  '/auth/jwk': {
    type: 'object',
    properties: {
      keys: {
        type: 'array',
        items: { type: 'object', properties: { alg: { type: 'string' }, k: { type: 'string' }, kid: { type: 'string' }, kty: { type: 'string', enum: ['oct', 'RSA', 'EC'] } } },
      },
    },
  },
  '/models': {
    type: 'object',
    properties: {
      models: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'integer' }, uid: { type: 'string', format: 'uuid' }, 'model-name': { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
        },
      },
    },
  },
};

/**
 * An upstream response schema as a JSON Schema that also demands every property it documents (the
 * documents list no `required` at all), less the ones named optional: those the original itself
 * leaves out in the answer at hand.
 */
function demandAll(schema: Schema, optional: ReadonlySet<string>): Schema {
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, demandAll(v as Schema, optional)]));
    out.required = Object.keys(schema.properties).filter((p) => !optional.has(p));
  }
  if (schema.items) out.items = demandAll(schema.items, optional);
  return out;
}

/**
 * The answers of the authentication operations and of GET /models against the response schemas of
 * both upstream OpenAPI documents: the documented status and every documented property.
 */
describe('auth and model list answers against the upstream OpenAPI documents', () => {
  let server: TestServer;
  /** Checks an answer against the operation's 200 schema, demanding every documented property but `optional`. */
  const conforms = (path: string, body: unknown, optional: string[] = []) => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    const validate = ajv.compile(demandAll(UPSTREAM[path]!, new Set(optional)));
    assert.ok(validate(body), `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(body).slice(0, 300)}`);
  };
  /** The login answers the document merges into one object: the first step's, or the full login's. */
  const FIRST_STEP_LEAVES_OUT = ['userId', 'language', 'menuTreeId', 'refresh_token'];
  const FULL_LOGIN_LEAVES_OUT = ['clients'];

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('POST and PUT /auth/tokens, the lookups, refresh and logout', async () => {
    const first = await server.request('POST', '/api/v1/auth/tokens', { body: ADMIN });
    assert.equal(first.status, 200, first.text);
    conforms('/auth/tokens', first.body, FIRST_STEP_LEAVES_OUT);
    const step = first.body.token as string;
    for (const [path, query] of [
      ['/auth/roles', 'client=11'],
      ['/auth/organizations', 'client=11&role=102'],
      ['/auth/warehouses', 'client=11&role=102&organization=11'],
      ['/auth/language', 'client=11'],
    ] as const) {
      const r = await server.request('GET', `/api/v1${path}?${query}`, { token: step });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      conforms(path, r.body);
    }
    const put = await server.request('PUT', '/api/v1/auth/tokens', { token: step, body: { ...FULL, language: 'it_IT' } });
    assert.equal(put.status, 200, put.text);
    conforms('/auth/tokens', put.body, FULL_LOGIN_LEAVES_OUT);
    for (const parameters of [FULL, { clientId: 'GardenWorld', roleId: 'GardenWorld Admin', organizationId: 'HQ', warehouseId: 'HQ Warehouse', language: 'en_US' }, { roleId: 'GardenWorld Admin', organizationId: 'HQ' }]) {
      const one = await server.request('POST', '/api/v1/auth/tokens', { body: { ...ADMIN, parameters } });
      assert.equal(one.status, 200, one.text);
      conforms('/auth/tokens', one.body, FULL_LOGIN_LEAVES_OUT);
    }
    const refreshed = await server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: put.body.refresh_token, clientId: 11, userId: put.body.userId } });
    assert.equal(refreshed.status, 200, refreshed.text);
    conforms('/auth/refresh', refreshed.body);
    const models = await server.request('GET', `/api/v1/models?$filter=${encodeURIComponent("startswith(TableName,'AD_')")}`, { token: refreshed.body.token });
    assert.equal(models.status, 200, models.text);
    assert.ok(models.body.models.length > 10);
    const described = models.body.models.filter((m: { description?: string }) => m.description);
    const undescribed = models.body.models.filter((m: { description?: string }) => !m.description);
    conforms('/models', { models: described });
    conforms('/models', { models: undescribed }, ['description']);
    const logout = await server.request('POST', '/api/v1/auth/logout', { body: { token: refreshed.body.token } });
    assert.equal(logout.status, 200, logout.text);
    conforms('/auth/logout', logout.body);
  });

  it('GET /auth/jwk: the key set, public keys only (ES256 keys have no k, a deliberate deviation)', async () => {
    const r = await server.request('GET', '/api/v1/auth/jwk');
    assert.equal(r.status, 200, r.text);
    conforms('/auth/jwk', r.body, ['k']);
    for (const key of r.body.keys) {
      assert.equal(key.kty, 'EC');
      assert.ok(!('d' in key) && !('k' in key), 'no private or shared secret part');
    }
  });
});
