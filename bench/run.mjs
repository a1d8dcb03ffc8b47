// The benchmark of Dictum against PostgreSQL's own ceiling (npm run bench; options: --help).
//
// 1. scaling: the list read on a database holding --small-rows partners (<name>_10k);
// 2. the main run on DATABASE_URL with --rows partners: every scenario through wrk at 32
//    connections, pgbench on the same statements, peak RSS of the server throughout;
// 3. one table of figures with the issue's targets, and bench/results/latest.json.
// Method and reading of the figures: docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAutocannon, runAutocannon } from './lib/autocannon.mjs';
import { captureCeilingSql, captureWriteSql } from './lib/capture.mjs';
import { killChildren } from './lib/children.mjs';
import { assertBenchDatabase, connect, databaseName, defaultDatabaseUrl, ensureDatabase, serverVersion, socketDir, withDatabase, writeUuidSample } from './lib/database.mjs';
import { clearEarlierWrites, datasetCounts, FIRST_ID, loadDataset, matchesRange } from './lib/dataset.mjs';
import { parseOptions, USAGE } from './lib/options.mjs';
import { ensureOrdersInUse } from './lib/orders-in-use.mjs';
import { pgbenchScript, runPgbench, statementLabels } from './lib/pgbench.mjs';
import { listStatements as handwrittenListStatements } from './lib/handwritten-sql.mjs';
import { formatProfile, summarizeNewestProfile } from './lib/profile.mjs';
import { errorLines, evaluateTargets, formatTable, readsPeak, round, statementCostRatios, warmupPhase } from './lib/report.mjs';
import { sendOne } from './lib/requests.mjs';
import { booksFixtures, ceilingRequests, discountOrder, handwrittenScenarios, listQuery, listRange, orderLookups, scenarioList } from './lib/scenarios.mjs';
import { freePort, getJson, login, loginSession, postJson, readCpuTicks, sendJson, startDictum, startHandwritten, waitIdle, watchMemory } from './lib/server.mjs';
import { ensureWrk, findOnPath, runWrk } from './lib/wrk.mjs';
import { instancesPhase } from './lib/instances.mjs';
import { formatInstancesTable } from './lib/instances-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(root, 'bench', 'results', 'latest.json');
const INSTANCES_FILE = path.join(root, 'bench', 'results', 'instances.json');
const MB = 1024 * 1024;
const log = (line) => console.log(line);

/** Servers still running, stopped on the way out (also on Ctrl-C). */
const running = new Set();
/** Temporary directories, removed on the way out. */
const workDirs = new Set();

