import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseInstances, parseOptions } from '../lib/options.mjs';
import { addRatios, combineRuns } from '../lib/instances.mjs';
import { formatInstancesTable, otherCpu } from '../lib/instances-report.mjs';
import { readMachineTicks } from '../lib/cpu.mjs';
import { backendState, summarizeSamples } from '../lib/pg-waits.mjs';

test('--instances takes distinct counts from 1 to 8, ascending; without it the main run is chosen', () => {
  assert.deepEqual(parseOptions(['--instances', '3,1,2,2']).instances, [1, 2, 3]);
  assert.deepEqual(parseOptions(['--instances=1,4']).instances, [1, 4]);
  assert.equal(parseOptions(['--instances', '1,2']).rounds, 2);
  assert.equal(parseOptions(['--instances', '1,2', '--rounds', '3']).rounds, 3);
  assert.throws(() => parseOptions(['--rounds', '0']), /--rounds takes an integer from 1 to 20/);
  assert.equal(parseOptions([]).instances, null);
  for (const bad of ['', '0,1', '1,9', '1,x', '1.5']) assert.throws(() => parseInstances(bad), /--instances takes/);
  assert.throws(() => parseOptions(['--instances']), /needs a value/);
});

const run = (rps, cpu) => ({ rps, roundsRps: [rps], p50Ms: 12.5, p99Ms: 40, errors: 0, cpu });

test('ratios are to the fewest instances measured; the table shows every party\'s CPU and the rest of the machine', () => {
  const out = addRatios({
    cpus: 2,
    scenarios: {
      byId: { title: 'read by id', connections: 32, runs: { 1: run(2000, { dictum: 0.9, postgres: 0.5, balancer: 0.1, loadGenerator: 0.1, machineBusy: 1 }), 2: run(2400, { dictum: 1.0, postgres: 0.6, balancer: 0.1, loadGenerator: 0.1, machineBusy: 1 }) } },
      list: { title: 'list read', connections: 32, runs: { 2: run(300, { dictum: 0.3, postgres: 1.2, balancer: 0.02, loadGenerator: 0.02, machineBusy: 0.9 }), 3: { ...run(150, { dictum: 0.2, postgres: 1.3, balancer: 0.01, loadGenerator: 0.01, machineBusy: null }), backends: { running: 0.5, lock: 3, otherWait: 0, inTransaction: 1.5, idle: 2 } } } },
    },
  });
  assert.equal(out.scenarios.byId.runs[1].ratio, 1);
  assert.equal(out.scenarios.byId.runs[2].ratio, 1.2);
  assert.equal(out.scenarios.list.runs[3].ratio, 0.5);
  const lines = formatInstancesTable(out).split('\n');
  assert.equal(lines.length, 5);
  assert.match(lines[0], /^scenario\s+N\s+req\/s\s+each round\s+vs N=1\s+p50 ms\s+errors\s+Dictum CPU\s+PostgreSQL CPU\s+balancer CPU\s+wrk CPU\s+other CPU\s+machine busy\s+PG run\/lock\/wait\/tx$/);
  assert.match(lines[1], /^read by id \(32 conn\)\s+1\s+2,000\s+2,000\s+1\.00x\s+12\.5\s+0\s+0\.90\s+0\.50\s+0\.10\s+0\.10\s+0\.40\s+100%\s+-$/);
  assert.match(lines[2], /^\s+2\s+2,400\s+2,400\s+1\.20x/);
  assert.match(lines[4], /^\s+3\s+150\s+150\s+0\.50x.*\s-\s+-\s+0\.5\/3\.0\/0\.0\/1\.5$/);
  assert.equal(otherCpu({ dictum: 1.5, postgres: 1, machineBusy: 1 }, 2), 0);
});

test('the machine\'s busy ticks leave out idle and iowait', () => {
  const t = readMachineTicks('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n');
  assert.deepEqual(t, { busy: 160, total: 1000 });
});

