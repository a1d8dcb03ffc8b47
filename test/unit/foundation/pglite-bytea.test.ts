import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openPglite, serializers } from '../../../src/db/pglite-db.js';
import { OID } from '../../../src/db/type-parsers.js';
import type { Db } from '../../../src/db/types.js';

describe('bytea parameters on embedded PGlite', () => {
  let db: Db;
  before(async () => {
    db = await openPglite({});
    await db.exec('CREATE TABLE bytea_probe (id int PRIMARY KEY, data bytea)');
  });
  after(async () => {
    await db?.close();
  });

  it('hands bytes over as they are (sent in binary format) and text as text', () => {
    const ours = serializers[OID.bytea]!;
    const b = randomBytes(16);
    assert.equal(ours(b), b);
    assert.equal(ours('\\x00ff'), '\\x00ff');
  });

  it('stores every byte value, a view into a larger buffer, no bytes and hex text exactly', async () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const big = randomBytes(4096);
    const view = new Uint8Array(big.buffer, big.byteOffset + 7, 100);
    const values: [unknown, Buffer][] = [
      [all, Buffer.from(all)],
      [big, big],
      [view, Buffer.from(view)],
      [new Uint8Array(0), Buffer.alloc(0)],
      ['\\x00ff10', Buffer.of(0, 255, 16)],
    ];
    for (const [i, [v]] of values.entries()) await db.query('INSERT INTO bytea_probe (id, data) VALUES ($1, $2)', [i, v]);
    const { rows } = await db.query<{ id: number; data: Buffer; n: number }>('SELECT id, data, octet_length(data) AS n FROM bytea_probe ORDER BY id');
    assert.equal(rows.length, values.length);
    for (const r of rows) {
      const want = values[r.id]![1];
      assert.equal(r.n, want.length, `value ${r.id}`);
      assert.ok(Buffer.from(r.data).equals(want), `value ${r.id}`);
    }
  });
});
