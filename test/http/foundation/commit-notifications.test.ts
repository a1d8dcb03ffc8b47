import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import type { Db } from '../../../src/db/types.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

// Revoking a session or dropping a cache must hold for the very next request on the same
// instance, so a transaction's notifications reach this instance's listeners by the time its
// commit returns: on PostgreSQL without waiting for the LISTEN connection's round trip.
describe('notifications sent in a transaction', () => {
  let fresh: FreshDatabase;
  let db: Db;
  const heard: string[] = [];
  before(async () => {
    fresh = await freshDatabase();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    await db.listen('dictum_test_commit', (p) => heard.push(p));
  });
  after(async () => {
    await db.close();
    await fresh.drop();
  });

  it('reach this instance when the commit returns', async () => {
    heard.length = 0;
    await db.tx(async (tx) => {
      await tx.notify('dictum_test_commit', 'one');
      assert.deepEqual(heard, [], 'nothing is heard before the commit');
    });
    assert.ok(heard.includes('one'), `heard ${JSON.stringify(heard)}`);
  });

  it('are dropped with a rolled-back transaction or savepoint', async () => {
    heard.length = 0;
    await assert.rejects(
      db.tx(async (tx) => {
        await tx.notify('dictum_test_commit', 'rolled-back');
        throw new Error('undo');
      }),
      /undo/,
    );
    await db.tx(async (tx) => {
      await tx.savepoint(async (sp) => {
        await sp.notify('dictum_test_commit', 'in-savepoint');
        throw new Error('undo part');
      }).catch(() => undefined);
      await tx.notify('dictum_test_commit', 'kept');
    });
    assert.ok(heard.includes('kept'), `heard ${JSON.stringify(heard)}`);
    // Give a late LISTEN delivery the time to arrive: it must not bring the undone ones either.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(!heard.includes('rolled-back') && !heard.includes('in-savepoint'), `heard ${JSON.stringify(heard)}`);
  });
});
