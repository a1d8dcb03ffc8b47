// Bank statement benchmark (npm run bench:bank; build first): after --warmups (3) warm-up statements of --warmup
// lines (default: as many as --lines), a statement of --lines lines (default 1000) read from the bank, matched to as many payments by the Bank Statement Matcher and
// completed, through the API, timed, with every SQL statement the service ran recorded on the wire;
// then the same statements replayed once by pgbench on a copy of the database as it was before,
// for the ratio replay time / service time (target >= 0.5: the service takes at most twice what
// PostgreSQL alone needs for its SQL).
// The statements are learnt by an instance behind a recording relay; the time is that of a second
// instance, connected directly, doing the same on its own copy.
// Databases: <name>_pre (migrated demo with the payments), <name>_run (the recorded service's),
// <name>_timed (the timed service's) and <name>_replay (pgbench's), on DATABASE_URL's server (default dictum_bench on 127.0.0.1:5432);
// dropped at the end unless --keep. BANK_BENCH_DUMP=<file> writes the recorded statements to a file and
// BANK_BENCH_ANSWERS=<file> the answers of the three requests of each run (the last run's stays), to compare builds.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertBenchDatabase, connect, databaseName, TCP_DATABASE_URL, withDatabase, withHostPort } from './lib/database.mjs';
import { startRecorder } from './lib/pg-recorder.mjs';
import { freePort, login, readCpuTicks, startDictum, waitIdle } from './lib/server.mjs';
import { parsePgbenchOutput, pgArgs, pgbenchScript } from './lib/pgbench.mjs';
import { runTool } from './lib/children.mjs';
import { formatProfile, summarizeProfile } from './lib/profile.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const LINES = option('lines', 1000);
/** Lines of the warm-up statement (its own payments), run through the instance before the measured one. */
const WARMUP = option('warmup', LINES);
/** How many warm-up statements (each of --warmup lines, each on payments of its own). */
const WARMUPS = option('warmups', 3);
const keep = process.argv.includes('--keep');
/** --profile: the server runs with a V8 CPU profile; the measured statement's steps are summarized from it. */
const profileDir = process.argv.includes('--profile') ? fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bank-profile-')) : null;
const baseUrl = process.env.DATABASE_URL?.trim() || TCP_DATABASE_URL;
assertBenchDatabase(baseUrl);
const base = `${databaseName(baseUrl)}_bank`;
const url = (suffix) => withDatabase(baseUrl, `${base}_${suffix}`);
const BANK_ACCOUNT = 100;
/** /proc counts CPU time in clock ticks of 10 ms (USER_HZ 100, as waitIdle assumes). */
const TICK_MS = 10;
const FIRST_PAYMENT = 2_900_001;

