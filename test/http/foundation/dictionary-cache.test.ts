import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../../src/server.js';
import { DICTIONARY_CHANNEL, DictionaryCache } from '../../../src/dictionary/cache.js';
import { synchroniseSchema } from '../../../src/dictionary/sync.js';
import { login, systemLogin } from '../../helpers/login.js';
import { startSecondInstance, startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually, sleep } from '../../helpers/wait.js';
import { notifyAndWait, watchedDb } from '../../helpers/watched-db.js';

describe('dictionary cache', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('reloads when a dictionary row changes through the API', async () => {
    const token = await systemLogin(server);
    const before = server.services.dictionary.current;
    assert.equal(before.byName.get('c_bpartner')?.label, 'Business Partner');
    const r = await server.request('PUT', '/api/v1/models/ad_table/291', { token, body: { Name: 'Customer or Vendor' } });
    assert.equal(r.status, 200, r.text);
    await eventually(() => server.services.dictionary.current.byName.get('c_bpartner')?.label === 'Customer or Vendor', 'the new table name is in the cache');
    assert.ok(server.services.dictionary.current.version > before.version);
  });

  it('a change committed while the cache makes its first load is not missed', async () => {
    const db = server.services.db;
    const watched = watchedDb(db, 'FROM ad_table t');
    const release = watched.holdNext();
    const opening = DictionaryCache.open(watched.db);
    await eventually(() => watched.answered() === 1, 'the first load has read the tables');
    await db.query(`UPDATE ad_table SET name = 'Partner (changed during the load)' WHERE ad_table_id = 291`);
    await notifyAndWait(db, DICTIONARY_CHANNEL, 'ad_table');
    release();
    const cache = await opening;
    try {
      await eventually(() => cache.current.byName.get('c_bpartner')?.label === 'Partner (changed during the load)', 'the change made during the first load is in the cache');
    } finally {
      await cache.close();
    }
  });

  it('a column added to the dictionary and synchronised is served by the API with no code change', async () => {
    const system = await systemLogin(server);
    const created = await server.request('POST', '/api/v1/models/ad_column', {
      token: system,
      body: { AD_Table_ID: 291, ColumnName: 'Nickname', Name: 'Nickname', AD_Reference_ID: 10, FieldLength: 40, AD_Element_ID: 100, EntityType: 'U' },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(() => server.services.dictionary.current.byName.get('c_bpartner')?.byName.has('nickname') === true, 'the column is in the cache');
    const applied = await synchroniseSchema(server.services.db, server.services.dictionary.current);
    assert.deepEqual(applied.map((d) => `${d.table}.${d.column}`), ['C_BPartner.Nickname']);

    const admin = await login(server);
    const put = await server.request('PUT', '/api/v1/models/c_bpartner/117', { token: admin, body: { Nickname: 'CW' } });
    assert.equal(put.status, 200, put.text);
    const read = await server.request('GET', `/api/v1/models/c_bpartner?$filter=Nickname eq 'CW'&$select=Name,Nickname`, { token: admin });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body['row-count'], 1);
    assert.equal(read.body.records[0].Nickname, 'CW');
    assert.equal(read.body.records[0].id, 117);
  });
});

describe('dictionary cache on several instances sharing one PostgreSQL database', { skip: !process.env.DATABASE_URL }, () => {
  let a: TestServer;
  let b: RunningServer;
  before(async () => {
    a = await startTestServer();
    b = await startSecondInstance(a);
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('a dictionary change on one instance reaches the other', async () => {
    const token = await systemLogin(a);
    const r = await a.request('PUT', '/api/v1/models/ad_table/291', { token, body: { Name: 'Partner (shared)' } });
    assert.equal(r.status, 200, r.text);
    await eventually(() => b.services.dictionary.current.byName.get('c_bpartner')?.label === 'Partner (shared)', 'instance B reloaded its dictionary');
  });

  it('a SysConfig change on one instance reaches the other', async () => {
    assert.equal(await b.services.sysConfig.get('REST_MAX_RECORDS_SIZE'), '100');
    const token = await systemLogin(a);
    const list = await a.request('GET', `/api/v1/models/ad_sysconfig?$filter=Name eq 'REST_MAX_RECORDS_SIZE' and AD_Client_ID eq 0`, { token });
    assert.equal(list.status, 200, list.text);
    const id = list.body.records[0].id as number;
    const put = await a.request('PUT', `/api/v1/models/ad_sysconfig/${id}`, { token, body: { Value: '250' } });
    assert.equal(put.status, 200, put.text);
    let seen: string | null = null;
    for (let i = 0; i < 150 && seen !== '250'; i++) {
      seen = await b.services.sysConfig.get('REST_MAX_RECORDS_SIZE');
      if (seen !== '250') await sleep(20);
    }
    assert.equal(seen, '250');
  });

  it('a start reads the dictionary kept under the database stamp, and the database again once any write renews it', async () => {
    const db = a.services.db;
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-dict-'));
    const opened: DictionaryCache[] = [];
    const open = async () => {
      const watched = watchedDb(db, 'FROM ad_table t');
      const cache = await DictionaryCache.open(watched.db, { cacheDir });
      opened.push(cache);
      return { cache, read: watched.answered() };
    };
    try {
      const first = await open();
      assert.equal(first.read, 1, 'the first start reads the database');
      await eventually(() => fs.readdirSync(cacheDir).some((f) => /^dictionary-[0-9a-f-]{36}\.v8$/.test(f)), 'the dictionary is kept in a file');
      const second = await open();
      assert.equal(second.read, 0, 'the next start reads the file');
      assert.equal(second.cache.current.byName.get('c_bpartner')?.label, first.cache.current.byName.get('c_bpartner')?.label);
      // A write by plain SQL, outside the service, renews the stamp through the triggers.
      await db.query(`UPDATE ad_table SET name = 'Changed by SQL' WHERE ad_table_id = 291`);
      const third = await open();
      assert.equal(third.read, 1, 'a renewed stamp sends the start to the database');
      assert.equal(third.cache.current.byName.get('c_bpartner')?.label, 'Changed by SQL');
    } finally {
      for (const c of opened) await c.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
