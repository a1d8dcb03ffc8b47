import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asOpenApi30 } from '../../../src/openapi/openapi-30.js';

describe('the OpenAPI 3.0 rendition of the document', () => {
  it("says 3.1's schema words in 3.0's", () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1', summary: 's', license: { name: 'MIT', identifier: 'MIT' } },
      paths: {
        '/x': {
          get: {
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/X' }, examples: { one: { value: { a: 1 } } } } } } },
          },
        },
      },
      components: {
        schemas: {
          X: {
            type: 'object',
            properties: {
              kind: { const: 'x' },
              data: { type: 'string', contentEncoding: 'base64' },
              note: { type: ['string', 'null'] },
              either: { type: ['integer', 'string'] },
              amount: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
              tags: { type: 'array', items: { type: 'string' }, examples: [['a', 'b'], ['c']] },
              headers: { type: 'object', patternProperties: { '^(.*)$': { type: 'string' } } },
            },
          },
        },
      },
    };
    const before = structuredClone(doc);
    const out = asOpenApi30(doc) as typeof doc & { components: { schemas: { X: { properties: Record<string, unknown> } } } };
    assert.deepEqual(doc, before, 'the input is left as it was');
    assert.equal(out.openapi, '3.0.3');
    assert.deepEqual(out.info, { title: 'T', version: '1', license: { name: 'MIT' } });
    assert.deepEqual(out.components.schemas.X.properties, {
      kind: { enum: ['x'] },
      data: { type: 'string', format: 'byte' },
      note: { nullable: true, type: 'string' },
      either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      amount: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
      tags: { type: 'array', items: { type: 'string' }, example: ['a', 'b'] },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
    });
    assert.deepEqual(out.paths['/x'].get.responses['200'].content['application/json'].examples, { one: { value: { a: 1 } } }, "a media type's examples map stays");
  });
});
