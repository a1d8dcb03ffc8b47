import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthService } from '../../../src/auth/service.js';
import { ACCESS_CHANNEL } from '../../../src/events/cache-notifications.js';
import { OperationMemo } from '../../../src/events/operation-memo.js';
import { SYSCONFIG_CHANNEL, SysConfig } from '../../../src/sysconfig/sysconfig.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually } from '../../helpers/wait.js';
import { notifyAndWait, watchedDb } from '../../helpers/watched-db.js';

// A change notified while a read is under way must not leave that read's old answer in the cache.

describe('caches emptied by change notifications', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('SysConfig: a value changed while it was being read is read again next time', async () => {
    const db = server.services.db;
    await db.query(`UPDATE ad_sysconfig SET value = 'old' WHERE name = 'REST_MAX_RECORDS_SIZE' AND ad_client_id = 0`);
    const watched = watchedDb(db, 'FROM ad_sysconfig');
    const sysConfig = new SysConfig(watched.db);
    await sysConfig.listen(watched.db);
    try {
      const release = watched.holdNext();
      const reading = sysConfig.get('REST_MAX_RECORDS_SIZE');
      await eventually(() => watched.answered() === 1, 'the read has seen the row');
      await db.query(`UPDATE ad_sysconfig SET value = 'new' WHERE name = 'REST_MAX_RECORDS_SIZE' AND ad_client_id = 0`);
      await notifyAndWait(db, SYSCONFIG_CHANNEL, 'REST_MAX_RECORDS_SIZE');
      release();
      assert.equal(await reading, 'old', 'the read under way saw the row before the change');
      assert.equal(await sysConfig.get('REST_MAX_RECORDS_SIZE'), 'new');
      assert.equal(watched.reads.length, 2);
    } finally {
      await sysConfig.close();
      await db.query(`UPDATE ad_sysconfig SET value = '100' WHERE name = 'REST_MAX_RECORDS_SIZE' AND ad_client_id = 0`);
      // Waited for: on a server the notification would otherwise empty the next test's cache late.
      await notifyAndWait(db, SYSCONFIG_CHANNEL, 'REST_MAX_RECORDS_SIZE');
    }
  });

  it('SysConfig: reads inside a transaction use the cache, except in one that wrote AD_SysConfig', async () => {
    const s = server.services;
    const name = 'REST_MAX_RECORDS_SIZE';
    await s.db.query(`UPDATE ad_sysconfig SET value = '100' WHERE name = $1 AND ad_client_id = 0`, [name]);
    s.sysConfig.clear();
    assert.equal(await s.sysConfig.get(name), '100');
    // Changed behind the cache's back (no notification): a cached read still answers the old value.
    await s.db.query(`UPDATE ad_sysconfig SET value = '77' WHERE name = $1 AND ad_client_id = 0`, [name]);
    try {
      await s.db.tx(async (tx) => {
        assert.equal(await s.sysConfig.get(name, 0, 0, tx), '100', 'a transaction reads the cached value');
        await tx.query(`UPDATE ad_sysconfig SET value = '88' WHERE name = $1 AND ad_client_id = 0`, [name]);
        const table = s.dictionary.current.byName.get('ad_sysconfig')!;
        await s.events.emit({
          type: 'after-change', table, row: { name, value: '88', ad_client_id: 0, ad_org_id: 0 }, old: { name, value: '77' }, changed: new Set(['value']), tx,
          dict: s.dictionary.current, auth: { clientId: 0, orgId: 0, userId: 100, roleId: 0 } as Parameters<typeof s.events.emit>[0]['auth'], defer: () => undefined, memo: new OperationMemo(),
        });
        assert.equal(await s.sysConfig.get(name, 0, 0, tx), '88', 'the writing transaction reads its own row');
        throw new Error('roll back');
      }).catch((e: Error) => assert.equal(e.message, 'roll back'));
      assert.equal(await s.sysConfig.get(name), '77', 'what the rolled-back transaction read was not kept');
    } finally {
      await s.db.query(`UPDATE ad_sysconfig SET value = '100' WHERE name = $1 AND ad_client_id = 0`, [name]);
      s.sysConfig.clear();
    }
  });

  it('role access: a role changed while its access was being read is read again next time', async () => {
    const db = server.services.db;
    const watched = watchedDb(db, 'FROM ad_role WHERE');
    const auth = new AuthService({ ...server.services, db: watched.db });
    await auth.start();
    try {
      const level = async () => (await db.query<{ userlevel: string }>(`SELECT userlevel FROM ad_role WHERE ad_role_id = 102`)).rows[0]!.userlevel;
      const oldLevel = await level();
      const release = watched.holdNext();
      const reading = auth.roleAccess(102, 100);
      await eventually(() => watched.answered() === 1, 'the read has seen the role');
      await db.query(`UPDATE ad_role SET userlevel = ' C ' WHERE ad_role_id = 102`);
      await notifyAndWait(db, ACCESS_CHANNEL, 'ad_role');
      release();
      assert.equal((await reading).userLevel, oldLevel.padEnd(3, ' '), 'the read under way saw the role before the change');
      assert.equal(auth.roleAccessCached(102, 100), null, 'what it saw is not kept');
      assert.equal((await auth.roleAccess(102, 100)).userLevel, ' C ');
      await db.query(`UPDATE ad_role SET userlevel = $1 WHERE ad_role_id = 102`, [oldLevel]);
      await db.query('SELECT pg_notify($1, $2)', [ACCESS_CHANNEL, 'ad_role']);
    } finally {
      await auth.stop();
    }
  });
});
