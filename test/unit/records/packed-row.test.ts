import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packedSelect, packedValues, rowsOfValues, type SelectItem } from '../../../src/records/read/packed-row.js';

/** One packed row as the object the read path makes of it. */
const unpackRow = (items: SelectItem[], packed: string) => rowsOfValues(items, [packedValues(packed)])[0]!;

const item = (name: string, decode?: SelectItem['decode']): SelectItem => ({ expr: `t.${name}`, name, decode });

describe('packed rows', () => {
  it('packs a narrow row as one JSON array in one column', () => {
    assert.equal(packedSelect([item('a'), item('b')]), 'json_build_array(json_build_array(t.a, t.b))::text AS "$row"');
  });

  it('splits a row wider than a function takes into arrays of at most 100 values', () => {
    const items = Array.from({ length: 205 }, (_, i) => item(`c${i}`));
    const sql = packedSelect(items);
    const inner = sql.match(/json_build_array\(t\.[^()]*\)/g)!;
    assert.deepEqual(inner.map((s) => s.split(',').length), [100, 100, 5]);
    const row = unpackRow(items, JSON.stringify([Array.from({ length: 100 }, (_, i) => i), Array.from({ length: 100 }, (_, i) => 100 + i), [200, 201, 202, 203, 204]]));
    assert.equal(row.c0, 0);
    assert.equal(row.c150, 150);
    assert.equal(row.c204, 204);
  });

  it('gives values as a plain select would: timestamps as text, bytea as bytes, JSON as objects', () => {
    const items = [item('id'), item('created', 'temporal'), item('data', 'binary'), item('props'), item('gone', 'temporal'), item('name')];
    const row = unpackRow(items, JSON.stringify([[7, '2024-02-29T13:45:00', '\\x68690a', { a: [1, 2] }, null, 'Joe "J"']]));
    assert.deepEqual(row, { id: 7, created: '2024-02-29 13:45:00', data: Buffer.from('hi\n'), props: { a: [1, 2] }, gone: null, name: 'Joe "J"' });
  });

  it('keeps any name a plain key of the row, whatever characters it holds', () => {
    const odd = 'a"]; throw new Error("x"); //\u2028\'';
    const items = [item(odd), item('b')];
    const row = unpackRow(items, JSON.stringify([[1, 2]]));
    assert.deepEqual(Object.keys(row), [odd, 'b']);
    assert.equal(row[odd], 1);
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
  });
});
