import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import type { Db, Tx } from '../../../src/db/types.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

// A transaction's last statement and its COMMIT in one round trip (Tx.commitWith, used to keep
// the answer to an Idempotency-Key): the statement's failure must commit nothing of the work.
describe('a last statement committed with its transaction', () => {
  let fresh: FreshDatabase;
  let db: Db;
  const last = (tx: Tx, id: number) => {
    const o = { name: 'commit_with_test_last' };
    return tx.commitWith ? tx.commitWith('INSERT INTO commit_with_last (id) VALUES ($1)', [id], o) : tx.query('INSERT INTO commit_with_last (id) VALUES ($1)', [id], o);
  };
  const ids = async (table: string) => (await db.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => Number(r.id));

  before(async () => {
    fresh = await freshDatabase();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    await db.exec('CREATE TABLE commit_with_work (id int PRIMARY KEY); CREATE TABLE commit_with_last (id int PRIMARY KEY)');
  });
  after(async () => {
    await db.close();
    await fresh.drop();
  });

  it('commits the work and the statement together, and answers the statement', async () => {
    if (db.kind === 'pg') assert.ok((await db.tx(async (tx) => tx.commitWith)) !== undefined, 'a PostgreSQL server joins the COMMIT to the statement');
    for (const id of [1, 2, 3]) {
      const r = await db.tx(async (tx) => {
        await tx.query('INSERT INTO commit_with_work (id) VALUES ($1)', [id]);
        return last(tx, id);
      });
      assert.equal(r.rowCount, 1);
    }
    assert.deepEqual(await ids('commit_with_work'), [1, 2, 3]);
    assert.deepEqual(await ids('commit_with_last'), [1, 2, 3]);
  });

  it('commits nothing when the statement fails, and leaves the connection usable', async () => {
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        db.tx(async (tx) => {
          await tx.query('INSERT INTO commit_with_work (id) VALUES ($1)', [10 + i]);
          return last(tx, 1);
        }),
        (e: { code?: string }) => e.code === '23505',
      );
    }
    assert.deepEqual(await ids('commit_with_work'), [1, 2, 3], 'the work was rolled back');
    await db.tx(async (tx) => {
      await tx.query('INSERT INTO commit_with_work (id) VALUES (20)');
      return last(tx, 20);
    });
    assert.deepEqual(await ids('commit_with_last'), [1, 2, 3, 20]);
  });
});
