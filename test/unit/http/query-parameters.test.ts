import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredParameters, ignoredHeaderValue, READ_QUERY_PARAMETERS, unknownParameters } from '../../../src/http/query-parameters.js';
import { parseOrderByLenient } from '../../../src/records/query/orderby-parser.js';

describe('query parameters a route does not know', () => {
  it('are the ones outside the declared list, compared case-insensitively, in query order', () => {
    assert.deepEqual(unknownParameters({ $TOP: '1', $pageSize: '5', typo: '', $filter: 'x' }, READ_QUERY_PARAMETERS), ['$pageSize', 'typo']);
    assert.deepEqual(unknownParameters(undefined, []), []);
  });

  it('are declared by config, else by a querystring schema, else by the default of the method', () => {
    assert.deepEqual(declaredParameters('GET', { queryParameters: ['db'] }, undefined), ['db']);
    assert.deepEqual(declaredParameters('GET', {}, { querystring: { type: 'object', properties: { a: {}, b: {} } } }), ['a', 'b']);
    assert.equal(declaredParameters('GET', {}, undefined), READ_QUERY_PARAMETERS);
    assert.deepEqual(declaredParameters('POST', undefined, undefined), ['locale']);
  });

  it('go into one header value, escaping what a header or the list cannot hold', () => {
    assert.equal(ignoredHeaderValue(['$pageSize', '$orderby=Name sideways']), '$pageSize, $orderby=Name sideways');
    assert.equal(ignoredHeaderValue(['a,b', 'é\n']), 'a%2Cb, %C3%A9%0A');
  });
});

describe('$orderby read leniently', () => {
  it('keeps the entries that parse and names the others', () => {
    assert.deepEqual(parseOrderByLenient('Name desc, , Value sideways,Created'), {
      items: [{ column: 'Name', direction: 'desc' }, { column: 'Created', direction: 'asc' }],
      ignored: ['Value sideways'],
    });
  });
});
