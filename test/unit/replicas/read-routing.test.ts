import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { caughtUpAt, inService, isReplicaFailure, keepSamples, lagMs, lsnBytes, pickReplica, servesSession, type ReplicaView } from '../../../src/db/read-replicas/routing.js';
import { parseReadUrls, replicaName } from '../../../src/db/read-replicas/read-urls.js';
import { loadConfig } from '../../../src/config.js';

const rules = { maxLagMs: 5_000, writeWindowMs: 2_000 };
const replica = (caught: number | null, healthy = true): ReplicaView => ({ healthy, caughtUpAt: caught });

describe('read routing: positions and lag', () => {
  it('reads WAL positions as byte counts and refuses malformed ones', () => {
    assert.equal(lsnBytes('0/16B3748'), 0x16b3748n);
    assert.equal(lsnBytes('1/0'), 1n << 32n);
    assert.ok(lsnBytes('16/B374D848')! > lsnBytes('16/B374D847')!);
    assert.equal(lsnBytes(null), null);
    assert.equal(lsnBytes('16-B374'), null);
    assert.equal(lsnBytes('G/0'), null);
  });

  it('dates a replica by the newest primary sample it has replayed, and keeps its old date when it replays nothing new', () => {
    const samples = [{ at: 1000, lsn: 100n }, { at: 2000, lsn: 200n }, { at: 3000, lsn: 300n }];
    assert.equal(caughtUpAt(samples, 300n, null), 3000);
    assert.equal(caughtUpAt(samples, 250n, null), 2000);
    assert.equal(caughtUpAt(samples, 99n, null), null);
    assert.equal(caughtUpAt(samples, 99n, 500), 500, 'no sample qualifies: the previous moment stays');
    assert.equal(caughtUpAt(samples, 150n, 1500), 1500, 'the moment never goes back');
  });

  it('keeps the samples a replica may still need, at most a bounded number', () => {
    const samples = Array.from({ length: 10 }, (_, i) => ({ at: i * 100, lsn: BigInt(i) }));
    assert.deepEqual(keepSamples(samples, 750).map((s) => s.at), [800, 900]);
    assert.equal(keepSamples(samples, -Infinity).length, 10);
    assert.deepEqual(keepSamples(samples, -Infinity, 3).map((s) => s.at), [700, 800, 900]);
  });

  it('measures lag from the moment a replica caught up, unknown before its first check', () => {
    assert.equal(lagMs(replica(9_000), 10_000), 1_000);
    assert.equal(lagMs(replica(null), 10_000), Infinity);
    assert.equal(lagMs(replica(10_500), 10_000), 0);
  });
});

describe('read routing: which server serves a read', () => {
  const now = 100_000;

  it('leaves out a replica that fails or lags past the bound, and takes it back once it is within it', () => {
    assert.equal(inService(replica(now - 4_999), now, rules), true);
    assert.equal(inService(replica(now - 5_000), now, rules), true, 'the bound itself is allowed');
    assert.equal(inService(replica(now - 5_001), now, rules), false);
    assert.equal(inService(replica(now - 100, false), now, rules), false, 'a failing replica is out whatever its lag');
    assert.equal(inService(replica(null), now, rules), false, 'never checked: out');
  });

  it("sends a session's reads to the primary during the window after its write, then to a replica that holds the write", () => {
    const caughtUp = replica(now - 100);
    assert.equal(servesSession(caughtUp, now, rules, null), true, 'no write remembered');
    assert.equal(servesSession(caughtUp, now, rules, now - 1_000), false, 'within the window');
    assert.equal(servesSession(caughtUp, now, rules, now - 2_000), true, 'window over and the replica caught up after the write');
    const behind = replica(now - 3_000);
    assert.equal(servesSession(behind, now, rules, now - 2_500), false, 'window over but the replica has not replayed the write');
    assert.equal(servesSession(behind, now, rules, now - 3_500), true);
    assert.equal(servesSession(behind, now, { ...rules, writeWindowMs: 0 }, now - 3_001), true, 'no window: only the position counts');
  });

  it('takes the replicas that may serve in turn, and the primary when none may', () => {
    const replicas = [replica(now - 100), replica(now - 10_000), replica(now - 200)];
    assert.equal(pickReplica(replicas, now, rules, null, 0), 0);
    assert.equal(pickReplica(replicas, now, rules, null, 1), 2, 'the lagging one is skipped');
    assert.equal(pickReplica(replicas, now, rules, null, 2), 2);
    assert.equal(pickReplica(replicas, now, rules, null, 3 % 3), 0);
    assert.equal(pickReplica(replicas, now, rules, now - 500, 0), -1, 'a fresh write: primary');
    assert.equal(pickReplica([replica(now, false)], now, rules, null, 0), -1);
    assert.equal(pickReplica([], now, rules, null, 0), -1);
  });
});

