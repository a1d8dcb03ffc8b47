import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Db, Queryable, Tx } from '../../../src/db/types.js';
import { ReadRouter } from '../../../src/db/read-replicas/read-router.js';

/** A database that answers the router's position queries and records which reads it ran. */
class FakeDb {
  readonly reads: string[] = [];
  lsn = '0/100';
  standby: boolean;
  /** When set, every query fails with it (a stopped server). */
  failure: Error | null = null;
  closed = false;
  constructor(readonly name: string, standby: boolean) {
    this.standby = standby;
  }
  asDb(): Db {
    const query: Queryable['query'] = async <R>(text: string) => {
      if (this.failure) throw this.failure;
      if (text.includes('pg_current_wal_lsn')) return { rows: [{ lsn: this.lsn }] as R[], rowCount: 1 };
      if (text.includes('pg_last_wal_replay_lsn')) return { rows: [{ standby: this.standby, lsn: this.lsn }] as R[], rowCount: 1 };
      this.reads.push(text);
      return { rows: [{ from: this.name }] as R[], rowCount: 1 };
    };
    return {
      kind: 'pg',
      query,
      connection: (fn) => fn({ query }),
      tx: (fn) => fn({ query } as unknown as Tx),
      exec: async () => undefined,
      listen: async () => async () => undefined,
      close: async () => {
        this.closed = true;
      },
    };
  }
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });

function router(rules = { maxLagMs: 60_000, writeWindowMs: 0 }) {
  const primary = new FakeDb('primary', false);
  const replica = new FakeDb('replica', true);
  const r = new ReadRouter({ primary: primary.asDb(), replicas: [{ url: 'postgres://u:secret@r1:5433/erp', db: replica.asDb() }], pollMs: 60_000, rules: async () => rules });
  return { primary, replica, r };
}

describe('read router', () => {
  it('sends everything to the primary without replicas', async () => {
    const primary = new FakeDb('primary', false);
    const r = new ReadRouter({ primary: primary.asDb(), replicas: [], pollMs: 1000, rules: async () => ({ maxLagMs: 1, writeWindowMs: 1 }) });
    await r.start();
    assert.equal(r.enabled, false);
    assert.deepEqual((await r.for(1).query('SELECT 1')).rows, [{ from: 'primary' }]);
    assert.equal(r.served.size, 0, 'nothing counted when nothing is routed');
    await r.close();
  });

  it('reads from a replica that has replayed the primary, and from the primary before its first check', async () => {
    const { r } = router();
    assert.deepEqual((await r.for(1).query('SELECT a')).rows, [{ from: 'primary' }], 'not checked yet: out');
    await r.check();
    assert.deepEqual((await r.for(1).query('SELECT b')).rows, [{ from: 'replica' }]);
    assert.deepEqual(await r.for(1).connection((q) => q.query('SELECT c').then((x) => x.rows)), [{ from: 'replica' }]);
    assert.deepEqual(await r.for(1).transaction((q) => q.query('SELECT d').then((x) => x.rows)), [{ from: 'replica' }]);
    // The lag is measured against the clock at each call, so only its presence is compared.
    const states = r.states();
    assert.equal(states.length, 1);
    const [state] = states;
    assert.deepEqual({ ...state, lagMs: typeof state!.lagMs }, { name: 'r1:5433/erp', healthy: true, inService: true, lagMs: 'number' });
    assert.equal(r.served.get('r1:5433/erp'), 3);
    assert.equal(r.served.get('primary'), 1);
    await r.close();
  });

  it('runs a read again on the primary when the replica fails, and leaves the replica out until a good check', async () => {
    const { primary, replica, r } = router();
    await r.check();
    replica.failure = refused();
    assert.deepEqual((await r.for(1).query('SELECT x')).rows, [{ from: 'primary' }]);
    assert.deepEqual(await r.for(1).connection((q) => q.query('SELECT y').then((x) => x.rows)), [{ from: 'primary' }], 'left out now: no second try on the replica');
    assert.equal(r.retried, 1);
    assert.deepEqual(primary.reads, ['SELECT x', 'SELECT y']);
    assert.equal(r.states()[0]!.inService, false);
    await r.check();
    assert.equal(r.states()[0]!.healthy, false, 'a failing check keeps it out');
    replica.failure = null;
    await r.check();
    assert.deepEqual((await r.for(1).query('SELECT z')).rows, [{ from: 'replica' }], 'back after a good check');
    await r.close();
  });

  it('passes on errors of the read itself without trying the primary', async () => {
    const { primary, replica, r } = router();
    await r.check();
    replica.failure = Object.assign(new Error('column "nope" does not exist'), { code: '42703' });
    await assert.rejects(r.for(1).query('SELECT nope'), /column "nope"/);
    assert.equal(primary.reads.length, 0);
    assert.equal(r.retried, 0);
    await r.close();
  });

  it("keeps a session's reads on the primary until the replica has replayed past its write", async () => {
    const { primary, replica, r } = router();
    await r.check();
    r.noteWrite(7);
    // Positions read in the millisecond of the write count as read before it.
    await new Promise((res) => setTimeout(res, 2));
    primary.lsn = '0/200';
    await r.check();
    assert.deepEqual((await r.for(7).query('SELECT mine')).rows, [{ from: 'primary' }], 'the replica is behind the write');
    assert.deepEqual((await r.for(8).query('SELECT theirs')).rows, [{ from: 'replica' }], 'another session may read it');
    replica.lsn = '0/200';
    await r.check();
    assert.deepEqual((await r.for(7).query('SELECT mine again')).rows, [{ from: 'replica' }]);
    await r.close();
  });

  it('leaves out a replica that is no longer a standby (promoted)', async () => {
    const { replica, r } = router();
    await r.check();
    replica.standby = false;
    await r.check();
    assert.equal(r.states()[0]!.inService, false);
    assert.deepEqual((await r.for(1).query('SELECT q')).rows, [{ from: 'primary' }]);
    await r.close();
    assert.equal(replica.closed, true, 'closing the router closes its replicas');
  });

  it('leaves out a replica whose lag passes the bound, by the clock, while it replays nothing', async () => {
    const { primary, r } = router({ maxLagMs: 50, writeWindowMs: 0 });
    await r.check();
    primary.lsn = '0/300';
    await r.check();
    assert.equal(r.states()[0]!.inService, true, 'behind, but within the bound');
    await new Promise((res) => setTimeout(res, 80));
    assert.equal(r.states()[0]!.inService, false);
    assert.ok(r.states()[0]!.lagMs! > 50);
    await r.close();
  });
});
