import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { serverUrl } from '../../helpers/database.js';
import { openPg } from '../../../src/db/pg-db.js';

// Statements prepared under a name return the columns their table had when they were prepared:
// after another instance's migration adds a column, PostgreSQL refuses to run them again on the
// same connection. The connection is then closed, not pooled, so only the one transaction fails.
describe('named statements after a table gained a column', { skip: serverUrl ? false : 'PostgreSQL only (PGlite prepares no named statements across connections)' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('fails the one transaction that meets the stale statement, and the next one runs on a fresh connection', async () => {
    const db = await openPg({ connectionString: server.services.config.databaseUrl!, max: 1 });
    try {
      const text = 'UPDATE c_bp_group SET description = $1 WHERE c_bp_group_id = 104 RETURNING *';
      const run = (v: string) => db.tx((tx) => tx.query<Record<string, unknown>>(text, [v], { name: 'test_stale_returning' }));
      assert.equal((await run('before')).rows[0]!.description, 'before');
      await server.services.db.query('ALTER TABLE c_bp_group ADD COLUMN test_added_column integer');
      await assert.rejects(run('stale'), /cached plan must not change result type/);
      const again = await run('after');
      assert.equal(again.rows[0]!.description, 'after', 'the next transaction prepared the statement again');
      assert.ok('test_added_column' in again.rows[0]!, 'with the new column');
    } finally {
      await server.services.db.query('ALTER TABLE c_bp_group DROP COLUMN IF EXISTS test_added_column');
      await db.close();
    }
  });
});