describe('read routing: failures that send a read to the primary', () => {
  it('counts lost or refused connections, shutdowns and recovery conflicts, not errors of the read itself', () => {
    assert.equal(isReplicaFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' })), true);
    assert.equal(isReplicaFailure(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed')), true);
    assert.equal(isReplicaFailure(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), true);
    assert.equal(isReplicaFailure(Object.assign(new Error('the database system is shutting down'), { code: '57P03' })), true);
    assert.equal(isReplicaFailure(Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' })), true);
    assert.equal(isReplicaFailure(Object.assign(new Error('connection failure'), { code: '08006' })), true);
    assert.equal(isReplicaFailure(new Error('Connection terminated unexpectedly')), true);
    assert.equal(isReplicaFailure(Object.assign(new Error('syntax error'), { code: '42601' })), false);
    assert.equal(isReplicaFailure(Object.assign(new Error('division by zero'), { code: '22012' })), false);
    assert.equal(isReplicaFailure(new Error('Record not found')), false);
    assert.equal(isReplicaFailure(undefined), false);
  });
});

describe('DATABASE_READ_URL', () => {
  const primary = 'postgres://u@db:5432/erp';

  it('takes a comma-separated list of postgres URLs', () => {
    assert.deepEqual(parseReadUrls(undefined, primary), []);
    assert.deepEqual(parseReadUrls(' ', primary), []);
    assert.deepEqual(parseReadUrls('postgres://u@r1/erp, postgresql://u:p@r2:5433/erp', primary), ['postgres://u@r1/erp', 'postgresql://u:p@r2:5433/erp']);
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/erp' });
    assert.deepEqual(config.databaseReadUrls, ['postgres://u@r1/erp']);
    assert.equal(config.replicaPollMs, 500);
    assert.deepEqual(loadConfig({}).databaseReadUrls, []);
  });

  it('stops the start with a clear message for a list it cannot use', () => {
    assert.throws(() => parseReadUrls('postgres://u@r1/erp', null), /DATABASE_READ_URL needs DATABASE_URL/);
    assert.throws(() => parseReadUrls('mysql://u@r1/erp', primary), /comma-separated list of postgres:\/\/ URLs with a host; entry 1/);
    assert.throws(() => parseReadUrls('postgres://u@r1/erp,r2:5432', primary), /entry 2 is not one/);
    assert.throws(() => parseReadUrls('postgres://u@r1/erp,postgres://u@r1/erp', primary), /more than once/);
    assert.throws(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'nonsense' }), /DATABASE_READ_URL/);
    assert.throws(() => loadConfig({ DATABASE_URL: primary, DICTUM_REPLICA_POLL_MS: '10' }), /DICTUM_REPLICA_POLL_MS must be an integer from 50/);
  });

  it('names a replica by host, port and database, without its credentials', () => {
    assert.equal(replicaName('postgres://user:secret@r1:5433/erp'), 'r1:5433/erp');
    assert.equal(replicaName('postgres://r1'), 'r1:5432');
  });
});