async function admin(fn) {
  const c = await connect(withDatabase(baseUrl, 'postgres'));
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
const drop = (names) => admin(async (c) => {
  for (const n of names) await c.query(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`);
});

/** The demo database, migrated, with LINES (and WARMUP) completed unreconciled payments of the bank account (receipts and vendor payments). */
async function preparePre() {
  await drop([`${base}_pre`, `${base}_run`, `${base}_timed`, `${base}_replay`]);
  await admin((c) => c.query(`CREATE DATABASE "${base}_pre"`));
  const migrated = spawnSync(process.execPath, ['dist/src/main.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: url('pre'), LOG_LEVEL: 'warn' }, encoding: 'utf8' });
  if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr.slice(-1500)}`);
  const c = await connect(url('pre'));
  try {
    await c.query(
      `INSERT INTO c_payment (c_payment_id, c_payment_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, documentno, c_doctype_id, isreceipt,
         c_bankaccount_id, c_bpartner_id, c_currency_id, datetrx, dateacct, payamt, discountamt, writeoffamt, overunderamt, tendertype, trxtype,
         docstatus, docaction, processed, posted, isallocated, isreconciled, isprepayment, processing)
       SELECT $1 + i, gen_random_uuid()::text, 11, 11, 'Y', now(), 100, now(), 100, 'BNK' || lpad(i::text, 6, '0'), CASE WHEN i % 3 = 0 THEN 125 ELSE 119 END,
              CASE WHEN i % 3 = 0 THEN 'N' ELSE 'Y' END, $2, CASE WHEN i % 2 = 0 THEN 117 ELSE 118 END, 100, current_date, current_date,
              10 + (i % 500) + (i % 100) / 100.0, 0, 0, 0, 'K', 'S', 'CO', 'CL', 'Y', 'Y', 'N', 'N', 'N', 'N'
         FROM generate_series(0, $3 - 1) i`,
      [FIRST_PAYMENT, BANK_ACCOUNT, LINES + WARMUP * WARMUPS],
    );
  } finally {
    await c.end();
  }
  await admin(async (a) => {
    await a.query(`CREATE DATABASE "${base}_run" TEMPLATE "${base}_pre"`);
    await a.query(`CREATE DATABASE "${base}_timed" TEMPLATE "${base}_pre"`);
    await a.query(`CREATE DATABASE "${base}_replay" TEMPLATE "${base}_pre"`);
  });
}

/** The statement's lines as the bank reports them: each names its payment's document number and amount. */
async function statementLines() {
  const c = await connect(url('run'));
  try {
    const { rows } = await c.query(`SELECT documentno, CASE WHEN isreceipt = 'Y' THEN payamt ELSE -payamt END AS amount FROM c_payment WHERE c_payment_id >= $1 ORDER BY c_payment_id`, [FIRST_PAYMENT]);
    return rows.map((r) => ({ ReferenceNo: r.documentno, StmtAmt: Number(r.amount), TrxAmt: Number(r.amount) }));
  } finally {
    await c.end();
  }
}

async function call(server, token, method, p, body) {
  const r = await fetch(server.baseUrl + p, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(600_000) });
  const text = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p} answered ${r.status}: ${text.slice(0, 800)}`);
  return JSON.parse(text);
}

/** Nanoseconds a thread has run (schedstat, exact where /proc/<pid>/stat counts 10 ms ticks); null without it. */
function threadNs(pid, tid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/** The server's main thread (which runs the service's JavaScript) and the rest of its threads (V8's compiler and GC helpers, libuv's pool): ns run. */
function serverNs(pid) {
  let others = 0;
  let tids = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  for (const tid of tids) if (Number(tid) !== pid) others += threadNs(pid, tid) ?? 0;
  const main = threadNs(pid, pid);
  return main === null ? null : { main, others };
}

/** CPU ticks of each PostgreSQL backend serving a database (by pid, from /proc; the server runs on this machine). */
async function backendTicks(admin, datname) {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [datname]);
  return new Map(rows.map((r) => [r.pid, readCpuTicks(r.pid) ?? 0]));
}

/** The CPU ms the backends used between two readings (a backend that started in between counts from zero). */
const backendMs = (before, after) => [...after].reduce((sum, [pid, t]) => sum + (t - (before.get(pid) ?? 0)), 0) * TICK_MS;

/** A statement of `lines` created, matched and completed through the API: the three answers and their times. */
async function statementThroughApi(server, token, lines, pg) {
  // The server's CPU time per step (user + system, all its threads, from /proc): steadier than wall time on a shared machine.
  // The same for the PostgreSQL backends of its database, read between the steps on a connection of their own.
  const pgTicks = [await backendTicks(pg.admin, pg.datname)];
  const ticks = [readCpuTicks(server.pid)];
  const ns = [serverNs(server.pid)];
  // The steps' bounds on the monotonic clock V8's CPU profile is timed by (microseconds).
  const clock = () => Number(process.hrtime.bigint() / 1000n);
  const bounds = [clock()];
  // Each request timed on its own: the readings between them are left out of the service's time.
  const at = [performance.now()];
  const created = await call(server, token, 'POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK_ACCOUNT, C_BankStatementLine: lines });
  at.push(performance.now());
  ticks.push(readCpuTicks(server.pid));
  ns.push(serverNs(server.pid));
  bounds.push(clock());
  pgTicks.push(await backendTicks(pg.admin, pg.datname));
  at.push(performance.now());
  const matched = await call(server, token, 'POST', '/api/v1/processes/c_bankstatement_matcher', { 'model-name': 'c_bankstatement', 'record-id': created.id });
  at.push(performance.now());
  ticks.push(readCpuTicks(server.pid));
  ns.push(serverNs(server.pid));
  bounds.push(clock());
  pgTicks.push(await backendTicks(pg.admin, pg.datname));
  at.push(performance.now());
  const done = await call(server, token, 'PUT', `/api/v1/models/c_bankstatement/${created.id}`, { 'doc-action': 'CO' });
  at.push(performance.now());
  ticks.push(readCpuTicks(server.pid));
  ns.push(serverNs(server.pid));
  bounds.push(clock());
  pgTicks.push(await backendTicks(pg.admin, pg.datname));
  const steps = { create: at[1] - at[0], match: at[3] - at[2], complete: at[5] - at[4] };
  const ms = steps.create + steps.match + steps.complete;
  const cpuMs = (i) => (ticks[i + 1] - ticks[i]) * TICK_MS;
  const threadMs = (i, which) => (ns[i] && ns[i + 1] ? Math.round((ns[i + 1][which] - ns[i][which]) / 1e5) / 10 : null);
  if (matched.isError || matched.summary !== `Matched ${lines.length} of ${lines.length} lines`) throw new Error(`the matcher answered: ${JSON.stringify(matched)}`);
  if (process.env.BANK_BENCH_ANSWERS) fs.writeFileSync(process.env.BANK_BENCH_ANSWERS, JSON.stringify({ created, matched, done }, null, 1));
  const status = typeof done.DocStatus === 'object' ? done.DocStatus.id : done.DocStatus;
  if (status !== 'CO') throw new Error(`the statement ended in ${status}`);
  return {
    ms,
    steps: { create: Math.round(steps.create), match: Math.round(steps.match), complete: Math.round(steps.complete) },
    serverCpuMs: { create: cpuMs(0), match: cpuMs(1), complete: cpuMs(2) },
    mainThreadMs: { create: threadMs(0, 'main'), match: threadMs(1, 'main'), complete: threadMs(2, 'main') },
    otherThreadsMs: { create: threadMs(0, 'others'), match: threadMs(1, 'others'), complete: threadMs(2, 'others') },
    postgresCpuMs: { create: backendMs(pgTicks[0], pgTicks[1]), match: backendMs(pgTicks[1], pgTicks[2]), complete: backendMs(pgTicks[2], pgTicks[3]) },
    documentNo: done.DocumentNo,
    summary: matched.summary,
    windows: { create: [bounds[0], bounds[1]], match: [bounds[1], bounds[2]], complete: [bounds[2], bounds[3]] },
  };
}

/**
 * The measured statement after the warm-up statements, each on its own payments (the instance
 * loads and compiles its code on first use, as it would have long done in service), on the
 * database `<base>_<suffix>`: {ms, steps, statements, documentNo, summary}. With `record`, the
 * instance reaches PostgreSQL through the recording relay and `statements` lists what it sent for
 * the measured statement; without, it connects directly (the relay's extra hop on every round
 * trip is not the service's time, and pgbench's replay does not pay it either).
 */
async function runService(lines, warmup, { suffix, record }) {
  const recorder = record ? await startRecorder({ host: '127.0.0.1', port: Number(new URL(baseUrl).port || 5432) }) : null;
  const nodeArgs = profileDir && !record ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir] : [];
  const databaseUrl = recorder ? withHostPort(url(suffix), '127.0.0.1', recorder.port) : url(suffix);
  const server = await startDictum({ root, databaseUrl, port: await freePort(), nodeArgs });
  const pg = { admin: await connect(withDatabase(baseUrl, 'postgres')), datname: `${base}_${suffix}` };
  try {
    const token = await login(server.baseUrl);
    for (let i = 0; i < warmup.length; i += WARMUP) await statementThroughApi(server, token, warmup.slice(i, i + WARMUP), pg);
    await waitIdle(server.pid);
    recorder?.clear();
    const run = await statementThroughApi(server, token, lines, pg);
    return { ...run, statements: recorder ? recorder.statements() : [] };
  } finally {
    await pg.admin.end();
    await server.stop();
    await recorder?.close();
  }
}

/**
 * pgbench reads ":name" as a variable even inside a literal: a colon before a letter in a text
 * parameter (the JSON a process instance keeps, "isError":false) gets a space after it.
 */
const withoutColons = (st) => ({ ...st, params: st.params.map((p) => (typeof p === 'string' ? p.replace(/:(?=[A-Za-z_])/g, ': ') : p)) });

/** The recorded statements replayed once, in one session, by pgbench: milliseconds. */
async function replay(statements) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bank-bench-'));
  try {
    const file = path.join(dir, 'bank-statement.sql');
    if (process.env.BANK_BENCH_DUMP) fs.writeFileSync(process.env.BANK_BENCH_DUMP, JSON.stringify(statements, null, 1));
    fs.writeFileSync(file, pgbenchScript(statements.map(withoutColons)));
    const conn = pgArgs(url('replay'));
    const out = await runTool('pgbench', ['-n', '-f', file, '-c', '1', '-t', '1', '-M', 'prepared', ...conn.args, conn.db], {
      cwd: dir,
      env: conn.env,
      timeoutMs: 600_000,
      describeFailure: (code, err) => `pgbench exited with ${code}: ${err.trim().split('\n').slice(-5).join(' | ')}`,
    });
    const parsed = parsePgbenchOutput(out);
    if (parsed.failed) throw new Error('the replay failed');
    return parsed.meanMs;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of a V8 CPU profile sampled between two instants (microseconds of the monotonic clock). */
function profileWindow(profile, [from, to]) {
  const samples = [];
  const timeDeltas = [];
  let t = profile.startTime;
  let last = null;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    timeDeltas.push(last === null ? 0 : t - last);
    samples.push(profile.samples[i]);
    last = t;
  }
  return { ...profile, samples, timeDeltas };
}

/** The measured steps' share of the server's CPU profile, by function. */
function printProfile(windows) {
  const files = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) return console.log(`(${files.length} CPU profiles in ${profileDir})`);
  const file = path.join(profileDir, files[0]);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  console.log(`steps on the profile's clock (µs): ${JSON.stringify(windows)}`);
  for (const [step, window] of Object.entries(windows)) console.log(formatProfile({ file: `${file} (${step})`, ...summarizeProfile(profileWindow(profile, window), 25) }));
}

