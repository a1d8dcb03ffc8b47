import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('workflow migrations', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('migration 11 brings the approval node, the demo workflow, orders and activities to a database built before them', async () => {
    const db = server.services.db;
    // A database as it was before: Process_Order without approval, no demo workflow rows, no limits.
    await db.exec(`DELETE FROM ad_wf_activity; DELETE FROM ad_wf_process;
      DELETE FROM c_ordertax WHERE c_order_id BETWEEN 106 AND 109; DELETE FROM c_orderline WHERE c_order_id BETWEEN 106 AND 109; DELETE FROM c_order WHERE c_order_id BETWEEN 106 AND 109;
      DELETE FROM ad_wf_nodenext WHERE ad_wf_nodenext_id IN (11603, 50000, 50001, 50002); UPDATE ad_wf_nodenext SET ad_wf_next_id = 1162, transitioncode = NULL WHERE ad_wf_nodenext_id = 11601;
      DELETE FROM ad_wf_node WHERE ad_wf_node_id IN (1164, 50000, 50001, 50002, 50003); DELETE FROM ad_workflow_access WHERE ad_workflow_id = 50000; DELETE FROM ad_workflow WHERE ad_workflow_id = 50000;
      UPDATE ad_role SET amtapproval = 0 WHERE ad_role_id IN (102, 103);
      DELETE FROM dictum.migration WHERE version = 11`);
    assert.deepEqual(await migrate(db), [11]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT ad_wf_next_id FROM ad_wf_nodenext WHERE ad_wf_nodenext_id = 11601)::int AS next,
              (SELECT count(*)::int FROM ad_wf_node WHERE ad_workflow_id = 50000) AS reviewnodes,
              (SELECT count(*)::int FROM ad_wf_activity WHERE wfstate = 'OS') AS suspended,
              (SELECT docstatus FROM c_order WHERE c_order_id = 106) AS status,
              (SELECT amtapproval FROM ad_role WHERE ad_role_id = 103)::int AS limit`,
    );
    assert.deepEqual(rows[0], { next: 1164, reviewnodes: 4, suspended: 4, status: 'IP', limit: 1000 });
    const seq = await db.query<{ id: number }>(`SELECT nextval('ad_wf_activity_sq')::int AS id`);
    assert.ok(seq.rows[0]!.id > 1001223, 'new activities above the seeded ids');
    assert.deepEqual(await migrate(db), [], 'applied once');
  });

  it('migrations 12 and 13 bring AD_WF_NextCondition, its lists and the index of waits to a database built before them', async () => {
    const db = server.services.db;
    await db.exec(`DROP TABLE ad_wf_nextcondition; DROP SEQUENCE IF EXISTS ad_wf_nextcondition_sq; DROP INDEX ad_wf_activity_wait_idx;
      DELETE FROM ad_column WHERE ad_table_id = 706; DELETE FROM ad_table WHERE ad_table_id = 706; DELETE FROM ad_sequence WHERE name = 'AD_WF_NextCondition';
      DELETE FROM ad_ref_list WHERE ad_reference_id IN (204, 205); DELETE FROM ad_reference WHERE ad_reference_id IN (204, 205);
      DELETE FROM dictum.migration WHERE version IN (12, 13)`);
    assert.deepEqual(await migrate(db), [12, 13]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT count(*)::int FROM ad_column WHERE ad_table_id = 706) AS columns,
              (SELECT string_agg(value, ' ' ORDER BY value COLLATE "C") FROM ad_ref_list WHERE ad_reference_id = 205) AS operations,
              to_regclass('ad_wf_nextcondition')::text AS tab, to_regclass('ad_wf_activity_wait_idx')::text AS idx`,
    );
    assert.deepEqual(rows[0], { columns: 17, operations: '!= << <= == >= >> AB SQ ~~', tab: 'ad_wf_nextcondition', idx: 'ad_wf_activity_wait_idx' });
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
