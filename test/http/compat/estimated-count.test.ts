import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { clearSysConfig, setSysConfig } from '../auth/auth-helpers.js';

describe('estimated row counts', () => {
  let server: TestServer;
  let token: string;
  let exactCount: number;
  const list = (query: string, prefer?: string) =>
    server.request('GET', `/api/v1/models/c_bpartner?${query}`, { token, headers: prefer ? { prefer } : {} });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    exactCount = (await list('$top=1')).body['row-count'];
  });
  after(async () => {
    await server.close();
  });

  it('counts exactly by default and says so, without a Preference-Applied', async () => {
    const r = await list('$top=2');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-row-count-kind'), 'exact');
    assert.equal(r.headers.get('preference-applied'), null);
    assert.equal(r.body['row-count'], exactCount);
    assert.ok(exactCount > 2);
  });

  it('gives the planner estimate above the threshold, for the header and for $rowcount', async () => {
    await setSysConfig(server, 'REST_COUNT_ESTIMATE_THRESHOLD', '0', 11);
    try {
      const { rows } = await server.services.db.query<{ plan: unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM c_bpartner`);
      assert.ok(rows.length);
      for (const r of [await list('$top=2', 'count=estimated'), await list('$top=2&$rowcount=estimated')]) {
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('x-row-count-kind'), 'estimated');
        const n = r.body['row-count'];
        assert.ok(Number.isInteger(n) && n >= 2, `an estimate no smaller than the rows seen: ${n}`);
        assert.equal(r.headers.get('x-row-count'), String(n));
        assert.equal(r.body['page-count'], Math.ceil(n / 2));
      }
      assert.equal((await list('$top=2', 'count=estimated')).headers.get('preference-applied'), 'count=estimated');
      // A page that is not full tells the total itself, exactly.
      const last = await list(`$top=100`, 'count=estimated');
      assert.equal(last.headers.get('x-row-count-kind'), 'exact');
      assert.equal(last.body['row-count'], exactCount);
      // An explicit exact preference is honoured and applied.
      const exact = await list('$top=2', 'return=minimal, count=exact');
      assert.equal(exact.headers.get('x-row-count-kind'), 'exact');
      assert.equal(exact.headers.get('preference-applied'), 'count=exact');
      assert.equal(exact.body['row-count'], exactCount);
    } finally {
      await clearSysConfig(server, 'REST_COUNT_ESTIMATE_THRESHOLD');
    }
  });

  it('counts exactly below the threshold even when an estimate is asked for', async () => {
    await setSysConfig(server, 'REST_COUNT_ESTIMATE_THRESHOLD', '1000000', 11);
    try {
      const r = await list('$top=2', 'count=estimated');
      assert.equal(r.headers.get('x-row-count-kind'), 'exact');
      assert.equal(r.headers.get('preference-applied'), 'count=estimated');
      assert.equal(r.body['row-count'], exactCount);
      const nodata = await list('$top=2&showsql=nodata', 'count=estimated');
      assert.equal(nodata.body['row-count'], exactCount);
    } finally {
      await clearSysConfig(server, 'REST_COUNT_ESTIMATE_THRESHOLD');
    }
  });

  it('ignores preferences it does not know and refuses a bad $rowcount', async () => {
    const planned = await list('$top=2', 'count=planned');
    assert.equal(planned.headers.get('x-row-count-kind'), 'exact');
    assert.equal(planned.headers.get('preference-applied'), null);
    const bad = await list('$top=2&$rowcount=roughly');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.title, 'Invalid $rowcount');
  });
});
