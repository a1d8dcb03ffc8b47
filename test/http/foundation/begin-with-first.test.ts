import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import type { Db, Tx } from '../../../src/db/types.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

// On PostgreSQL a transaction's BEGIN goes with its first statement in one round trip: that
// statement must still run inside the transaction, and its failure must leave nothing behind.
describe("a transaction's first statement sent with its BEGIN", () => {
  let fresh: FreshDatabase;
  let db: Db;
  const ids = async () => (await db.query<{ id: number }>('SELECT id FROM begin_first ORDER BY id')).rows.map((r) => Number(r.id));
  const insert = 'INSERT INTO begin_first (id) VALUES ($1)';
  class Undone extends Error {}
  const undone = (e: unknown) => e instanceof Undone;

  before(async () => {
    fresh = await freshDatabase();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    await db.exec('CREATE TABLE begin_first (id int PRIMARY KEY)');
  });
  after(async () => {
    await db.close();
    await fresh.drop();
  });

  it('runs the first statement inside the transaction, named, with values or as plain text', async () => {
    const firsts = [
      (tx: Tx) => tx.query(insert, [1], { name: 'begin_first_insert' }),
      (tx: Tx) => tx.query(insert, [1]),
      (tx: Tx) => tx.query('INSERT INTO begin_first (id) VALUES (1)'),
    ];
    for (const first of firsts) {
      await assert.rejects(
        db.tx(async (tx) => {
          await first(tx);
          await tx.query(insert, [2]);
          throw new Undone();
        }),
        undone,
      );
      assert.deepEqual(await ids(), [], 'the first statement was rolled back with the rest');
    }
    // Several first statements at once: one of them carries the BEGIN, all are in the transaction.
    await assert.rejects(
      db.tx(async (tx) => {
        await Promise.all([3, 4, 5].map((id) => tx.query(insert, [id], { name: 'begin_first_insert' })));
        throw new Undone();
      }),
      undone,
    );
    assert.deepEqual(await ids(), []);
    const r = await db.tx(async (tx) => {
      const first = await tx.query<{ id: number }>(`${insert} RETURNING id`, [6], { name: 'begin_first_returning' });
      await tx.query(insert, [7]);
      return first;
    });
    assert.deepEqual(r.rows.map((x) => Number(x.id)), [6], 'the first statement answers its own rows');
    assert.equal(r.rowCount, 1);
    assert.deepEqual(await ids(), [6, 7]);
  });

  it('commits nothing when the first statement fails, and leaves the connections usable', async () => {
    for (let i = 0; i < 3; i++) {
      // A key already there: the statement fails after BEGIN ran.
      await assert.rejects(
        db.tx(async (tx) => {
          await tx.query(insert, [6], { name: 'begin_first_insert' });
          await tx.query(insert, [20 + i]);
        }),
        (e: { code?: string }) => e.code === '23505',
      );
      // A statement that does not parse, prepared under a name on no connection yet: it fails the same way every time.
      await assert.rejects(
        db.tx((tx) => tx.query('INSERT INTO begin_first (id) VALUES ($1', [30 + i], { name: 'begin_first_broken' })),
        (e: { code?: string }) => e.code === '42601',
      );
    }
    assert.deepEqual(await ids(), [6, 7]);
    await db.tx(async (tx) => {
      await tx.query(insert, [8], { name: 'begin_first_insert' });
      await tx.query(insert, [9]);
    });
    assert.deepEqual(await ids(), [6, 7, 8, 9]);
  });

  it('answers work that runs no statement, and a transaction of one statement committed with it', async () => {
    assert.equal(await db.tx(async () => 'nothing'), 'nothing');
    await assert.rejects(
      db.tx(async () => {
        throw new Undone();
      }),
      undone,
    );
    const last = { name: 'begin_first_last' };
    const only = await db.tx((tx) => (tx.commitWith ? tx.commitWith(`${insert} RETURNING id`, [10], last) : tx.query(`${insert} RETURNING id`, [10], last)));
    assert.deepEqual(only.rows.map((x) => Number(x.id)), [10]);
    await assert.rejects(
      db.tx((tx) => (tx.commitWith ? tx.commitWith(`${insert} RETURNING id`, [10], last) : tx.query(`${insert} RETURNING id`, [10], last))),
      (e: { code?: string }) => e.code === '23505',
    );
    assert.deepEqual(await ids(), [6, 7, 8, 9, 10]);
    // A savepoint as the first statement (plain text) opens the transaction first.
    await assert.rejects(
      db.tx(async (tx) => {
        await tx.savepoint((t) => t.query(insert, [11]));
        throw new Undone();
      }),
      undone,
    );
    assert.deepEqual(await ids(), [6, 7, 8, 9, 10]);
  });
});
