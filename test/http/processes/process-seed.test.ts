import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

describe('migration 31 (built-in processes)', () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });

  it('brings the processes, their parameters and access rows to a database that predates them, once', async () => {
    const open = () => openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    const count = async (db: Awaited<ReturnType<typeof open>>) => {
      const { rows } = await db.query<{ p: number; pp: number; a: number; m: number; f: number }>(
        `SELECT (SELECT count(*)::int FROM ad_process WHERE ad_process_id >= 200300) AS p,
                (SELECT count(*)::int FROM ad_process_para WHERE ad_process_id >= 200300) AS pp,
                (SELECT count(*)::int FROM ad_process_access) AS a,
                (SELECT count(*)::int FROM ad_message WHERE value = 'BackgroundJob') AS m,
                (SELECT count(*)::int FROM ad_printformat WHERE ad_printformat_id >= 200300) AS f`,
      );
      return rows[0]!;
    };
    let db = await open();
    const seeded = await count(db);
    await db.exec(`DELETE FROM ad_process_access WHERE ad_process_id >= 200300; DELETE FROM ad_process_para WHERE ad_process_id >= 200300;
      DELETE FROM ad_process WHERE ad_process_id >= 200300; DELETE FROM ad_message WHERE value = 'BackgroundJob'; DELETE FROM ad_printformat WHERE ad_printformat_id >= 200300;
      DELETE FROM dictum.migration WHERE version = 31`);
    await db.close();
    db = await open();
    try {
      assert.deepEqual(await count(db), seeded);
      assert.equal(seeded.p, 7, "200300 to 200305 and Process Allocation (200310)");
      assert.equal(seeded.f, 6);
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT ad_process_access_uu FROM ad_process_access GROUP BY 1 HAVING count(*) > 1) d`);
      assert.equal(rows[0]!.n, 0, 'no UUID twice');
    } finally {
      await db.close();
    }
  });
});
