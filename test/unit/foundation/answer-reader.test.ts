import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerReader } from '../../../src/db/answer-reader.js';

/** A backend message: type byte, length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function dataRow(values: (Buffer | null)[]): Buffer {
  const parts: Buffer[] = [Buffer.from([values.length >> 8, values.length & 255])];
  for (const v of values) {
    const len = Buffer.alloc(4);
    len.writeInt32BE(v ? v.length : -1);
    parts.push(len);
    if (v) parts.push(v);
  }
  return message('D', Buffer.concat(parts));
}

const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const value = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) & 255));
const answer = Buffer.concat([
  message('1', Buffer.alloc(0)), // ParseComplete
  message('2', Buffer.alloc(0)), // BindComplete
  dataRow([value, Buffer.from('other column')]),
  dataRow([Buffer.from('second row')]),
  message('C', cstring('SELECT 2')),
  message('Z', Buffer.from('I')),
]);

/** Feeds `bytes` cut at the given positions. */
function read(bytes: Buffer, cuts: number[]): AnswerReader {
  const r = new AnswerReader();
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    r.feed(bytes.subarray(at, c));
    at = c;
  }
  return r;
}

describe('reading an answer of the wire protocol as it streams in', () => {
  it('keeps the first column of the first row and the row count, wherever the pieces are cut', () => {
    for (let cut = 0; cut <= answer.length; cut++) {
      const r = read(answer, [cut]);
      assert.ok(r.value?.equals(value), `cut at ${cut}`);
      assert.equal(r.rows, 2);
      assert.equal(r.rowCount, 2);
      assert.equal(r.error, null);
    }
    const byte = read(answer, Array.from({ length: answer.length }, (_, i) => i));
    assert.ok(byte.value?.equals(value), 'one byte at a time');
  });

  it('gives null for SQL NULL and for an answer without rows', () => {
    assert.equal(read(Buffer.concat([dataRow([null]), message('C', cstring('SELECT 1'))]), []).value, null);
    const none = read(Buffer.concat([message('C', cstring('INSERT 0 3')), message('Z', Buffer.from('T'))]), [7]);
    assert.equal(none.value, null);
    assert.equal(none.rows, 0);
    assert.equal(none.rowCount, 3);
  });

  it('keeps the code and message of an error', () => {
    const fields = Buffer.concat([cstring('SERROR'), cstring('C23505'), cstring('Mduplicate key value'), cstring('Dsecret detail'), Buffer.from([0])]);
    const r = read(Buffer.concat([message('E', fields), message('Z', Buffer.from('E'))]), [3, 9, 20]);
    assert.deepEqual(r.error, { code: '23505', message: 'duplicate key value' });
    assert.equal(r.value, null);
  });
});
