import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('migrations 40 to 44 (references, info windows, status lines, charts)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('bring the read services to a database built before them', async () => {
    const db = server.services.db;
    // A database as it was before: no datasource or translation tables, no info processes, no
    // extra charts, generated reference UUIDs and the first Dashboard_OrderCount line.
    await db.exec(`DROP TABLE ad_chartdatasource; DROP TABLE ad_ref_list_trl; DROP SEQUENCE IF EXISTS ad_chartdatasource_sq;
      DELETE FROM ad_column WHERE ad_table_id IN (53285, 136); DELETE FROM ad_table WHERE ad_table_id IN (53285, 136);
      DELETE FROM ad_element e WHERE NOT EXISTS (SELECT 1 FROM ad_column c WHERE c.ad_element_id = e.ad_element_id);
      DELETE FROM ad_sequence WHERE name IN ('AD_ChartDatasource', 'AD_Ref_List_Trl') AND istableid = 'Y';
      DELETE FROM ad_infoprocess; DELETE FROM ad_chart WHERE ad_chart_id IN (50004, 50005);
      UPDATE ad_reference SET ad_reference_uu = md5(ad_reference_id::text)::uuid::text WHERE ad_reference_id IN (104, 138, 152);
      UPDATE ad_statusline SET sqlstatement = 'SELECT COUNT(*) FROM C_Order' WHERE ad_statusline_id = 200024;
      UPDATE ad_message SET msgtext = 'Open sales orders: {0}' WHERE ad_message_id = 200501;
      DELETE FROM dictum.migration WHERE version BETWEEN 40 AND 44`);
    assert.deepEqual(await migrate(db), [40, 41, 42, 43, 44]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT ad_reference_uu FROM ad_reference WHERE ad_reference_id = 138) AS uu,
              (SELECT count(*)::int FROM ad_infoprocess) AS processes,
              (SELECT count(*)::int FROM ad_chartdatasource) AS sources,
              (SELECT count(*)::int FROM ad_chart WHERE ad_chart_id IN (50004, 50005)) AS charts,
              (SELECT count(*)::int FROM ad_ref_list_trl) AS translations,
              (SELECT msgtext FROM ad_message WHERE ad_message_id = 200501) AS message,
              (SELECT sqlstatement LIKE '%Top%' OR sqlstatement LIKE '%LEFT JOIN%' FROM ad_statusline WHERE ad_statusline_id = 200024) AS line`,
    );
    assert.deepEqual(rows[0], {
      uu: 'f973985f-3064-40de-b097-baed00bb8d5d',
      processes: 3,
      sources: 7,
      charts: 2,
      translations: 6,
      message: 'Order Count\n Top Year ({0}): {1} \n Current Year: {2}',
      line: true,
    });
    const dict = await loadDictionary(db, 100);
    assert.ok(dict.byName.get('ad_chartdatasource')?.byName.has('valuecolumn'));
    assert.ok(dict.byName.get('ad_ref_list_trl')?.byName.has('ad_language'));
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
