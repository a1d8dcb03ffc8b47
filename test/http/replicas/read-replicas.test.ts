import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/server.js';
import { MAX_LAG_KEY, WRITE_WINDOW_KEY } from '../../../src/db/read-replicas/read-router.js';
import { replicaName } from '../../../src/db/read-replicas/read-urls.js';
import { REPLICA_APPLICATION_NAME } from '../../../src/db/read-replicas/open-read-router.js';
import { cacheDir } from '../../helpers/database.js';
import { asTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { sleep } from '../../helpers/wait.js';
import { replicaTestsUnavailable, startStandbyCluster, type StandbyCluster } from './standby-cluster.js';

const MAX_LAG_MS = 4_000;
const WRITE_WINDOW_MS = 1_000;

/** The figures of /metrics as `name{labels}` -> value. */
async function metrics(server: TestServer): Promise<Map<string, number>> {
  const r = await server.request('GET', '/metrics');
  assert.equal(r.status, 200, r.text);
  const out = new Map<string, number>();
  for (const line of r.text.split('\n')) {
    const m = /^(\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await sleep(100);
  }
}

async function onStandby(cluster: StandbyCluster, sql: string, params: unknown[] = []): Promise<Array<Record<string, any>>> {
  const c = cluster.standby();
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

describe('read replicas (DATABASE_READ_URL)', { skip: replicaTestsUnavailable() ?? false, timeout: 120_000 }, () => {
  let cluster: StandbyCluster;
  let server: TestServer;
  /** A second instance on the same primary and replica. */
  let second: TestServer;
  let replica: string;
  /** A session that writes, another that reads, and the least privileged demo role. */
  let writer: string;
  let reader: string;
  let user: string;

  const served = async (target: string) => (await metrics(server)).get(`dictum_db_read_requests_total{target="${target}"}`) ?? 0;
  const inService = async () => (await metrics(server)).get(`dictum_db_replica_in_service{replica="${replica}"}`);
  /** Runs a read and says where it went. */
  const routed = async (read: () => Promise<{ status: number }>): Promise<{ status: number; to: 'replica' | 'primary' }> => {
    const [r0, p0] = [await served(replica), await served('primary')];
    const r = await read();
    const [r1, p1] = [await served(replica), await served('primary')];
    assert.equal(r1 - r0 + (p1 - p0), 1, 'one routed read');
    return { status: r.status, to: r1 > r0 ? 'replica' : 'primary' };
  };

  before(async () => {
    cluster = await startStandbyCluster();
    replica = replicaName(cluster.standbyUrl);
    const primary = new pg.Client({ connectionString: cluster.primaryUrl });
    await primary.connect();
    try {
      // The rows the migration added, at system level.
      for (const [key, value] of [[MAX_LAG_KEY, MAX_LAG_MS], [WRITE_WINDOW_KEY, WRITE_WINDOW_MS]] as const) {
        const set = await primary.query(`UPDATE ad_sysconfig SET value = $2 WHERE name = $1 AND ad_client_id = 0 AND ad_org_id = 0 AND configurationlevel = 'S'`, [key, String(value)]);
        assert.equal(set.rowCount, 1, key);
      }
    } finally {
      await primary.end();
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-test-'));
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DICTUM_DATA_DIR: dataDir, DATABASE_URL: cluster.primaryUrl, DATABASE_READ_URL: cluster.standbyUrl, DICTUM_REPLICA_POLL_MS: '200', METRICS_KEY: '', DB_POOL_SIZE: '3' };
    const start = () => startServer({ ...loadConfig(env), cacheDir }, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
    server = asTestServer(await start(), async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    second = asTestServer(await start());
    writer = await login(server);
    reader = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    await until(async () => (await inService()) === 1, 'the replica is in service');
  });

  after(async () => {
    await second?.close();
    await server?.close();
    await cluster?.close();
  });

  it('serves list reads and reads by id from the replica, with the access rules of the caller applied there', async () => {
    const list = await routed(() => server.request('GET', '/api/v1/models/c_bpartner?$top=20&$orderby=C_BPartner_ID', { token: user }));
    assert.deepEqual(list, { status: 200, to: 'replica' });
    const page = await server.request('GET', '/api/v1/models/c_bpartner?$top=20&$orderby=C_BPartner_ID', { token: user });
    assert.ok(page.body.records.length > 0);
    for (const r of page.body.records) assert.equal(r.AD_Client_ID.id, 11, 'only the caller client\'s partners');
    const byId = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${page.body.records[0].id}`, { token: user }));
    assert.deepEqual(byId, { status: 200, to: 'replica' });
    const [activity] = await onStandby(cluster, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [REPLICA_APPLICATION_NAME]);
    assert.ok(activity!.n > 0, 'the standby shows the read connections');
  });

  it('serves views, references, chart data and info window pages from the replica', async () => {
    for (const url of ['/api/v1/views/businessPartners?$top=3', '/api/v1/references/152', '/api/v1/charts/50000/data', '/api/v1/infos/product-info']) {
      const r = await routed(() => server.request('GET', url, { token: reader }));
      assert.deepEqual(r, { status: 200, to: 'replica' }, url);
    }
  });

  it('answers a bad read on the replica with a 400, not a retry on the primary', async () => {
    const before = (await metrics(server)).get('dictum_db_replica_read_retries_total') ?? 0;
    const r = await server.request('GET', "/api/v1/models/c_bpartner?$filter=Name eq 'x' and", { token: user });
    assert.equal(r.status, 400);
    assert.equal(typeof r.body.title, 'string');
    assert.equal(typeof r.body.detail, 'string');
    assert.equal((await metrics(server)).get('dictum_db_replica_read_retries_total') ?? 0, before);
  });

  let partnerId = 0;

  it("reads a session's own write at once, while another session may still read the replica's older state within the bound", async () => {
    await onStandby(cluster, 'SELECT pg_wal_replay_pause()');
    const created = await server.request('POST', '/api/v1/models/c_bpartner', { token: writer, body: { Name: 'Written while the replica waits', C_BP_Group_ID: 103 } });
    assert.equal(created.status, 201, created.text);
    partnerId = created.body.id;
    const written = Date.now();
    const own = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: writer }));
    assert.deepEqual(own, { status: 200, to: 'primary' });
    const other = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: reader }));
    const onSecond = await second.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: reader });
    assert.ok(Date.now() - written < MAX_LAG_MS, 'still within the lag bound');
    assert.deepEqual(other, { status: 404, to: 'replica' }, 'another session reads the replica, which has not replayed the write yet');
    assert.equal(onSecond.status, 404, 'so it does on the other instance');
    // Another instance heard of the write: the session's read there keeps to the primary too (the paused replica would answer 404).
    const elsewhere = await second.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: writer });
    assert.equal(elsewhere.status, 200, 'read-your-writes on another instance');
    // Past the window, the writer's reads still stay on the primary: the replica does not hold its write.
    await sleep(WRITE_WINDOW_MS + 200 - (Date.now() - written));
    const later = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: writer }));
    assert.deepEqual(later, { status: 200, to: 'primary' });
  });

  it('leaves out the replica once it lags past the bound, so that every read is fresh again', async () => {
    await until(async () => (await inService()) === 0, 'the lagging replica is left out', MAX_LAG_MS + 5_000);
    const lag = (await metrics(server)).get(`dictum_db_replica_lag_seconds{replica="${replica}"}`)!;
    assert.ok(lag * 1000 > MAX_LAG_MS, `lag ${lag} s is past the bound`);
    const other = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: reader }));
    assert.deepEqual(other, { status: 200, to: 'primary' });
  });

  it('takes the replica back once it has caught up', async () => {
    await onStandby(cluster, 'SELECT pg_wal_replay_resume()');
    await until(async () => (await inService()) === 1, 'the replica is back in service');
    const other = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: reader }));
    assert.deepEqual(other, { status: 200, to: 'replica' });
    const own = await routed(() => server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: writer }));
    assert.deepEqual(own, { status: 200, to: 'replica' }, 'the replica now holds the write');
  });

  it('sends reads to the primary without an error when the standby stops', async () => {
    await cluster.stopStandby();
    for (let i = 0; i < 5; i++) {
      const list = await server.request('GET', '/api/v1/models/c_bpartner?$top=5', { token: reader });
      assert.equal(list.status, 200, list.text);
      const one = await server.request('GET', `/api/v1/models/c_bpartner/${partnerId}`, { token: reader });
      assert.equal(one.status, 200, one.text);
    }
    await until(async () => (await inService()) === 0, 'the stopped replica is left out');
    const after = await routed(() => server.request('GET', '/api/v1/models/c_bpartner?$top=5', { token: user }));
    assert.deepEqual(after, { status: 200, to: 'primary' });
  });
});
