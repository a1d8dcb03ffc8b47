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
        `SELECT (SELECT count(*)::int FROM ad_process WHERE ad_process_id BETWEEN 200300 AND 1099999) AS p,
                (SELECT count(*)::int FROM ad_process_para WHERE ad_process_id BETWEEN 200300 AND 1099999) AS pp,
                (SELECT count(*)::int FROM ad_process_access WHERE ad_process_id < 1100000) AS a,
                (SELECT count(*)::int FROM ad_message WHERE value = 'BackgroundJob') AS m,
                (SELECT count(*)::int FROM ad_printformat WHERE ad_printformat_id >= 200300) AS f`,
      );
      return rows[0]!;
    };
    let db = await open();
    const seeded = await count(db);
    // Processes of later migrations (ids from 1100000) are not migration 31's.
    await db.exec(`DELETE FROM ad_process_access WHERE ad_process_id BETWEEN 200300 AND 1099999; DELETE FROM ad_process_para WHERE ad_process_id BETWEEN 200300 AND 1099999;
      DELETE FROM ad_process WHERE ad_process_id BETWEEN 200300 AND 1099999; DELETE FROM ad_message WHERE value = 'BackgroundJob'; DELETE FROM ad_printformat WHERE ad_printformat_id >= 200300;
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

  it('migration 76 brings the standard processes, the storage report view and the allocation workflow to a database that predates them, once', async () => {
    const open = () => openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    const STANDARD = '109, 111, 149, 200310, 236, 295';
    const count = async (db: Awaited<ReturnType<typeof open>>) => {
      const { rows } = await db.query<Record<string, number | string>>(
        `SELECT (SELECT count(*)::int FROM ad_process WHERE ad_process_id IN (${STANDARD})) AS p,
                (SELECT count(*)::int FROM ad_process_para WHERE ad_process_id IN (${STANDARD}, 104)) AS pp,
                (SELECT count(*)::int FROM ad_process_access WHERE ad_process_id IN (${STANDARD})) AS a,
                (SELECT count(*)::int FROM ad_reportview WHERE ad_reportview_id = 102) AS rv,
                (SELECT count(*)::int FROM ad_wf_node WHERE ad_workflow_id = 125) AS nodes,
                (SELECT count(*)::int FROM ad_wf_nodenext WHERE ad_wf_node_id BETWEEN 1250 AND 1253) AS nexts,
                (SELECT count(*)::int FROM ad_workflow_access WHERE ad_workflow_id = 125) AS wa,
                (SELECT name FROM ad_process WHERE ad_process_id = 104) AS name`,
      );
      return rows[0]!;
    };
    let db = await open();
    const seeded = await count(db);
    assert.deepEqual(seeded, { p: 6, pp: 11, a: 27, rv: 1, nodes: 4, nexts: 3, wa: 5, name: 'Process Order' });
    await db.exec(`DELETE FROM ad_process_access WHERE ad_process_id IN (${STANDARD}); DELETE FROM ad_process_para WHERE ad_process_id IN (${STANDARD}, 104);
      DELETE FROM ad_process WHERE ad_process_id IN (${STANDARD}); UPDATE ad_process SET name = 'C_Order Process' WHERE ad_process_id = 104;
      DELETE FROM ad_reportview WHERE ad_reportview_id = 102; DELETE FROM ad_workflow_access WHERE ad_workflow_id = 125;
      DELETE FROM ad_wf_nodenext WHERE ad_wf_node_id BETWEEN 1250 AND 1253; DELETE FROM ad_wf_node WHERE ad_workflow_id = 125; DELETE FROM ad_workflow WHERE ad_workflow_id = 125;
      DELETE FROM dictum.migration WHERE version = 76`);
    await db.close();
    db = await open();
    try {
      assert.deepEqual(await count(db), seeded);
      for (const table of ['ad_process_access', 'ad_workflow_access']) {
        const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT ${table}_uu FROM ${table} GROUP BY 1 HAVING count(*) > 1) d`);
        assert.equal(rows[0]!.n, 0, `no UUID twice in ${table}`);
      }
    } finally {
      await db.close();
    }
  });
});
