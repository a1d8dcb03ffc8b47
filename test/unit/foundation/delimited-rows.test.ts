import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDelimitedRows, delimitedRowsSql } from '../../../src/dictionary/delimited-rows.js';

describe('rows as one delimited text', () => {
  const fields = ['id', 'name', 'sql'];
  it('decodes records, fields and nulls', () => {
    assert.deepEqual(decodeDelimitedRows('1\u001fA\u001f\u0001\u001e2\u001f\u001fx', fields), [
      { id: '1', name: 'A', sql: null },
      { id: '2', name: '', sql: 'x' },
    ]);
    assert.deepEqual(decodeDelimitedRows(null, fields), []);
  });

  it('gives up (null) when a value held a separator, so the caller reads the rows another way', () => {
    assert.equal(decodeDelimitedRows('1\u001fA\u001fa\u001fb', fields), null);
  });

  it('builds the aggregate over coalesced text values', () => {
    assert.equal(delimitedRowsSql(['a', 'b'], 't'), 'SELECT string_agg(concat_ws(chr(31), coalesce(a::text, chr(1)), coalesce(b::text, chr(1))), chr(30)) FROM t');
  });
});
