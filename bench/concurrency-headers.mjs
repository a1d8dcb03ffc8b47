// The cost of the concurrency headers (docs/concurrency.md): read, update and create, each without
// and with its header, through wrk in alternating rounds on one server; prints both figures and
// their ratio (npm run bench:headers; options: --seconds, --rounds, --warmup, --connections, --only read,update,create, DATABASE_URL).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, databaseName, defaultDatabaseUrl, ensureDatabase, withDatabase } from './lib/database.mjs';
import { runTool } from './lib/children.mjs';
import { parseWrkOutput } from './lib/wrk.mjs';
import { freePort, login, readCpuTicks, startDictum, waitIdle } from './lib/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => console.log(line);

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const SECONDS = option('seconds', 5);
const ROUNDS = option('rounds', 5);
/** Rounds run and thrown away first: the server's code compiles and its caches fill over the first rounds. */
const WARMUP = option('warmup', 2);
const CONNECTIONS = option('connections', 8);
/** Partners the reads and updates pick from at random. */
const SAMPLE = 200;

const luaString = (s) => `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A wrk script: `kind` read | update | create; `header` the one header the variant adds (null:
 * none). `{n}` in a header's value becomes a number unique to the request.
 */
function script({ kind, token, ids, tag, header }) {
  const method = { read: 'GET', update: 'PUT', create: 'POST' }[kind];
  return `
local ids = {${ids.join(',')}}
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function init(args)
  math.randomseed(tid * 7919)
