import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../../src/db/open.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

describe('migration 75 (document print processes)', () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });

  it('brings the print processes, their access and the print process of the document tabs to a database that predates them', async () => {
    const open = () => openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
    const state = async (db: Awaited<ReturnType<typeof open>>) => {
      const { rows: processes } = await db.query<{ id: number; value: string; uu: string }>(`SELECT ad_process_id::int AS id, value, ad_process_uu AS uu FROM ad_process WHERE ad_process_id IN (110, 116, 117) ORDER BY 1`);
      const { rows: access } = await db.query<{ p: number; r: number }>(`SELECT ad_process_id::int AS p, ad_role_id::int AS r FROM ad_process_access WHERE ad_process_id IN (110, 116, 117) ORDER BY 1, 2`);
      const { rows: tabs } = await db.query<{ tab: number; p: number | null }>(`SELECT ad_tab_id::int AS tab, ad_process_id::int AS p FROM ad_tab WHERE ad_tab_id IN (186, 257, 263, 290, 296, 220) ORDER BY 1`);
      return { processes, access, tabs };
    };
    let db = await open();
    const seeded = await state(db);
    assert.deepEqual(
      seeded.processes.map((p) => [p.id, p.value]),
      [[110, 'Rpt C_Order'], [116, 'Rpt C_Invoice'], [117, 'Rpt M_InOut']],
    );
    assert.equal(seeded.processes[0]!.uu, 'c10c4e97-17b2-48f3-a92c-fb612d5bd949', "the original's UUID");
    assert.deepEqual(seeded.access.map((a) => `${a.p}:${a.r}`), ['110:0', '110:102', '116:0', '116:102', '117:0', '117:102']);
    assert.deepEqual(seeded.tabs.map((t) => [t.tab, t.p]), [[186, 110], [220, null], [257, 117], [263, 116], [290, 116], [296, 117]]);
    await db.exec(`DELETE FROM ad_process_access WHERE ad_process_id IN (110, 116, 117); DELETE FROM ad_process WHERE ad_process_id IN (110, 116, 117);
      UPDATE ad_tab SET ad_process_id = NULL WHERE ad_tab_id IN (186, 257, 263, 290); UPDATE ad_tab SET ad_process_id = 210 WHERE ad_tab_id = 296;
      DELETE FROM dictum.migration WHERE version = 75`);
    await db.close();
    db = await open();
    try {
      const migrated = await state(db);
      assert.deepEqual(migrated.processes, seeded.processes);
      assert.deepEqual(migrated.access, seeded.access);
      assert.deepEqual(
        migrated.tabs.map((t) => [t.tab, t.p]),
        [[186, 110], [220, null], [257, 117], [263, 116], [290, 116], [296, 210]],
        'a tab that names a process of its own keeps it',
      );
    } finally {
      await db.close();
    }
  });
});
