import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { byteaSlices, SLICE_BYTES, WINDOW_BYTES } from '../../../src/db/bytea-slices.js';
import { openPg } from '../../../src/db/pg-db.js';
import { openPglite } from '../../../src/db/pglite-db.js';
import type { Db, Queryable } from '../../../src/db/types.js';
import { freshDatabase, serverUrl, type FreshDatabase } from '../../helpers/database.js';

const SELECT = 'SELECT substring(data from $1 for $2) AS b FROM slice_probe WHERE id = $3';

/**
 * Every piece of a read, checked against the size a piece may have: a slice where the driver reads
 * bytea as text (PostgreSQL), a whole window where it reads the bytes themselves (PGlite).
 */
async function read(db: Queryable, id: number, from: number, length: number): Promise<Buffer> {
  const largest = db.readBytea ? WINDOW_BYTES : SLICE_BYTES;
  const pieces: Buffer[] = [];
  for await (const b of byteaSlices(db, SELECT, [id], from, length)) {
    assert.ok(b.length > 0 && b.length <= largest, `a piece of ${b.length} bytes`);
    pieces.push(b);
  }
  return Buffer.concat(pieces);
}

describe('reading a bytea value in slices', () => {
  let db: Db;
  let fresh: FreshDatabase | null = null;
  // Not a multiple of the slice or the window: the last piece of each is short.
  const odd = randomBytes(2 * WINDOW_BYTES + 5 * SLICE_BYTES + 1234);
  const exact = randomBytes(3 * SLICE_BYTES);

  before(async () => {
    if (serverUrl) {
      fresh = await freshDatabase();
      db = await openPg({ connectionString: fresh.databaseUrl!, max: 2 });
    } else {
      db = await openPglite({});
    }
    await db.exec('CREATE TABLE slice_probe (id int PRIMARY KEY, data bytea)');
    await db.query('INSERT INTO slice_probe (id, data) VALUES (1, $1), (2, $2), (3, $3)', [odd, exact, Buffer.alloc(0)]);
  });
  after(async () => {
    await db?.close();
    await fresh?.drop();
  });

  it('gives back a value byte for byte across slice and window boundaries', async () => {
    assert.ok((await read(db, 1, 0, odd.length)).equals(odd));
    assert.ok((await read(db, 2, 0, exact.length)).equals(exact));
  });

  it('reads a range that starts and ends inside slices', async () => {
    const from = SLICE_BYTES - 3;
    const length = WINDOW_BYTES + SLICE_BYTES + 10;
    assert.ok((await read(db, 1, from, length)).equals(odd.subarray(from, from + length)));
    assert.ok((await read(db, 1, odd.length - 1, 1)).equals(odd.subarray(odd.length - 1)));
  });

  it('reads whole windows where the database gives bytes as they are (embedded), inside a transaction too', { skip: serverUrl ? 'PGlite only' : false }, async () => {
    assert.equal(typeof db.readBytea, 'function');
    const sizes: number[] = [];
    for await (const b of byteaSlices(db, SELECT, [1], 0, odd.length)) sizes.push(b.length);
    assert.deepEqual(sizes, [WINDOW_BYTES, WINDOW_BYTES, odd.length - 2 * WINDOW_BYTES]);
    const changed = Buffer.from(odd);
    changed[WINDOW_BYTES + 1] ^= 0xff;
    await assert.rejects(
      db.tx(async (tx) => {
        await tx.query('UPDATE slice_probe SET data = $1 WHERE id = 1', [changed]);
        assert.ok((await read(tx, 1, 0, odd.length)).equals(changed), 'the transaction reads its own write');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.ok((await read(db, 1, 0, odd.length)).equals(odd));
  });

  it('reads nothing for an empty range and refuses a value shorter than expected', async () => {
    assert.equal((await read(db, 3, 0, 0)).length, 0);
    await assert.rejects(read(db, 2, 0, exact.length + 1), /shorter than expected/);
    await assert.rejects(read(db, 3, 0, 1), /shorter than expected/);
  });
});
