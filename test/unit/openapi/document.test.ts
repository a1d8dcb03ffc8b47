import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openApiPath, operation } from '../../../src/openapi/document.js';

describe('OpenAPI operations from routes', () => {
  it('turns route parameters into path templates', () => {
    assert.deepEqual(openApiPath('/api/v1/windows/:window/tabs/:tab/:id'), { path: '/api/v1/windows/{window}/tabs/{tab}/{id}', params: ['window', 'tab', 'id'] });
    assert.deepEqual(openApiPath('/api/v1/forms'), { path: '/api/v1/forms', params: [] });
  });
  it('lists path and query parameters, the success status and the error statuses', () => {
    const op = operation({ method: 'POST', url: '/api/v1/models/:table', public: false }, { summary: 'Create', status: 201, query: ['x'] }) as {
      parameters: { name?: string; in?: string; $ref?: string }[];
      responses: Record<string, unknown>;
      operationId: string;
      tags: string[];
    };
    assert.deepEqual(op.parameters.map((p) => p.$ref ?? `${p.in}:${p.name}`), ['#/components/parameters/path-table', 'query:x']);
    assert.deepEqual(Object.keys(op.responses).sort(), ['201', '400', '401', '403', '404', '409', '500']);
    assert.equal(op.operationId, 'postApiV1ModelsTable');
    assert.deepEqual(op.tags, ['models']);
    const pub = operation({ method: 'GET', url: '/api/v1/health', public: true }, undefined) as { responses: Record<string, unknown>; security: unknown[] };
    assert.deepEqual(Object.keys(pub.responses).sort(), ['200', '400', '404', '500']);
    assert.deepEqual(pub.security, []);
    assert.equal((pub as unknown as { summary: string }).summary, 'GET /api/v1/health', 'an operation without facts is still named');
  });
});
