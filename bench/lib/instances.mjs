// `npm run bench -- --instances 1,2,3`: the read by id, the list read and the order create +
// complete against N Dictum instances on one PostgreSQL database, behind a round-robin balancer
// of the benchmark's own (bench/balancer.mjs), with the CPU of every party beside the figures.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { connect, databaseName } from './database.mjs';
import { startCpuMeter } from './cpu.mjs';
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
 * Runs the scenarios at each N of opts.instances (ascending), starting instances as N grows.
 * `first` is the instance prepareDatabase started; startServer/stopServer start and stop more.
 * Returns {instances, scenarios: {key: {title, connections, runs: {N: figures}}}}.
 */
export async function instancesPhase({ root, ctx, databaseUrl, first, startServer, stopServer, log }) {
  const { opts, driver, workDir } = ctx;
  const counts = [...opts.instances].sort((a, b) => a - b);
  const servers = [first];
  const meterClient = await connect(databaseUrl);
  const dbName = databaseName(databaseUrl);
  const out = { instances: counts, connections: opts.connections, cpus: os.cpus().length, scenarios: {} };
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
    for (const d of descs) out.scenarios[d.key] = { title: d.title, connections: d.connections, runs: {} };
    for (const n of counts) {
      while (servers.length < n) {
        const s = await startServer(databaseUrl);
        log(`  instance ${servers.length + 1} up in ${(s.startMs / 1000).toFixed(1)} s (pid ${s.pid})`);
        servers.push(s);
      }
      const active = servers.slice(0, n);
      const balancer = await startBalancer(root, active);
      log(`== ${n} instance${n > 1 ? 's' : ''} behind the balancer (${balancer.baseUrl})`);
      try {
        for (const desc of descs) {
          const tag = `${ctx.tag}i${n}${desc.key}`;
          const args = { baseUrl: balancer.baseUrl, desc, token: session.token, connections: desc.connections, threads: opts.threads, workDir, seed: opts.seed };
          if (opts.warmup > 0) await driver.run({ ...args, seconds: opts.warmup, tag: `${tag}w` });
          for (const s of active) await waitIdle(s.pid);
          const meter = await startCpuMeter({
            dictum: () => active.map((s) => s.pid),
            postgres: () => backendPids(meterClient, dbName),
            balancer: () => [balancer.pid],
          });
          const r = await driver.run({ ...args, seconds: opts.duration, tag });
          const cpu = await meter.stop();
          const figures = {
            rps: round(r.rps, 1),
            p50Ms: round(r.p50, 3),
            p99Ms: round(r.p99, 3),
            errors: r.errors,
            cpu: { dictum: round(cpu.dictum), postgres: round(cpu.postgres), balancer: round(cpu.balancer), loadGenerator: cpu.loadGenerator === null ? null : round(cpu.loadGenerator), machineBusy: cpu.machineBusy === null ? null : round(cpu.machineBusy) },
          };
          out.scenarios[desc.key].runs[n] = figures;
          log(`  ${desc.key.padEnd(20)} ${String(Math.round(r.rps)).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  errors ${r.errors}  CPU cores: Dictum ${figures.cpu.dictum}, PostgreSQL ${figures.cpu.postgres}, balancer ${figures.cpu.balancer}, wrk ${figures.cpu.loadGenerator}; machine ${Math.round((figures.cpu.machineBusy ?? 0) * 100)}% busy`);
        }
      } finally {
        await balancer.stop();
      }
    }
  } finally {
    await meterClient.end();
    for (const s of servers.slice(1)) await stopServer(s);
  }
  addRatios(out);
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
