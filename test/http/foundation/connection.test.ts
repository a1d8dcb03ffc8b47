import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

describe('one connection for the statements of a request', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('runs every statement of the work on the same server session', async () => {
    const pids = await server.services.db.connection(async (q) => {
      const out: number[] = [];
      for (let i = 0; i < 5; i++) out.push(Number((await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid));
      return out;
    });
    assert.equal(new Set(pids).size, 1, `one session: ${pids.join(', ')}`);
  });

  it('gives the connection back, after success and after failure', { timeout: 60_000 }, async () => {
    // More rounds than the pool holds connections: a connection kept would stall a later round.
    for (let i = 0; i < 25; i++) {
      const work = server.services.db.connection(async (q) => {
        await q.query('SELECT 1');
        if (i % 2) throw new Error('work failed');
        return i;
      });
      if (i % 2) await assert.rejects(work, /work failed/);
      else assert.equal(await work, i);
    }
    const r = await server.services.db.query<{ n: number }>('SELECT 1 AS n');
    assert.equal(Number(r.rows[0]!.n), 1);
  });

  it('serves list reads that count past the page under concurrent load', async () => {
    const token = await login(server);
    const replies = await Promise.all(Array.from({ length: 30 }, () => server.request('GET', '/api/v1/models/c_bpartner?$top=2&$orderby=Name', { token })));
    for (const r of replies) {
      assert.equal(r.status, 200);
      assert.equal(r.body['array-count'], 2);
      assert.ok(r.body['row-count'] > 2);
    }
  });
});