test('rounds combine into one figure per count: requests over seconds, CPU weighted by time', () => {
  const m = (n, requests, seconds, p50, cpu) => ({ n, run: { requests, seconds, rps: requests / seconds, p50, p99: p50 * 3, errors: n === 2 ? 1 : 0 }, cpu: { seconds, ...cpu } });
  const runs = combineRuns([
    m(1, 1000, 5, 10, { dictum: 0.5, postgres: 0.2, balancer: 0.1, loadGenerator: 0.1, machineBusy: 1 }),
    m(2, 1500, 5, 8, { dictum: 0.8, postgres: 0.3, balancer: 0.1, loadGenerator: 0.1, machineBusy: 1 }),
    m(1, 2000, 10, 20, { dictum: 0.8, postgres: 0.5, balancer: 0.1, loadGenerator: null, machineBusy: 0.5 }),
    m(2, 1500, 5, 12, { dictum: 1.0, postgres: 0.3, balancer: 0.1, loadGenerator: 0.1, machineBusy: 1 }),
  ]);
  assert.deepEqual(Object.keys(runs), ['1', '2']);
  assert.equal(runs[1].rps, 200);
  assert.deepEqual(runs[1].roundsRps, [200, 200]);
  assert.equal(runs[1].p50Ms, 15);
  assert.equal(runs[1].p99Ms, 60);
  assert.equal(runs[1].cpu.dictum, 0.7);
  assert.equal(runs[1].cpu.loadGenerator, 0.1);
  assert.equal(runs[1].cpu.machineBusy, 0.67);
  assert.equal(runs[2].rps, 300);
  assert.equal(runs[2].errors, 2);
  assert.equal(runs[2].cpu.dictum, 0.9);
});

test('the balancer hands each new connection to the next instance in turn', async () => {
  const http = await import('node:http');
  const path = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const { startBalancer } = await import('../lib/instances.mjs');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const servers = await Promise.all(['a', 'b'].map((name) => new Promise((resolve) => {
    const s = http.createServer((req, res) => res.end(name));
    s.listen(0, '127.0.0.1', () => resolve(s));
  })));
  const balancer = await startBalancer(root, servers.map((s) => ({ baseUrl: `http://127.0.0.1:${s.address().port}` })));
  try {
    const answers = [];
    for (let i = 0; i < 4; i++) {
      // A new agent per request: a connection of its own, as each wrk connection is.
      const agent = new http.Agent({ keepAlive: false });
      answers.push(await new Promise((resolve, reject) => {
        http.get(`${balancer.baseUrl}/`, { agent }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      }));
      agent.destroy();
    }
    assert.deepEqual(answers, ['a', 'b', 'a', 'b']);
  } finally {
    await balancer.stop();
    for (const s of servers) s.close();
  }
});

test('backends are running, waiting on a lock, waiting otherwise, in a transaction or idle; averaged per sample', () => {
  assert.equal(backendState({ state: 'active', wait_event_type: null }), 'running');
  assert.equal(backendState({ state: 'active', wait_event_type: 'Lock' }), 'lock');
  assert.equal(backendState({ state: 'active', wait_event_type: 'LWLock' }), 'otherWait');
  assert.equal(backendState({ state: 'idle in transaction', wait_event_type: 'Client' }), 'inTransaction');
  assert.equal(backendState({ state: 'idle', wait_event_type: 'Client' }), 'idle');
  const s = summarizeSamples([
    [{ state: 'active', wait_event_type: null }, { state: 'active', wait_event_type: 'Lock' }],
    [{ state: 'active', wait_event_type: 'Lock' }, { state: 'active', wait_event_type: 'Lock' }, { state: 'idle' }],
  ]);
  assert.deepEqual(s, { running: 0.5, lock: 1.5, otherWait: 0, inTransaction: 0, idle: 0.5, samples: 2 });
});
