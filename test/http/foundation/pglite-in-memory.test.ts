import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import { cacheDir, freshDatabase, serverUrl, type FreshDatabase } from '../../helpers/database.js';

// DICTUM_PGLITE_IN_MEMORY: the embedded database starts from the seeded snapshot in memory, writes
// no database files into the data folder and is gone when closed; in a folder it is kept.
describe('embedded PGlite in memory and in its folder', { skip: serverUrl ? 'embedded PGlite only' : false }, () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });
  const marker = async (inMemory: boolean, write: boolean): Promise<number> => {
    const db = await openDatabase({ databaseUrl: null, dataDir: fresh.dataDir, cacheDir, pgliteInMemory: inMemory });
    try {
      if (write) await db.query(`UPDATE ad_sysconfig SET description = 'kept?' WHERE name = 'REST_TOKEN_EXPIRE_IN_MINUTES' AND ad_client_id = 0`);
      const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ad_sysconfig WHERE description = 'kept?'`);
      return Number(rows[0]!.n);
    } finally {
      await db.close();
    }
  };

  it('in memory: the seeded demo is there, nothing is written to the folder, and a change is gone after closing', async () => {
    assert.equal(await marker(true, true), 1, 'the change is seen while open');
    assert.equal(fs.existsSync(path.join(fresh.dataDir, 'PG_VERSION')), false, 'no database files in the data folder');
    assert.equal(await marker(true, false), 0, 'a new in-memory instance starts from the snapshot again');
  });

  it('in the folder: the change is kept across a restart', async () => {
    assert.equal(await marker(false, true), 1);
    assert.equal(fs.existsSync(path.join(fresh.dataDir, 'PG_VERSION')), true);
    assert.equal(await marker(false, false), 1, 'kept after closing and opening again');
  });
});