/** Files per second and peak RSS of a 1,000-row report in each format (bench/reports.mjs). */
function reportPhase(seconds) {
  log(`reports: a 1,000-row report in each format, ${seconds} s a format`);
  const r = spawnSync(process.execPath, [path.join(root, 'bench', 'reports.mjs'), '--seconds', String(seconds), '--rows', '1000', '--json'], { encoding: 'utf8' });
  if (r.status !== 0) return { error: (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') };
  const lines = r.stdout.trim().split('\n');
  const json = JSON.parse(lines.pop());
  return { ...json, text: lines.join('\n') };
}

/** Outbound webhook fan-out: deliveries per second, losses and commit-to-arrival latency (bench/webhooks.mjs). */
function webhookPhase(databaseUrl) {
  log('webhooks: fan-out of 10,000 deliveries to a local receiver');
  const r = spawnSync(process.execPath, [path.join(root, 'bench', 'webhooks.mjs'), '--events', '10000', '--json'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl } });
  if (r.status !== 0) return { error: (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') };
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) throw new Error('dist/src/main.js is missing: run `npm run build` first');
  const databaseUrl = process.env.DATABASE_URL?.trim() || defaultDatabaseUrl({ tcp: opts.tcp });
  assertBenchDatabase(databaseUrl);
  const smallUrl = withDatabase(databaseUrl, `${databaseName(databaseUrl)}_${rowsLabel(opts.smallRows)}`);
  const driver = await loadGenerator(opts);
  if (opts.instances) return instancesMain(opts, driver, databaseUrl);
  const pgbench = opts.skipCeiling ? null : findOnPath('pgbench');
  if (!opts.skipCeiling && !pgbench) log('!! pgbench is not installed (Debian: apt-get install postgresql-client): the ceiling is not measured');

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bench-'));
  workDirs.add(workDir);
  const tag = Date.now().toString(36);
  // The list read's name range; --list-matches sets it once the main database is loaded.
  const ctx = { opts, driver, pgbench, workDir, tag, range: listRange(opts.prefix) };
  const started = new Date();
  const results = {
    generatedAt: started.toISOString(),
    options: { rows: opts.rows, smallRows: opts.skipScaling ? null : opts.smallRows, duration: opts.duration, warmup: opts.warmup, connections: opts.connections, threads: opts.threads, prefix: opts.prefix, listMatches: opts.listMatches, seed: opts.seed, only: opts.only },
    listQuery: null,
    environment: { ...environment(driver, pgbench), databaseTransport: socketDir(databaseUrl) ? `Unix socket ${socketDir(databaseUrl)}` : 'TCP' },
    database: databaseName(databaseUrl),
    dataset: null,
    scenarios: {},
    scaling: null,
    memory: null,
    profile: null,
  };
  try {
    const wanted = (key) => !opts.only || opts.only.includes(key);
    if (!opts.skipScaling && wanted('list')) results.scaling = await scalingPhase(ctx, smallUrl);
    await mainPhase(ctx, databaseUrl, results, wanted);
    results.listQuery = listQuery(ctx.range);
    if (results.scaling?.small && results.scenarios.list && !results.scenarios.list.skipped) {
      const s = results.scaling;
      s.fullRows = opts.rows;
      s.full = { rps: results.scenarios.list.rps, p50Ms: results.scenarios.list.p50Ms, p99Ms: results.scenarios.list.p99Ms, rowCount: results.scenarios.list.rowCount, ceilingTps: results.scenarios.list.ceiling?.tps ?? null };
      s.costRatio = round(s.small.rps / s.full.rps);
      s.p50Ratio = round(s.full.p50Ms / s.small.p50Ms);
      if (s.small.ceiling && s.full.ceilingTps) s.ceilingCostRatio = round(s.small.ceiling.tps / s.full.ceilingTps);
      s.statementCostRatios = statementCostRatios(s.small.ceiling?.byStatement, results.scenarios.list.ceiling?.byStatement);
      const fullEstimated = results.scenarios.listEstimated;
      if (s.smallEstimated?.rps && fullEstimated?.rps) {
        s.fullEstimated = { rps: fullEstimated.rps, p50Ms: fullEstimated.p50Ms, p99Ms: fullEstimated.p99Ms, rowCount: fullEstimated.rowCount, rowCountKind: fullEstimated.rowCountKind };
        s.costRatioEstimated = round(s.smallEstimated.rps / fullEstimated.rps);
      }
    }
    // Report rendering runs alone, in a process of its own, so that its memory is its own.
    if (wanted('reports')) results.reports = reportPhase(Math.min(opts.duration, 5));
    if (wanted('webhooks')) results.webhooks = webhookPhase(databaseUrl);
  } finally {
    for (const s of running) await s.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  results.finishedAt = new Date().toISOString();
  results.targets = evaluateTargets(results);
  results.allTargetsMet = results.targets.every((t) => t.met === true);
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, JSON.stringify(results, null, 2) + '\n');

  log('');
  log(`Dictum benchmark: ${opts.rows.toLocaleString('en-US')} business partners, ${opts.connections} connections, ${opts.duration} s per scenario, ${driver.name}; ${results.environment.cpus} x ${results.environment.cpuModel}`);
  const load = results.environment.loadAverageAtStart[0];
  if (load > results.environment.cpus) log(`!! the machine was busy when the run started (load average ${load}): figures are lower than on a quiet machine`);
  log('');
  log(formatTable(results));
  for (const t of results.targets) if (t.met === false && t.why) log(`  ${t.target}: not met; measured in this run: ${t.why}`);
  if (results.reports?.text) {
    log('');
    log(results.reports.text);
  }
  if (results.webhooks) {
    log('');
    const w = results.webhooks;
    log(w.error
      ? `webhooks fan-out failed: ${w.error}`
      : `webhooks fan-out: ${w.delivered}/${w.events} delivered, ${w.lost} lost, ${w.deliveriesPerSecond} deliveries/s from the first commit (target >= ${w.targetPerSecond}/s), commit to arrival p50 ${w.latencyP50Ms} ms, p99 ${w.latencyP99Ms} ms; a backlog drained at ${w.drainPerSecond}/s = ${w.ratioToReceiverCapacity} x the receiver's ${w.receiverCapacityPerSecond} requests/s from a plain loop`);
  }
  const loud = errorLines(results);
  if (loud.length) {
    log('');
    for (const line of loud) log(line);
  }
  if (results.profile) {
    log('');
    log(formatProfile(results.profile));
  }
  log('');
  log(`targets met: ${results.targets.filter((t) => t.met === true).length} of ${results.targets.length}; results in ${path.relative(process.cwd(), RESULTS_FILE)}`);
  return loud.length ? 1 : 0;
}

/** --instances: the scenarios at each instance count, a table, bench/results/instances.json. */
async function instancesMain(opts, driver, databaseUrl) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bench-'));
  workDirs.add(workDir);
  const ctx = { opts, driver, workDir, tag: Date.now().toString(36) };
  const results = {
    generatedAt: new Date().toISOString(),
    options: { rows: opts.rows, duration: opts.duration, warmup: opts.warmup, connections: opts.connections, threads: opts.threads, instances: opts.instances, rounds: opts.rounds },
    environment: { ...environment(driver, null), databaseTransport: socketDir(databaseUrl) ? `Unix socket ${socketDir(databaseUrl)}` : 'TCP' },
    database: databaseName(databaseUrl),
  };
  log(`== ${opts.instances.join(', ')} instances at ${opts.rows.toLocaleString('en-US')} rows (database ${databaseName(databaseUrl)})`);
  const { server, client, pg } = await prepareDatabase(databaseUrl, opts.rows, opts.seed);
  try {
    results.environment.postgres = pg;
    Object.assign(results, await instancesPhase({ root, ctx, databaseUrl, first: server, startServer, stopServer, log }));
  } finally {
    await client.end();
    for (const s of running) await s.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  results.finishedAt = new Date().toISOString();
  fs.mkdirSync(path.dirname(INSTANCES_FILE), { recursive: true });
  fs.writeFileSync(INSTANCES_FILE, JSON.stringify(results, null, 2) + '\n');
  log('');
  log(`Dictum on N instances, one PostgreSQL: ${opts.rows.toLocaleString('en-US')} partners, ${opts.connections} connections through a round-robin balancer, ${opts.rounds} round(s) of ${opts.duration} s per scenario and count, ${driver.name}; ${results.environment.cpus} x ${results.environment.cpuModel}; load average at start ${results.environment.loadAverageAtStart.join(' ')}`);
  log('CPU in cores (CPU seconds per second of the run); PostgreSQL: the backends of the benchmark database');
  log('PG run/lock/wait/tx: backends of the benchmark database per sample running / waiting on a lock / waiting otherwise / idle in a transaction');
  log('');
  log(formatInstancesTable(results));
  log('');
  log(`results in ${path.relative(process.cwd(), INSTANCES_FILE)}`);
  const errors = Object.values(results.scenarios).reduce((n, s) => n + Object.values(s.runs).reduce((m, r) => m + r.errors, 0), 0);
  return errors ? 1 : 0;
}

/** 10000 -> "10k": the suffix of the scaling database's name. */
function rowsLabel(n) {
  return n % 1_000_000 === 0 ? `${n / 1_000_000}m` : n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

/** wrk (installed when missing and possible), else autocannon when it is installed. */
async function loadGenerator(opts) {
  if (opts.loadGenerator === 'wrk') {
    const w = ensureWrk(log);
    if (w.path) {
      const v = spawnSync(w.path, ['-v'], { encoding: 'utf8' });
      const version = /^wrk\s+(\S+)/m.exec(`${v.stdout}${v.stderr}`)?.[1] ?? '';
      return { name: `wrk ${version}`.trim(), run: (a) => runWrk({ wrk: w.path, ...a }) };
    }
    log(`!! ${w.error}`);
  }
  const ac = await loadAutocannon();
  if (!ac) throw new Error('No load generator: install wrk (apt-get install -y wrk) or autocannon (npm install --no-save autocannon)');
  return { name: 'autocannon', run: (a) => runAutocannon(ac, a) };
}

function environment(driver, pgbench) {
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8' });
  const pgb = pgbench ? spawnSync(pgbench, ['--version'], { encoding: 'utf8' }).stdout.trim() : null;
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model?.trim() ?? '?',
    memoryGB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    loadGenerator: driver.name,
    pgbench: pgb,
    loadAverageAtStart: os.loadavg().map((v) => round(v)),
    commit: git.status === 0 ? `${git.stdout.trim()}${dirty.stdout.trim() ? ' (src modified)' : ''}` : null,
  };
}

async function startServer(databaseUrl, nodeArgs = []) {
  const server = await startDictum({ root, databaseUrl, port: await freePort(), nodeArgs });
  running.add(server);
  return server;
}

async function stopServer(server) {
  await server.stop();
  running.delete(server);
}

/**
 * Creates the database if needed, lets the service create its schema and demo data
 * (`main.js migrate`, a separate process, so that the measured server starts on a ready
 * database), loads the data set, then starts the server.
 */
async function prepareDatabase(url, rows, seed, nodeArgs) {
  if (await ensureDatabase(url)) log(`  created database ${databaseName(url)}`);
  const migrateStarted = performance.now();
  const m = spawnSync(process.execPath, ['dist/src/main.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 600_000 });
  if (m.status !== 0) throw new Error(`\`main.js migrate\` failed on ${databaseName(url)}: ${(m.stderr || m.stdout || String(m.error ?? '')).trim().slice(-1500)}`);
  const migrateMs = performance.now() - migrateStarted;
  if (migrateMs > 3000) log(`  schema and demo data ready in ${(migrateMs / 1000).toFixed(1)} s`);
  const client = await connect(url);
  let server;
  try {
    const load = await loadDataset(client, { rows, seed, log });
    log(load.loaded ? `  loaded ${load.loaded.toLocaleString('en-US')} partners in ${(load.ms / 1000).toFixed(1)} s` : `  data set already loaded (${rows.toLocaleString('en-US')} partners)`);
    const cleared = await clearEarlierWrites(client);
    if (cleared.partners || cleared.orders) log(`  removed what earlier runs created: ${cleared.partners.toLocaleString('en-US')} partners, ${cleared.orders.toLocaleString('en-US')} orders`);
    const pg = await serverVersion(client);
    server = await startServer(url, nodeArgs);
    log(`  server up in ${(server.startMs / 1000).toFixed(1)} s (pid ${server.pid})`);
    return { server, client, load, pg };
  } catch (e) {
    await client.end();
    if (server) await stopServer(server);
    throw e;
  }
}

/** One scenario: a checking request, warm-up, measurement. */
async function measure(ctx, server, token, desc, memory) {
  const { opts, driver, workDir } = ctx;
  // Created partners' search keys (unique per client) carry the run and the scenario.
  const tag = `${ctx.tag}${desc.key}`;
  const connections = desc.connections ?? opts.connections;
  const base = { title: desc.title, method: desc.method, path: desc.pathGen ? `${desc.pathGen.prefix}{${desc.pathGen.kind === 'randomInt' ? 'id' : 'uuid'}}` : desc.path, connections };
  let check;
  try {
    check = await sendOne(server.baseUrl, desc, token, `${tag}c`);
  } catch (e) {
    return { ...base, skipped: `the checking request failed: ${e.message}` };
  }
  if (check.status < 200 || check.status > 299) {
    const why = `the checking request ${desc.method} ${check.path} answered ${check.status}: ${check.body.slice(0, 400)}`;
    log(`  !! ${desc.key}: ${why}`);
    return { ...base, skipped: why };
  }
  let rowCount;
  try {
    rowCount = JSON.parse(check.body)['row-count'];
  } catch {
    // not JSON: the figures still count
  }
  const args = { baseUrl: server.baseUrl, desc, token, tag, connections, threads: opts.threads, workDir, seed: opts.seed };
  if (opts.warmup > 0) {
    memory?.phase(warmupPhase(desc.key));
    await driver.run({ ...args, seconds: opts.warmup, tag: `${tag}w` });
    memory?.phase('between');
  }
  await waitIdle(server.pid);
  memory?.phase(desc.key);
  const r = await driver.run({ ...args, seconds: opts.duration });
  memory?.phase('between');
  await waitIdle(server.pid);
  const out = {
    ...base,
    requests: r.requests,
    seconds: round(r.seconds),
    rps: round(r.rps, 1),
    p50Ms: round(r.p50, 3),
    p90Ms: round(r.p90, 3),
    p99Ms: round(r.p99, 3),
    meanMs: round(r.mean, 3),
    maxMs: round(r.max, 3),
    errors: r.errors,
    non2xx: r.non2xx,
    socketErrors: r.socketErrors,
  };
  if (rowCount !== undefined) out.rowCount = rowCount;
  if (check.rowCountKind) out.rowCountKind = check.rowCountKind;
  if (memory) out.rssPeakMB = round(memory.phasePeak(desc.key) / MB, 1);
  if (r.requests === 0) {
    out.skipped = `no request completed within ${opts.duration} s (each takes longer at ${connections} connections): raise --duration`;
    log(`  !! ${desc.key}: ${out.skipped}`);
  }
  if (r.errors > 0) {
    out.sampleError = await findFailure(server.baseUrl, desc, token, tag);
    log(`  !! ${desc.key}: ${r.errors} FAILED REQUESTS (${r.non2xx} non-2xx, ${r.socketErrors} socket errors)${out.sampleError ? ` e.g. ${out.sampleError}` : ''}`);
  }
  log(`  ${desc.key.padEnd(15)} ${String(Math.round(r.rps)).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}`);
  return out;
}

/** After a run with errors: up to 20 single requests to show one failing answer. */
async function findFailure(baseUrl, desc, token, tag) {
  for (let i = 0; i < 20; i++) {
    try {
      const r = await sendOne(baseUrl, desc, token, `${tag}${desc.key}e${i}`);
      if (r.status < 200 || r.status > 299) return `${desc.method} ${r.path} -> ${r.status} ${r.body.slice(0, 300)}`;
    } catch (e) {
      return `${desc.method} -> ${e.message}`;
    }
  }
  return null;
}

/** The SQL of each read that has a ceiling, captured from a recording instance: {key: {script, statements} | {error}}. */
async function captureCeilings(ctx, databaseUrl, requests) {
  if (!ctx.pgbench || !requests.length) return {};
  return captureCeilingSql({ root, databaseUrl, requests });
}

/**
 * pgbench on one captured read's statements: {tps, p50Ms, p99Ms, ...} or {error}. With
 * eachStatement, every statement of a read that has several also runs alone (byStatement), so
 * that a cost growing with the data can be traced to the statement that grows.
 */
async function runCeiling(ctx, databaseUrl, key, captured, { eachStatement = false } = {}) {
  const { opts, pgbench, workDir } = ctx;
  if (!pgbench) return null;
  const c = captured[key];
  if (!c || c.error) {
    log(`  !! ceiling ${key}: ${c?.error ?? 'not captured'}`);
    return { error: c?.error ?? 'not captured' };
  }
  try {
    if (opts.warmup > 0) await runPgbench({ pgbench, databaseUrl, script: c.script, name: `${key}-warm`, seconds: opts.warmup, clients: opts.connections, threads: opts.threads, workDir, log: false });
    const r = await runPgbench({ pgbench, databaseUrl, script: c.script, name: key, seconds: opts.duration, clients: opts.connections, threads: opts.threads, workDir });
    log(`  pgbench ${key.padEnd(12)} ${String(Math.round(r.tps)).padStart(7)} tps    p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${c.statements.length} statements)`);
    const out = { tps: round(r.tps, 1), p50Ms: round(r.p50, 3), p90Ms: round(r.p90, 3), p99Ms: round(r.p99, 3), transactions: r.transactions, failed: r.failed, statements: c.statements.length, script: c.script };
    if (eachStatement && c.statements.length > 1) {
      const labels = statementLabels(c.statements);
      out.byStatement = [];
      for (const [i, st] of c.statements.entries()) {
        const alone = await runPgbench({ pgbench, databaseUrl, script: pgbenchScript([st]), name: `${key}-${i + 1}`, seconds: opts.duration, clients: opts.connections, threads: opts.threads, workDir });
        log(`  pgbench ${key} ${labels[i]} alone ${String(Math.round(alone.tps)).padStart(7)} tps    p50 ${alone.p50.toFixed(2)} ms`);
        out.byStatement.push({ label: labels[i], tps: round(alone.tps, 1), p50Ms: round(alone.p50, 3), p99Ms: round(alone.p99, 3) });
      }
    }
    return out;
  } catch (e) {
    log(`  !! ceiling ${key}: ${e.message}`);
    return { error: e.message };
  }
}

/** Deletes, in order, the rows of `tables` ([table, column]) whose column holds one of `ids`. */
async function deleteRows(client, tables, ids) {
  for (const [table, column] of tables) await client.query(`DELETE FROM ${table} WHERE ${column} = ANY($1::bigint[])`, [ids]);
}

/** Deletes the facts of records of a table. */
const deleteFacts = (client, table, ids) =>
  client.query('DELETE FROM fact_acct WHERE ad_table_id = (SELECT ad_table_id FROM ad_table WHERE lower(tablename) = $1) AND record_id = ANY($2::bigint[])', [table, ids]);

/**
 * The write scenarios replayed under pgbench, each with the removal of what one request created
 * (so that the replay, inserting the same keys, meets no committed copy).
 */
const REPLAYED = {
  createCompleteOrder: (client, order) => deleteRows(client, [['c_orderline', 'c_order_id'], ['c_ordertax', 'c_order_id'], ['c_order', 'c_order_id']], [order.id]),
  createCompleteAllocation: async (client, allocation) => {
    await deleteFacts(client, 'c_allocationhdr', [allocation.id]);
    await deleteRows(client, [['c_allocationline', 'c_allocationhdr_id'], ['c_allocationhdr', 'c_allocationhdr_id']], [allocation.id]);
  },
  createCompleteMatchedInvoice: async (client, invoice) => {
    const lines = (invoice.C_InvoiceLine ?? []).map((l) => l.id);
    const matches = (await client.query('SELECT m_matchinv_id AS id FROM m_matchinv WHERE c_invoiceline_id = ANY($1::bigint[])', [lines])).rows.map((r) => r.id);
    await deleteFacts(client, 'm_matchinv', matches);
    await deleteFacts(client, 'c_invoice', [invoice.id]);
    await deleteRows(client, [['m_matchinv', 'c_invoiceline_id'], ['m_matchpo', 'c_invoiceline_id']], lines);
    await deleteRows(client, [['c_invoicetax', 'c_invoice_id'], ['c_invoiceline', 'c_invoice_id'], ['c_invoice', 'c_invoice_id']], [invoice.id]);
  },
};

/**
 * Statements of one write created and completed (an order, an allocation, a matched vendor
 * invoice), and pgbench replaying exactly them serially (one client, like the scenario) in a
 * transaction that rolls back: the write's cost in PostgreSQL alone, which requests/s is compared
 * with.
 */
async function writeReplay(ctx, databaseUrl, desc, scenario, cleanup) {
  const { opts, pgbench, workDir } = ctx;
  let captured;
  try {
    captured = await captureWriteSql({ root, databaseUrl, request: { path: desc.path, body: desc.bodyGen.value }, cleanup });
  } catch (e) {
    log(`  !! ${desc.key} replay: ${e.message}`);
    scenario.ceiling = { error: e.message };
    return;
  }
  scenario.statementsPerRequest = captured.statements.length;
  if (desc.key === 'createCompleteOrder') scenario.statementsPerOrder = captured.statements.length;
  log(`  ${desc.key}: ${captured.statements.length} statements per request`);
  if (!pgbench) return;
  try {
    if (opts.warmup > 0) await runPgbench({ pgbench, databaseUrl, script: captured.script, name: `${desc.key}-replay-warm`, seconds: opts.warmup, clients: 1, threads: 1, workDir, log: false });
    const r = await runPgbench({ pgbench, databaseUrl, script: captured.script, name: `${desc.key}-replay`, seconds: opts.duration, clients: 1, threads: 1, workDir });
    log(`  pgbench ${desc.key} replay ${String(Math.round(r.tps)).padStart(7)} tps    p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${captured.statements.length} statements)`);
    attachCeiling(scenario, { tps: round(r.tps, 1), p50Ms: round(r.p50, 3), p90Ms: round(r.p90, 3), p99Ms: round(r.p99, 3), transactions: r.transactions, failed: r.failed, statements: captured.statements.length, script: captured.script });
  } catch (e) {
    log(`  !! ${desc.key} replay: ${e.message}`);
    scenario.ceiling = { error: e.message };
  }
}

/** A read's ceiling and the ratio of the read to it. */
function attachCeiling(scenario, ceiling) {
  if (!ceiling) return;
  scenario.ceiling = ceiling;
  if (!ceiling.error && scenario.rps) scenario.ratio = round(scenario.rps / ceiling.tps);
}

async function scalingPhase(ctx, smallUrl) {
  const { opts } = ctx;
  log(`== list read at ${opts.smallRows.toLocaleString('en-US')} rows (database ${databaseName(smallUrl)})`);
  const { server, client } = await prepareDatabase(smallUrl, opts.smallRows, opts.seed);
  try {
    const token = await login(server.baseUrl);
    const descs = scenarioList({ rows: opts.smallRows, prefix: opts.prefix, uuidFile: '' });
    const desc = descs.find((s) => s.key === 'list');
    const captured = await captureCeilings(ctx, smallUrl, ceilingRequests({ rows: opts.smallRows, prefix: opts.prefix }).filter((r) => r.key === 'list'));
    const small = await measure(ctx, server, token, desc, null);
    const smallEstimated = await measure(ctx, server, token, descs.find((s) => s.key === 'listEstimated'), null);
    const c = await runCeiling(ctx, smallUrl, 'list', captured, { eachStatement: true });
    if (c && !c.error) attachCeiling(small, c);
    return { smallRows: opts.smallRows, database: databaseName(smallUrl), small, smallEstimated };
  } finally {
    await client.end();
    await stopServer(server);
  }
}

async function mainPhase(ctx, databaseUrl, results, wanted) {
  const { opts, workDir } = ctx;
  log(`== main run at ${opts.rows.toLocaleString('en-US')} rows (database ${databaseName(databaseUrl)})`);
  let nodeArgs = [];
  if (opts.profileDir) {
    const dir = path.resolve(opts.profileDir);
    fs.mkdirSync(dir, { recursive: true });
    nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir];
  }
  const { server, client, load, pg } = await prepareDatabase(databaseUrl, opts.rows, opts.seed, nodeArgs);
  const memory = watchMemory(server.pid, 100);
  memory.phase('start');
  const readKeys = [];
  try {
    results.environment.postgres = pg;
    results.dataset = { rows: opts.rows, seed: opts.seed, firstId: FIRST_ID, loadedNow: load.loaded, loadSeconds: round(load.ms / 1000, 1), counts: await datasetCounts(client, opts.rows) };
    if (opts.listMatches) {
      const r = await matchesRange(client, opts.prefix, opts.listMatches);
      ctx.range = { lo: r.lo, hi: r.hi };
      log(`  list read over names from '${r.lo}' to before '${r.hi}': ${r.matches.toLocaleString('en-US')} matches (--list-matches ${opts.listMatches})`);
    }
    const uuidFile = path.join(workDir, 'uuids.txt');
    await writeUuidSample(client, opts.rows, 20_000, uuidFile);
    const session = await loginSession(server.baseUrl);
    const token = session.token;
    const lookups = await orderLookups((p) => getJson(server.baseUrl, p, token), session.userId);
    for (const note of lookups.notes) log(`  order lookup failed (${note}); using the demo's value`);
    // The documents the books scenarios settle against, made through the service.
    const books = wanted('createCompleteAllocation') || wanted('createCompleteMatchedInvoice') ? await booksFixtures((p, body) => postJson(server.baseUrl, p, token, body)) : null;
    const discounted = wanted('createCompleteOrderBreaks') ? await discountOrder((method, p, body) => sendJson(server.baseUrl, token, method, p, body), lookups.order) : null;
    const all = scenarioList({ rows: opts.rows, prefix: opts.prefix, range: ctx.range, uuidFile, order: lookups.order, books, discounted }).filter((s) => wanted(s.key));
    const orderDesc = all.find((s) => s.key === 'createOrder');
    if (orderDesc) {
      memory.phase('orders in use');
      const started = performance.now();
      const created = await ensureOrdersInUse({ client, baseUrl: server.baseUrl, token, desc: orderDesc });
      if (created) log(`  created ${created.toLocaleString('en-US')} orders through the service first, as a database in use holds, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      memory.phase('between');
    }
    const reads = all.filter((s) => s.method === 'GET');
    readKeys.push(...reads.map((s) => s.key));
    const rest = all.filter((s) => s.method !== 'GET');
    const wantedCeilings = new Set(reads.map((s) => s.ceiling).filter(Boolean));
    const captured = await captureCeilings(ctx, databaseUrl, ceilingRequests({ rows: opts.rows, range: ctx.range }).filter((r) => wantedCeilings.has(r.key)));
    // Each ceiling runs right after its read, so that a ratio compares two adjacent measurements
    // of a shared machine whose speed drifts over minutes.
    for (const desc of reads) {
      results.scenarios[desc.key] = await measure(ctx, server, token, desc, memory);
      if (!desc.ceiling) continue;
      memory.phase('pgbench');
      const eachStatement = desc.key === 'list' && !opts.skipScaling;
      attachCeiling(results.scenarios[desc.key], await runCeiling(ctx, databaseUrl, desc.ceiling, captured, { eachStatement }));
      memory.phase('between');
    }
    if (wanted('list') || wanted('byId')) {
      memory.phase('hand-written');
      results.handwritten = await handwrittenPhase(ctx, server, token, databaseUrl, all, wanted, captured);
      memory.phase('between');
    }
    for (const desc of rest) {
      results.scenarios[desc.key] = await measure(ctx, server, token, desc, memory);
      const cleanup = REPLAYED[desc.key];
      if (!cleanup) continue;
      memory.phase('pgbench');
      await writeReplay(ctx, databaseUrl, desc, results.scenarios[desc.key], (body) => cleanup(client, body));
      memory.phase('between');
    }
  } finally {
    const m = memory.stop();
    const reads = readsPeak(m.phases, readKeys);
    results.memory = {
      peakBytes: m.peak,
      peakMB: round(m.peak / MB, 1),
      ...(reads ? { readsPeakMB: round(reads.bytes / MB, 1), readsPeakPhase: reads.phase } : {}),
      peakPhase: Object.entries(m.phases).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
      sampledPeakMB: round(m.sampledPeak / MB, 1),
      vmHwmMB: round(m.hwm / MB, 1),
      samples: m.samples,
      byPhaseMB: Object.fromEntries(Object.entries(m.phases).map(([k, v]) => [k, round(v / MB, 1)])),
    };
    await client.end();
    await stopServer(server);
  }
  if (opts.profileDir) {
    const summary = summarizeNewestProfile(path.resolve(opts.profileDir));
    if (summary) results.profile = summary;
  }
}

/**
 * The list read and the read by id against the hand-written Fastify + pg server on the same
 * database, alternated with Dictum in rounds of half the duration (Dictum, hand-written, Dictum,
 * hand-written), so that both meet the same moments of a shared machine. Ratio = Dictum / hand-written.
 */
async function handwrittenPhase(ctx, dictum, token, databaseUrl, all, wanted, captured) {
  const { opts, driver, workDir } = ctx;
  log('== hand-written Fastify + pg server, alternated with Dictum');
  const hw = await startHandwritten({ root, databaseUrl, port: await freePort() });
  running.add(hw);
  const hwMemory = watchMemory(hw.pid, 100);
  const out = {};
  try {
    const descs = handwrittenScenarios({ rows: opts.rows, range: ctx.range });
    for (const key of ['list', 'byId']) {
      const d = all.find((x) => x.key === key);
      if (!d || !wanted(key)) continue;
      const h = descs[key];
      const same = await sameAnswers(dictum.baseUrl, d.path, token, hw.baseUrl, h.path);
      if (!same.equal) log(`  !! ${key}: the hand-written server's answer differs from Dictum's (${same.detail}): the comparison is not like for like`);
      const seconds = Math.max(1, Math.round(opts.duration / 2));
      const runs = { dictum: [], handwritten: [] };
      const ticks = { dictum: 0, handwritten: 0 };
      const args = { token, connections: opts.connections, threads: opts.threads, workDir, seed: opts.seed };
      // The server's own CPU time over a run, requests in flight at its end included.
      const counted = async (side, pid, run) => {
        await waitIdle(pid);
        const before = readCpuTicks(pid);
        runs[side].push(await run());
        await waitIdle(pid);
        ticks[side] += (readCpuTicks(pid) ?? NaN) - (before ?? NaN);
      };
      if (opts.warmup > 0) await driver.run({ ...args, baseUrl: hw.baseUrl, desc: h, tag: `${ctx.tag}hw`, seconds: opts.warmup });
      for (let round = 0; round < 2; round++) {
        await counted('dictum', dictum.pid, () => driver.run({ ...args, baseUrl: dictum.baseUrl, desc: d, tag: `${ctx.tag}${key}a${round}`, seconds }));
        await counted('handwritten', hw.pid, () => driver.run({ ...args, baseUrl: hw.baseUrl, desc: h, tag: `${ctx.tag}hw${round}`, seconds }));
      }
      const sum = (rs, side) => {
        const requests = rs.reduce((n, r) => n + r.requests, 0);
        const secs = rs.reduce((n, r) => n + r.seconds, 0);
        // Clock ticks are 10 ms (USER_HZ 100, as waitIdle takes them).
        const cpuMs = Number.isFinite(ticks[side]) && requests ? round((ticks[side] * 10) / requests, 3) : null;
        return { requests, rps: round(requests / secs, 1), p50Ms: round(rs.reduce((n, r) => n + r.p50, 0) / rs.length, 3), p99Ms: round(Math.max(...rs.map((r) => r.p99)), 3), errors: rs.reduce((n, r) => n + r.errors, 0), cpuMsPerRequest: cpuMs };
      };
      const entry = { title: d.title, connections: opts.connections, sameAnswer: same.equal, dictum: sum(runs.dictum, 'dictum'), handwritten: sum(runs.handwritten, 'handwritten') };
      entry.ratio = round(entry.dictum.rps / entry.handwritten.rps);
      out[key] = entry;
      const cpu = entry.dictum.cpuMsPerRequest !== null && entry.handwritten.cpuMsPerRequest !== null ? `; server CPU per request ${entry.dictum.cpuMsPerRequest.toFixed(2)} ms against ${entry.handwritten.cpuMsPerRequest.toFixed(2)} ms` : '';
      log(`  ${key.padEnd(6)} Dictum ${Math.round(entry.dictum.rps)} req/s, hand-written ${Math.round(entry.handwritten.rps)} req/s: ${entry.ratio.toFixed(2)}x${cpu}`);
      if (key === 'list') entry.statementMs = await listStatementCost(ctx, databaseUrl, captured?.list);
    }
  } finally {
    const m = hwMemory.stop();
    out.handwrittenPeakRssMB = round(m.peak / MB, 1);
    await hw.stop();
    running.delete(hw);
  }
  return out;
}

/**
 * Whether Dictum and the hand-written server answer one request of a read with the same body,
 * byte for byte: {equal, detail} (detail: the sizes and the first differing offset).
 */
async function sameAnswers(dictumUrl, dictumPath, token, hwUrl, hwPath) {
  const body = async (url, headers) => (await fetch(url, { headers, signal: AbortSignal.timeout(60_000) })).text();
  const [a, b] = await Promise.all([body(dictumUrl + dictumPath, { authorization: `Bearer ${token}`, accept: 'application/json' }), body(hwUrl + hwPath, { accept: 'application/json' })]);
  if (a === b) return { equal: true, detail: `${a.length} characters` };
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return { equal: false, detail: `${a.length} against ${b.length} characters, first difference at ${at}` };
}

/**
 * What PostgreSQL alone spends on one list read of each server: pgbench on one client runs
 * Dictum's captured statements (page and count) and the hand-written server's, alternated twice.
 * Returns {dictum, handwritten} in ms per read, or null without pgbench or captured statements.
 */
async function listStatementCost(ctx, databaseUrl, dictumList) {
  const { opts, pgbench, workDir } = ctx;
  if (!pgbench || !dictumList?.script) return null;
  const scripts = { dictum: dictumList.script, handwritten: pgbenchScript(handwrittenListStatements(ctx.range)) };
  const seconds = Math.max(2, Math.round(opts.duration / 3));
  const ms = { dictum: [], handwritten: [] };
  try {
    for (let round = 0; round < 2; round++) {
      for (const side of ['dictum', 'handwritten']) {
        const r = await runPgbench({ pgbench, databaseUrl, script: scripts[side], name: `list-cost-${side}-${round}`, seconds, clients: 1, threads: 1, workDir, log: false });
        ms[side].push(1000 / r.tps);
      }
    }
  } catch (e) {
    log(`  !! list statements under pgbench: ${e.message}`);
    return null;
  }
  const mean = (xs) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 3);
  const out = { dictum: mean(ms.dictum), handwritten: mean(ms.handwritten) };
  log(`  list   PostgreSQL alone (pgbench, one client): Dictum's statements ${out.dictum.toFixed(2)} ms, the hand-written ones ${out.handwritten.toFixed(2)} ms per read`);
  return out;
}

let stopping = false;
process.on('SIGINT', () => {
  if (stopping) process.exit(130);
  stopping = true;
  log('\ninterrupted: stopping the load and the servers');
  killChildren();
  for (const dir of workDirs) fs.rmSync(dir, { recursive: true, force: true });
  Promise.all([...running].map((s) => s.stop())).finally(() => process.exit(130));
});

main().then(
  (code) => process.exit(code),
  async (e) => {
    console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
    for (const s of running) await s.stop();
    process.exit(1);
  },
);
