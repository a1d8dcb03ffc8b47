// `npm run bench -- --instances 1,2,3`: the read by id, the list read and the order create +
// complete against N Dictum instances on one PostgreSQL database, behind a round-robin balancer
// of the benchmark's own (bench/balancer.mjs), with the CPU of every party beside the figures.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { connect, databaseName } from './database.mjs';
import { startCpuMeter } from './cpu.mjs';
import { sampleBackends } from './pg-waits.mjs';
import { track } from './children.mjs';
import { ensureOrdersInUse } from './orders-in-use.mjs';
import { round } from './report.mjs';
import { orderLookups, scenarioList } from './scenarios.mjs';
import { freePort, getJson, loginSession, waitIdle } from './server.mjs';

/** The scenarios measured at each N, in this order. */
export const INSTANCE_SCENARIOS = ['byId', 'list', 'createCompleteOrder'];

/** Starts the balancer in front of `servers`; resolves with {pid, baseUrl, stop()} once it listens. */
export async function startBalancer(root, servers) {
  const port = await freePort();
  const targets = servers.map((s) => new URL(s.baseUrl).host).join(',');
  const child = track(spawn(process.execPath, [path.join(root, 'bench', 'balancer.mjs'), '--port', String(port), '--targets', targets], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the balancer exited with ${code}: ${err.trim()}`)));
  });
  return {
    pid: child.pid,
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Pids of PostgreSQL's backends serving database `name` (pg_stat_activity), the asking one left out. */
export async function backendPids(client, name) {
  const r = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  return r.rows.map((x) => Number(x.pid));
}

/**
 * Runs the scenarios at each N of opts.instances behind a balancer of its own over the first N
 * instances (all started first; idle ones wait). Each of opts.rounds rounds measures every
 * scenario at every N back to back, so that the N compared meet the same moments of a shared
 * machine whose load drifts. `first` is the instance prepareDatabase started.
 * Returns {instances, rounds, scenarios: {key: {title, connections, runs: {N: figures}}}}.
 */
export async function instancesPhase({ root, ctx, databaseUrl, first, startServer, stopServer, log }) {
  const { opts, driver, workDir } = ctx;
  const counts = [...opts.instances].sort((a, b) => a - b);
  const servers = [first];
  const balancers = new Map();
  const meterClient = await connect(databaseUrl);
  const sampleClient = await connect(databaseUrl);
  const dbName = databaseName(databaseUrl);
  const out = { instances: counts, rounds: opts.rounds, connections: opts.connections, cpus: os.cpus().length, scenarios: {} };
  try {
    const session = await loginSession(first.baseUrl);
    const lookups = await orderLookups((p) => getJson(first.baseUrl, p, session.token), session.userId);
    for (const note of lookups.notes) log(`  order lookup failed (${note}); using the demo's value`);
    const all = scenarioList({ rows: opts.rows, prefix: opts.prefix, uuidFile: '', order: lookups.order });
    const orderDesc = all.find((s) => s.key === 'createOrder');
    const created = await ensureOrdersInUse({ client: meterClient, baseUrl: first.baseUrl, token: session.token, desc: orderDesc });
    if (created) log(`  created ${created.toLocaleString('en-US')} orders through the service first, as a database in use holds`);
    // Every scenario runs at the same concurrency here (the order too), so that N instances have work to share.
    const descs = INSTANCE_SCENARIOS.filter((k) => !opts.only || opts.only.includes(k)).map((k) => ({ ...all.find((s) => s.key === k), connections: opts.connections }));
    while (servers.length < counts[counts.length - 1]) {
      const s = await startServer(databaseUrl);
      log(`  instance ${servers.length + 1} up in ${(s.startMs / 1000).toFixed(1)} s (pid ${s.pid})`);
      servers.push(s);
    }
    for (const n of counts) balancers.set(n, await startBalancer(root, servers.slice(0, n)));
    const measured = [];
    for (let round = 1; round <= opts.rounds; round++) {
      log(`== round ${round} of ${opts.rounds}`);
      for (const desc of descs) {
        for (const n of counts) {
          const active = servers.slice(0, n);
          const balancer = balancers.get(n);
          const tag = `${ctx.tag}r${round}i${n}${desc.key}`;
          const args = { baseUrl: balancer.baseUrl, desc, token: session.token, connections: desc.connections, threads: opts.threads, workDir, seed: opts.seed };
          if (opts.warmup > 0) await driver.run({ ...args, seconds: opts.warmup, tag: `${tag}w` });
          for (const s of active) await waitIdle(s.pid);
          const meter = await startCpuMeter({
            dictum: () => active.map((s) => s.pid),
            postgres: () => backendPids(meterClient, dbName),
            balancer: () => [balancer.pid],
          });
          const sampler = sampleBackends(sampleClient, dbName);
          const r = await driver.run({ ...args, seconds: opts.duration, tag });
          const cpu = await meter.stop();
          const backends = await sampler.stop();
          measured.push({ key: desc.key, n, run: r, cpu, backends });
          log(`  ${desc.key.padEnd(20)} N=${n} ${String(Math.round(r.rps)).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  errors ${r.errors}  CPU cores: Dictum ${cpu.dictum.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, balancer ${cpu.balancer.toFixed(2)}, wrk ${(cpu.loadGenerator ?? 0).toFixed(2)}; machine ${Math.round((cpu.machineBusy ?? 0) * 100)}% busy`);
        }
      }
    }
    for (const d of descs) out.scenarios[d.key] = { title: d.title, connections: d.connections, runs: combineRuns(measured.filter((m) => m.key === d.key)) };
  } finally {
    for (const b of balancers.values()) await b.stop();
    await meterClient.end();
    await sampleClient.end();
    for (const s of servers.slice(1)) await stopServer(s);
  }
  addRatios(out);
  return out;
}

/**
 * The measurements of one scenario ({n, run, cpu} each, rounds together) per instance count:
 * requests over seconds of all rounds, the mean of each round's p50, the largest p99, errors
 * summed, and each CPU figure weighted by its round's length.
 */
export function combineRuns(measured) {
  const runs = {};
  for (const n of [...new Set(measured.map((m) => m.n))].sort((a, b) => a - b)) {
    const ms = measured.filter((m) => m.n === n);
    const seconds = ms.reduce((a, m) => a + m.run.seconds, 0);
    const cpuSeconds = ms.reduce((a, m) => a + m.cpu.seconds, 0);
    const cpu = (name) => {
      const known = ms.filter((m) => typeof m.cpu[name] === 'number');
      if (!known.length) return null;
      const secs = known.reduce((a, m) => a + m.cpu.seconds, 0);
      return round(known.reduce((a, m) => a + m.cpu[name] * m.cpu.seconds, 0) / secs);
    };
    runs[n] = {
      rounds: ms.length,
      requests: ms.reduce((a, m) => a + m.run.requests, 0),
      rps: round(ms.reduce((a, m) => a + m.run.requests, 0) / seconds, 1),
      roundsRps: ms.map((m) => round(m.run.rps, 1)),
      p50Ms: round(ms.reduce((a, m) => a + m.run.p50, 0) / ms.length, 3),
      p99Ms: round(Math.max(...ms.map((m) => m.run.p99)), 3),
      errors: ms.reduce((a, m) => a + m.run.errors, 0),
      cpu: { dictum: cpu('dictum'), postgres: cpu('postgres'), balancer: cpu('balancer'), loadGenerator: cpu('loadGenerator'), machineBusy: cpu('machineBusy') },
      cpuSeconds: round(cpuSeconds, 1),
      backends: meanBackends(ms.map((m) => m.backends).filter(Boolean)),
    };
  }
  return runs;
}

/** The mean of rounds' backend states (pg-waits.mjs), weighted by their samples; null without any. */
function meanBackends(list) {
  const samples = list.reduce((a, b) => a + b.samples, 0);
  if (!samples) return null;
  const out = { samples };
  for (const k of ['running', 'lock', 'otherWait', 'inTransaction', 'idle']) out[k] = round(list.reduce((a, b) => a + b[k] * b.samples, 0) / samples);
  return out;
}

/** Each run's req/s as a ratio to the same scenario's run on the fewest instances measured. */
export function addRatios(out) {
  for (const s of Object.values(out.scenarios)) {
    const ns = Object.keys(s.runs).map(Number).sort((a, b) => a - b);
    const base = s.runs[ns[0]]?.rps;
    for (const n of ns) s.runs[n].ratio = base ? round(s.runs[n].rps / base) : null;
  }
  return out;
}
