import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeBind, decodeParse, FrontendParser } from '../lib/pg-recorder.mjs';

const cstr = (s) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
const int16 = (n) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const message = (type, payload) => Buffer.concat([Buffer.from(type), int32(payload.length + 4), payload]);

function bindPayload(stmt, params) {
  const parts = [cstr(''), cstr(stmt), int16(0), int16(params.length)];
  for (const p of params) {
    if (p === null) parts.push(int32(-1));
    else {
      const b = Buffer.from(p, 'utf8');
      parts.push(int32(b.length), b);
    }
  }
  parts.push(int16(0));
  return Buffer.concat(parts);
}

test('Parse and Bind messages are decoded', () => {
  assert.deepEqual(decodeParse(Buffer.concat([cstr('s1'), cstr('SELECT $1'), int16(0)])), { name: 's1', text: 'SELECT $1' });
  assert.deepEqual(decodeBind(bindPayload('s1', ['11', null, 'Mär'])), { statement: 's1', params: ['11', null, 'Mär'] });
});

test('the stream is split into messages across chunk borders, after SSL request and startup', () => {
  const seen = [];
  const p = new FrontendParser((type, payload) => seen.push([type, payload.toString('utf8')]));
  const ssl = Buffer.concat([int32(8), int32(80877103)]);
  const startupBody = Buffer.concat([int32(196608), cstr('user'), cstr('postgres'), Buffer.from([0])]);
  const startup = Buffer.concat([int32(startupBody.length + 4), startupBody]);
  const q = message('Q', cstr('SELECT 1'));
  const all = Buffer.concat([ssl, startup, q, message('S', Buffer.alloc(0))]);
  for (let i = 0; i < all.length; i += 3) p.push(all.subarray(i, i + 3));
  assert.deepEqual(seen, [
    ['Q', 'SELECT 1\0'],
    ['S', ''],
  ]);
});
