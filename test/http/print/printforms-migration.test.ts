import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('migration 200 (the demo logo, the payment print process, document status names)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const state = async () =>
    (
      await server.services.db.query<Record<string, unknown>>(
        `SELECT (SELECT substr(encode(binarydata, 'hex'), 1, 8) FROM ad_image WHERE ad_image_id = 100) AS logo,
                (SELECT value FROM ad_process WHERE ad_process_id = 1108000) AS process,
                (SELECT string_agg(ad_role_id::text, ',' ORDER BY ad_role_id) FROM ad_process_access WHERE ad_process_id = 1108000) AS access,
                (SELECT name FROM ad_ref_list_trl WHERE ad_ref_list_id = 185 AND ad_language = 'de_DE') AS completed,
                (SELECT count(*)::int FROM ad_ref_list_trl WHERE ad_ref_list_id BETWEEN 182 AND 193) AS names`,
      )
    ).rows[0];

  it('brings them to a database built before it, once, and keeps a logo already there', async () => {
    const db = server.services.db;
    assert.deepEqual(await state(), { logo: '89504e47', process: 'Rpt C_Payment', access: '0,102', completed: 'Abgeschlossen', names: 36 });
    await db.exec(`UPDATE ad_image SET binarydata = NULL WHERE ad_image_id = 100;
      DELETE FROM ad_process_access WHERE ad_process_id = 1108000;
      DELETE FROM ad_process WHERE ad_process_id = 1108000;
      DELETE FROM ad_ref_list_trl WHERE ad_ref_list_id BETWEEN 182 AND 193;
      DELETE FROM dictum.migration WHERE version = 200`);
    assert.deepEqual(await migrate(db), [200]);
    assert.deepEqual(await state(), { logo: '89504e47', process: 'Rpt C_Payment', access: '0,102', completed: 'Abgeschlossen', names: 36 });
    assert.deepEqual(await migrate(db), [], 'applied once');
    // A client's own logo stays.
    await db.exec(`UPDATE ad_image SET binarydata = decode('ffd8ffe000', 'hex') WHERE ad_image_id = 100; DELETE FROM dictum.migration WHERE version = 200`);
    await migrate(db);
    assert.equal((await state())!.logo, 'ffd8ffe0');
  });
});
