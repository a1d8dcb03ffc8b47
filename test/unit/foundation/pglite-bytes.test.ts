import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { directParams, LARGE_BYTEA } from '../../../src/db/pglite-bytes.js';
import { openPglite } from '../../../src/db/pglite-db.js';

describe('large bytes on embedded PGlite, spoken in the wire protocol directly', () => {
  let db: Awaited<ReturnType<typeof openPglite>>;
  const big = randomBytes(3 * LARGE_BYTEA + 17);

  before(async () => {
    db = await openPglite({});
    await db.exec('CREATE TABLE bytes_probe (id int PRIMARY KEY, label text, made timestamptz, flag boolean, data bytea)');
  });
  after(async () => db?.close());

  it('writes a large value with text, number, date and boolean parameters beside it, byte for byte', async () => {
    const made = new Date('2026-11-25T10:00:00Z');
    const r = await db.query("INSERT INTO bytes_probe (id, label, made, flag, data) VALUES ($1, $2, $3, $4, $5)", [1, 'naïve ☃', made, true, big]);
    assert.equal(r.rowCount, 1);
    assert.deepEqual(r.rows, []);
    const { rows } = await db.query<{ label: string; made: boolean; flag: boolean; n: number; same: boolean }>(
      'SELECT label, made = $2 AS made, flag, octet_length(data) AS n, data = $1 AS same FROM bytes_probe WHERE id = 1',
      [big, made.toISOString()],
    );
    assert.deepEqual(rows[0], { label: 'naïve ☃', made: true, flag: true, n: big.length, same: true });
    assert.ok((await db.readBytea!('SELECT data FROM bytes_probe WHERE id = $1', [1]))?.equals(big));
  });

  it('counts the rows an update changed, and reads NULL and no row as null', async () => {
    await db.query('INSERT INTO bytes_probe (id, data) VALUES (2, NULL)');
    const r = await db.query('UPDATE bytes_probe SET data = $1 WHERE id IN (1, 2)', [Buffer.from(big).reverse()]);
    assert.equal(r.rowCount, 2);
    assert.equal(await db.readBytea!('SELECT NULL::bytea'), null);
    assert.equal(await db.readBytea!('SELECT data FROM bytes_probe WHERE id = $1', [99]), null);
  });

  it('answers rows a writing statement returns, by the usual path', async () => {
    const r = await db.query<{ id: number }>('INSERT INTO bytes_probe (id, data) VALUES ($1, $2) RETURNING id', [3, big]);
    assert.deepEqual(r.rows, [{ id: 3 }]);
  });

  it('gives the database error code, and a transaction that fails writes nothing', async () => {
    await assert.rejects(db.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [1, big]), (e: { code?: string }) => e.code === '23505');
    await assert.rejects(
      db.tx(async (tx) => {
        await tx.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [4, big]);
        await tx.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [4, big]);
      }),
      (e: { code?: string }) => e.code === '23505',
    );
    assert.equal((await db.query('SELECT 1 FROM bytes_probe WHERE id = 4')).rows.length, 0);
    // The connection is usable afterwards, inside and outside transactions.
    await db.tx(async (tx) => {
      await tx.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [4, big]);
      assert.ok((await tx.readBytea!('SELECT data FROM bytes_probe WHERE id = 4'))?.equals(big));
    });
  });

  it('takes the direct way for large bytes in writes that return no rows, and only there', async () => {
    const pg = db.pglite;
    const raw = pg.execProtocolRawStream.bind(pg);
    let direct = 0;
    pg.execProtocolRawStream = (message, options) => {
      direct++;
      return raw(message, options);
    };
    try {
      const count = async (work: () => Promise<unknown>) => {
        direct = 0;
        await work();
        return direct;
      };
      assert.equal(await count(() => db.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [10, big])), 1);
      assert.equal(await count(() => db.tx((tx) => tx.query('UPDATE bytes_probe SET data = $1 WHERE id = 10', [big]))), 1);
      assert.equal(await count(() => db.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2)', [11, big.subarray(0, LARGE_BYTEA - 1)])), 0);
      assert.equal(await count(() => db.query('INSERT INTO bytes_probe (id, data) VALUES ($1, $2) RETURNING id', [12, big])), 0);
      assert.equal(await count(() => db.query("INSERT INTO bytes_probe (id, label, data) VALUES ($1, $2::jsonb->>'a', $3)", [13, { a: 'x' }, big])), 0);
      assert.equal(await count(() => db.query('SELECT octet_length($1::bytea) AS n', [big])), 0);
      assert.equal((await db.query<{ label: string }>('SELECT label FROM bytes_probe WHERE id = 13')).rows[0]?.label, 'x');
    } finally {
      pg.execProtocolRawStream = raw;
    }
  });

  it('leaves parameters it cannot write as text to the usual path', () => {
    assert.deepEqual(directParams([1, 2n, 'a', null, undefined, false, new Date(0)]), ['1', '2', 'a', null, null, 'f', '1970-01-01T00:00:00.000Z']);
    assert.equal(directParams([{ a: 1 }]), null);
    assert.equal(directParams([[1, 2]]), null);
  });
});
