import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { loadDictionary } from '../../../src/dictionary/load.js';

describe('embedded database settings and the dictionary load', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ DICTUM_PGLITE_SHARED_BUFFERS_MB: '24' });
  });
  after(async () => {
    await server.close();
  });

  it('opens PGlite with the configured shared_buffers', { skip: process.env.DATABASE_URL ? 'PGlite only' : false }, async () => {
    const { rows } = await server.services.db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    assert.equal(rows[0]!.shared_buffers, '24MB');
  });

  it('reads AD_Column as delimited text into the same columns as before, nulls included', async () => {
    const dict = await loadDictionary(server.services.db);
    const bp = dict.byName.get('c_bpartner')!;
    const name = bp.byName.get('name')!;
    assert.equal(name.isIdentifier, true);
    assert.equal(name.isMandatory, true);
    assert.equal(typeof name.fieldLength, 'number');
    assert.ok(name.fieldLength > 0);
    assert.equal(bp.byName.get('description')!.defaultValue, null);
    assert.equal(bp.byName.get('isactive')!.isUpdateable, true);
    const { rows } = await server.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM ad_column WHERE isactive = 'Y' AND ad_table_id IN (SELECT ad_table_id FROM ad_table)`);
    const loaded = dict.tables.reduce((n, t) => n + t.columns.length, 0);
    assert.equal(loaded, Number(rows[0]!.n));
  });
});