try {
  const preparing = performance.now();
  await preparePre();
  const all = await statementLines();
  const lines = all.slice(0, LINES);
  console.log(`bank statement benchmark: ${lines.length} lines (after ${WARMUPS} warm-up statement${WARMUPS === 1 ? '' : 's'} of ${WARMUP}), prepared in ${Math.round((performance.now() - preparing) / 1000)} s`);
  const recorded = await runService(lines, all.slice(LINES), { suffix: 'run', record: true });
  const service = { ...(await runService(lines, all.slice(LINES), { suffix: 'timed', record: false })), statements: recorded.statements };
  if (service.documentNo !== recorded.documentNo || service.summary !== recorded.summary) throw new Error(`the timed run (${service.documentNo}, ${service.summary}) differs from the recorded one (${recorded.documentNo}, ${recorded.summary})`);
  const replayMs = await replay(service.statements);
  const ratio = Math.round((replayMs / service.ms) * 100) / 100;
  console.log(`statement ${service.documentNo}: created, ${service.summary.toLowerCase()}, completed through the API in ${Math.round(service.ms)} ms (create ${service.steps.create}, match ${service.steps.match}, complete ${service.steps.complete})`);
  const cpu = service.serverCpuMs;
  console.log(`server CPU: ${cpu.create + cpu.match + cpu.complete} ms (create ${cpu.create}, match ${cpu.match}, complete ${cpu.complete})`);
  const main = service.mainThreadMs;
  const others = service.otherThreadsMs;
  if (main.create !== null) {
    const sum = (x) => Math.round((x.create + x.match + x.complete) * 10) / 10;
    console.log(`of which its main thread: ${sum(main)} ms (create ${main.create}, match ${main.match}, complete ${main.complete}); its other threads: ${sum(others)} ms (create ${others.create}, match ${others.match}, complete ${others.complete})`);
  }
  const pgCpu = service.postgresCpuMs;
  console.log(`PostgreSQL backends' CPU: ${pgCpu.create + pgCpu.match + pgCpu.complete} ms (create ${pgCpu.create}, match ${pgCpu.match}, complete ${pgCpu.complete})`);
  console.log(`SQL statements: ${service.statements.length}`);
  console.log(`pgbench replay of the same SQL: ${Math.round(replayMs)} ms`);
  console.log(`ratio (replay / service): ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  if (profileDir) printProfile(service.windows);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ lines: lines.length, statements: service.statements.length, serviceMs: Math.round(service.ms), steps: service.steps, serverCpuMs: service.serverCpuMs, mainThreadMs: service.mainThreadMs, otherThreadsMs: service.otherThreadsMs, postgresCpuMs: service.postgresCpuMs, replayMs: Math.round(replayMs), ratio }));
} finally {
  if (!keep) await drop([`${base}_run`, `${base}_timed`, `${base}_replay`, `${base}_pre`]);
}
