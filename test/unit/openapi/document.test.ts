import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openApiPath, operation, tableOperations } from '../../../src/openapi/document.js';
import type { FastifySchema } from 'fastify';
import type { Table } from '../../../src/dictionary/model.js';
import { ref } from '../../../src/openapi/answer-schemas.js';

describe('OpenAPI operations from routes', () => {
  it('turns route parameters into path templates', () => {
    assert.deepEqual(openApiPath('/api/v1/windows/:window/tabs/:tab/:id'), { path: '/api/v1/windows/{window}/tabs/{tab}/{id}', params: ['window', 'tab', 'id'] });
    assert.deepEqual(openApiPath('/api/v1/forms'), { path: '/api/v1/forms', params: [] });
    assert.deepEqual(openApiPath('/console/*'), { path: '/console/{path}', params: ['path'] });
  });
  it('lists path and query parameters, the success status and the error statuses', () => {
    const op = operation({ method: 'POST', url: '/api/v1/models/:table', public: false }, { summary: 'Create', status: 201, queryNames: ['x'] }) as {
      parameters: { name?: string; in?: string; $ref?: string }[];
      responses: Record<string, unknown>;
      operationId: string;
      tags: string[];
    };
    // A create can be retried: it takes an Idempotency-Key and answers 409 and 422 for it.
    assert.deepEqual(op.parameters.map((p) => p.$ref ?? `${p.in}:${p.name}`), ['#/components/parameters/path-table', 'query:x', '#/components/parameters/header-Idempotency-Key']);
    assert.deepEqual(Object.keys(op.responses).sort(), ['201', '400', '401', '403', '404', '409', '422', '500']);
    assert.equal(op.operationId, 'postApiV1ModelsTable');
    assert.deepEqual(op.tags, ['models']);
    const pub = operation({ method: 'GET', url: '/api/v1/health', public: true }, undefined) as { responses: Record<string, unknown>; security: unknown[] };
    assert.deepEqual(Object.keys(pub.responses).sort(), ['200', '400', '404', '500']);
    assert.deepEqual(pub.security, []);
    assert.equal((pub as unknown as { summary: string }).summary, 'GET /api/v1/health', 'an operation without facts is still named');
  });
});

describe('record operations of one table', () => {
  // The routes as registered, with what they declare of themselves.
  const record = ref('Record');
  const declared: Record<string, FastifySchema> = {
    'GET /api/v1/models/:table': { summary: 'Records of a table', answer: ref('Records') },
    'POST /api/v1/models/:table': { summary: 'Create a record', status: 201, body: record, answer: record },
    'GET /api/v1/models/:table/:id': { summary: 'One record', answer: record },
    'PUT /api/v1/models/:table/:id': { summary: 'Update a record', body: record, answer: record },
    'DELETE /api/v1/models/:table/:id': { summary: 'Delete a record', answer: ref('Deleted'), example: { msg: 'Deleted' } },
    'GET /api/v1/models/:table/:id/:property': { summary: 'One column of a record', answer: record },
  };
  const routes = Object.entries(declared).map(([r, schema]) => {
    const [method, url] = r.split(' ') as [string, string];
    return { method, url, public: false, schema };
  });
  const schema = { type: 'object', properties: { Description: { type: 'string' }, Created: { type: 'string', readOnly: true } } };
  type Op = { operationId: string; requestBody?: { content: Record<string, { schema: unknown; example: unknown }> }; responses: Record<string, { content?: Record<string, { schema: any }> }> };

  it('get paths of their own naming the table schema, with unique operation ids', () => {
    // As the document is sent: TypeBox marks its schemas with symbol keys that JSON leaves out.
    const paths = JSON.parse(JSON.stringify(tableOperations({ name: 'C_Order', modelName: 'C_Order', label: 'Order', isView: false } as Table, schema, routes))) as Record<string, Record<string, Op>>;
    assert.deepEqual(Object.keys(paths).sort(), ['/api/v1/models/c_order', '/api/v1/models/c_order/{id}']);
    assert.deepEqual(Object.keys(paths['/api/v1/models/c_order']!).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(paths['/api/v1/models/c_order/{id}']!).sort(), ['delete', 'get', 'put']);
    const ref = { $ref: '#/components/schemas/C_Order' };
    const post = paths['/api/v1/models/c_order']!.post!;
    assert.deepEqual(post.requestBody!.content['application/json']!.schema, ref);
    assert.deepEqual(post.requestBody!.content['application/json']!.example, { Description: 'Example description' });
    assert.deepEqual(post.responses['201']!.content!['application/json']!.schema, ref);
    assert.deepEqual(paths['/api/v1/models/c_order']!.get!.responses['200']!.content!['application/json']!.schema.properties.records.items, ref);
    assert.deepEqual(paths['/api/v1/models/c_order/{id}']!.delete!.responses['200']!.content!['application/json']!.schema, { $ref: '#/components/schemas/Deleted' });
    const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    assert.equal(new Set(ids).size, 5);
  });

  it('are only reads for a database view', () => {
    const paths = tableOperations({ name: 'RV_Order', modelName: 'RV_Order', label: 'Orders', isView: true } as Table, schema, routes) as Record<string, Record<string, Op>>;
    assert.deepEqual(Object.values(paths).flatMap((ops) => Object.keys(ops)), ['get', 'get']);
  });
});
