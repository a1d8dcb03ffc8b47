import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packedSelect, packedValues, rowsOfValues, type SelectItem } from '../../../src/records/read/packed-row.js';

/** One packed row as the object the read path makes of it. */
const unpackRow = (items: SelectItem[], packed: string) => rowsOfValues(items, [packedValues(packed, items)])[0]!;

const item = (name: string, decode?: SelectItem['decode']): SelectItem => ({ expr: `t.${name}`, name, decode });

describe('packed rows', () => {
  it('packs a row as the text of one row value in one column', () => {
    assert.equal(packedSelect([item('a'), item('b')]), 'ROW(t.a, t.b)::text AS "$row"');
  });

  it('packs a row wider than a function takes (a row value has no such limit)', () => {
    const items = Array.from({ length: 205 }, (_, i) => item(`c${i}`, 'number'));
    assert.equal(packedSelect(items).split(',').length, 205);
    const row = unpackRow(items, `(${Array.from({ length: 205 }, (_, i) => i).join(',')})`);
    assert.equal(row.c0, 0);
    assert.equal(row.c150, 150);
    assert.equal(row.c204, 204);
  });

  it('gives values as a plain select would: numbers, timestamps as text, bytea as bytes, JSON as values', () => {
    const items = [item('id', 'number'), item('created'), item('data', 'binary'), item('props', 'json'), item('gone'), item('name'), item('flag', 'boolean'), item('qty', 'number'), item('off', 'boolean'), item('odd', 'boolean')];
    // As PostgreSQL writes the row: a field with a quote, comma, space or parenthesis is quoted and
    // its quotes and backslashes doubled; a null is nothing at all.
    const row = unpackRow(items, '(7,"2024-02-29 13:45:00","\\\\x68690a","{""a"": [1, 2]}",,"Joe ""J""",t,-12.50,f,constructor)');
    assert.deepEqual(row, { id: 7, created: '2024-02-29 13:45:00', data: Buffer.from('hi\n'), props: { a: [1, 2] }, gone: null, name: 'Joe "J"', flag: true, qty: -12.5, off: false, odd: 'constructor' });
  });

  it('tells an empty text from a null, and reads quoted commas, parentheses and backslashes', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => item(n));
    const row = unpackRow(items, '("",,"x,y","(z)","back\\\\slash ""q""",)');
    assert.deepEqual(row, { a: '', b: null, c: 'x,y', d: '(z)', e: 'back\\slash "q"', f: null });
  });

  it('reads a row of a single null and a row whose last field is quoted', () => {
    assert.deepEqual(unpackRow([item('a')], '()'), { a: null });
    assert.deepEqual(unpackRow([item('a'), item('b')], '(1,"a b")'), { a: '1', b: 'a b' });
  });

  it('stops at a row whose quoted field never ends instead of reading past it', () => {
    assert.throws(() => packedValues('(1,"open', [item('a'), item('b')]), /unterminated/);
  });

  it('keeps any name a plain key of the row, whatever characters it holds', () => {
    const odd = 'a"]; throw new Error("x"); //\u2028\'';
    const items = [item(odd, 'number'), item('b', 'number')];
    const row = unpackRow(items, '(1,2)');
    assert.deepEqual(Object.keys(row), [odd, 'b']);
    assert.equal(row[odd], 1);
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
  });
});