end
function request()
  counter = counter + 1
  local unique = "${tag}-" .. tid .. "-" .. counter
  local headers = { ["Accept"] = "application/json", ["Authorization"] = ${luaString(`Bearer ${token}`)}, ["Content-Type"] = "application/json" }
  ${header ? `headers[${luaString(header.name)}] = string.gsub(${luaString(header.value)}, "{n}", unique)` : ''}
  local id = ids[math.random(#ids)]
  ${
    kind === 'read'
      ? `return wrk.format("${method}", "/api/v1/models/c_bpartner/" .. id, headers)`
      : kind === 'update'
        ? `return wrk.format("${method}", "/api/v1/models/c_bpartner/" .. id, headers, '{"Description":"bench ' .. unique .. '"}')`
        : `return wrk.format("${method}", "/api/v1/models/c_bpartner", headers, '{"Value":"H' .. unique .. '","Name":"Bench ' .. unique .. '","C_BP_Group_ID":104}')`
  }
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"mean_us":%.1f,"max_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(99)))
end
`;
}

const SCENARIOS = [
  { key: 'read', title: 'read by id', kind: 'read', header: { name: 'If-None-Match', value: 'W/"0.0"' }, headerText: 'If-None-Match (not matching: the record is sent)' },
  { key: 'update', title: 'update', kind: 'update', header: { name: 'If-Match', value: '*' }, headerText: 'If-Match (locked, compared, new ETag)' },
  { key: 'create', title: 'create partner', kind: 'create', header: { name: 'Idempotency-Key', value: 'k-{n}' }, headerText: 'Idempotency-Key (claimed, answer kept)' },
];

/** --only read,create: the scenarios to run (all when not given). */
const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt > 0 ? new Set(process.argv[onlyAt + 1].split(',')) : null;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * CPU ticks spent so far by the server and by the database sessions serving it. On a machine other
 * work keeps busy, throughput swings with that work; the CPU each request costs both processes
 * swings far less, so the comparison rests on it.
 */
async function cpuTicks(client, serverPid, database) {
  const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  const server = readCpuTicks(serverPid) ?? 0;
  let sessions = 0;
  for (const r of rows) sessions += readCpuTicks(r.pid) ?? 0;
  return { total: server + sessions, server, sessions };
}
const TICK_MS = 10;

async function main() {
  const url = process.env.DATABASE_URL ?? withDatabase(defaultDatabaseUrl(), 'dictum_bench_headers');
  if (await ensureDatabase(url)) log(`created database ${databaseName(url)}`);
  const m = spawnSync(process.execPath, ['dist/src/main.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 900_000 });
  if (m.status !== 0) throw new Error(`migrate failed: ${(m.stderr || m.stdout).slice(-1500)}`);
  const client = await connect(url);
  await client.query("DELETE FROM c_bpartner WHERE value LIKE 'H%-%-%' OR value LIKE 'Hsample-%'");
  await client.query('DELETE FROM dictum.idempotent_answer');
  // The kept answers of earlier runs deleted for good: on a server without autovacuum their dead rows
  // and index entries would stay, and each run's keyed creates would start worse off than the last's.
  // (Not the partners' table: statistics taken while it holds only the demo's partners give the
  // reads of the partners the rounds create a plan for a table of twenty rows.)
  await client.query('VACUUM dictum.idempotent_answer');
  const server = await startDictum({ root, databaseUrl: url, port: await freePort() });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-headers-'));
  try {
    const token = await login(server.baseUrl);
    const ids = [];
    for (let i = 0; i < SAMPLE; i++) {
      const r = await fetch(`${server.baseUrl}/api/v1/models/c_bpartner`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ Value: `Hsample-${i}`, Name: `Sample ${i}`, C_BP_Group_ID: 104 }),
      });
      if (r.status !== 201) throw new Error(`could not create the sample: ${await r.text()}`);
      ids.push((await r.json()).id);
    }
    log(`Concurrency headers: ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`);
    const results = [];
    let run = 0;
    for (const sc of SCENARIOS.filter((x) => !ONLY || ONLY.has(x.key))) {
      const rps = { without: [], with: [] };
      const p50 = { without: [], with: [] };
      const cpu = { without: [], with: [] };
      // The same CPU per request, the server's and its database sessions' apart.
      const split = { without: [], with: [] };
      for (let round = -WARMUP; round < ROUNDS; round++) {
        // Alternating which variant goes first spreads the drift of a busy machine over both.
        const order = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
        for (const variant of order) {
          const file = path.join(work, `${sc.key}-${variant}-${round}.lua`);
          fs.writeFileSync(file, script({ kind: sc.kind, token, ids, tag: `${process.pid}r${run++}`, header: variant === 'with' ? sc.header : null }));
          await waitIdle(server.pid, { maxMs: 5000 });
          const before = await cpuTicks(client, server.pid, databaseName(url));
          const out = await runTool('wrk', ['-t', '2', '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--timeout', '30s', '-s', file, server.baseUrl], {
            timeoutMs: (SECONDS + 60) * 1000,
            describeFailure: (code, err) => `wrk exited with ${code}: ${err}`,
          });
          const r = parseWrkOutput(out);
          if (r.errors) throw new Error(`${sc.title} ${variant}: ${r.errors} errors (non-2xx ${r.non2xx})`);
          const after = await cpuTicks(client, server.pid, databaseName(url));
          const spent = (after.total - before.total) * TICK_MS;
          if (round < 0) continue; // warm-up rounds: compiled code and caches ready for both
          cpu[variant].push(spent / r.requests);
          split[variant].push({ server: ((after.server - before.server) * TICK_MS) / r.requests, sessions: ((after.sessions - before.sessions) * TICK_MS) / r.requests });
          rps[variant].push(r.rps);
          p50[variant].push(r.p50);
        }
      }
      const without = median(rps.without);
      const withHeader = median(rps.with);
      const cpuWithout = median(cpu.without);
      const cpuWith = median(cpu.with);
      // Each round runs both variants back to back: the ratio within a round leaves out the drift
      // between rounds (the server still warming up, other work on the machine), and the median of
      // those ratios is the cost of the header.
      const roundRatios = cpu.with.map((w, i) => w / cpu.without[i]);
      results.push({
        key: sc.key,
        title: sc.title,
        header: sc.headerText,
        withoutRps: without,
        withRps: withHeader,
        throughputRatio: without / withHeader,
        withoutCpuMs: cpuWithout,
        withCpuMs: cpuWith,
        costRatio: median(roundRatios),
        roundRatios,
        withoutServerMs: median(split.without.map((x) => x.server)),
        withServerMs: median(split.with.map((x) => x.server)),
        withoutSessionsMs: median(split.without.map((x) => x.sessions)),
        withSessionsMs: median(split.with.map((x) => x.sessions)),
        withoutP50Ms: median(p50.without),
        withP50Ms: median(p50.with),
      });
    }
    log('');
    log('| scenario | without: req/s, CPU ms/req | with header: req/s, CPU ms/req | CPU cost with / without | req/s without / with | header |');
    log('|---|---|---|---|---|---|');
    for (const r of results) {
      log(`| ${r.title} | ${r.withoutRps.toFixed(0)}, ${r.withoutCpuMs.toFixed(3)} | ${r.withRps.toFixed(0)}, ${r.withCpuMs.toFixed(3)} | ${r.costRatio.toFixed(3)} | ${r.throughputRatio.toFixed(3)} | ${r.header} |`);
    }
    log('');
    log('CPU ms/req: server process plus its database sessions, per request (median of the rounds). Cost: with / without within each round, median over the rounds; 1.05 = 5% more with the header.');
    for (const r of results) log(`${r.title}: cost per round ${r.roundRatios.map((x) => x.toFixed(3)).join(' ')}`);
    for (const r of results) {
      log(`${r.title}: server CPU ms/req ${r.withoutServerMs.toFixed(3)} without, ${r.withServerMs.toFixed(3)} with; database sessions ${r.withoutSessionsMs.toFixed(3)} without, ${r.withSessionsMs.toFixed(3)} with`);
    }
    if (process.argv.includes('--json')) log(JSON.stringify(results));
  } finally {
    await server.stop();
    await client.end();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
