import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('migrations 110 and 111 (accounts of journals and period end, the period-end processes)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('bring the accounts, the account columns and the processes to a database built before them, once', async () => {
    const db = server.services.db;
    // A database as migration 100 left it.
    await db.exec(`ALTER TABLE c_acctschema_default DROP COLUMN unrealizedgain_acct, DROP COLUMN unrealizedloss_acct;
      ALTER TABLE c_acctschema_gl DROP COLUMN retainedearning_acct;
      DELETE FROM c_acctschema_gl;
      DELETE FROM ad_column WHERE ad_column_id IN (6600, 6601, 6602);
      DELETE FROM ad_element WHERE ad_element_id IN (3000, 3001, 3002);
      DELETE FROM ad_process_access WHERE ad_process_id IN (326, 1100001, 1100002);
      DELETE FROM ad_process_para WHERE ad_process_id IN (326, 1100001, 1100002);
      DELETE FROM ad_process WHERE ad_process_id IN (326, 1100001, 1100002);
      DELETE FROM c_validcombination WHERE c_validcombination_id IN (31000, 32900, 80530, 82530);
      DELETE FROM c_elementvalue WHERE c_elementvalue_id IN (31000, 32900, 80530, 82530);
      DELETE FROM dictum.migration WHERE version IN (110, 111)`);
    assert.deepEqual(await migrate(db), [110, 111]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT d.unrealizedgain_acct AS gain, d.unrealizedloss_acct AS loss, (SELECT retainedearning_acct FROM c_acctschema_gl WHERE c_acctschema_id = 101) AS retained,
              (SELECT name FROM c_elementvalue WHERE c_elementvalue_id = 31000) AS capital,
              (SELECT count(*)::int FROM ad_process WHERE ad_process_id IN (326, 1100001, 1100002)) AS processes,
              (SELECT count(*)::int FROM ad_process_para WHERE ad_process_id IN (326, 1100001)) AS parameters,
              (SELECT count(*)::int FROM ad_process_access WHERE ad_process_id IN (326, 1100001, 1100002)) AS access
         FROM c_acctschema_default d WHERE d.c_acctschema_id = 101`,
    );
    assert.deepEqual(rows[0], { gain: 80530, loss: 82530, retained: 32900, capital: 'Capital/Common Stock', processes: 3, parameters: 10, access: 6 });
    const dict = await loadDictionary(db, 100);
    assert.ok(dict.byName.get('c_acctschema_default')!.byName.has('unrealizedgain_acct'));
    assert.ok(dict.byName.get('c_acctschema_gl')!.byName.has('retainedearning_acct'));
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
