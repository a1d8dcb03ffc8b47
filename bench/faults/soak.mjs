// Soak run (npm run soak -- --minutes 30 [--instances 1,3] [--clients 32] [--pause-ms 100]).
// Mixed traffic from --clients clients against one instance, then (with --instances 1,3) against
// three instances of one PostgreSQL database: reads (lists, records with their lines), writes
// (partners created and changed), documents (sales orders created and completed), reports (Storage
// Detail as CSV and HTML), webhooks (every partner created is delivered to a local receiver) and
// uploads (a file in two chunks, read back and deleted). Prints requests, errors, p50/p99 and the
// servers' resident memory per minute; the target is 0 errors, no webhook lost, and each server's
// RSS in the last ten minutes within 10% of its tenth minute.
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/dictum_soak) names a database of its own:
// it is created and migrated when missing, and dropped at the end unless --keep.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, databaseName, ensureDatabase, withDatabase } from '../lib/database.mjs';
import { freePort, loginSession, readMemory, startDictum } from '../lib/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { soakMinutes, soakTable, memoryTarget } = await import(path.join(root, 'dist/bench/faults/tables.js'));
const { insertRow } = await import(path.join(root, 'dist/src/auth/util.js'));

function option(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
}
const instancePlan = String(option('instances', '1,3')).split(',').map(Number).filter((n) => n > 0);
// --minutes 30 runs each phase 30 minutes; --minutes 30,10 runs the first 30 and the second 10.
const minutesPlan = String(option('minutes', '30')).split(',').map(Number);
const minutesOf = (i) => minutesPlan[Math.min(i, minutesPlan.length - 1)];
const clients = Number(option('clients', '32'));
const pauseMs = Number(option('pause-ms', '100'));
const keep = process.argv.includes('--keep');
const resultFile = option('out', path.join(root, 'bench/results/soak.json'));
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/dictum_soak';
if (!databaseName(databaseUrl).startsWith('dictum_soak')) throw new Error(`the soak writes into its own database only: its name must start with dictum_soak (got ${databaseName(databaseUrl)})`);

// The commit measured: read at the start, since the worktree may move on while a long run goes.
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const startedAt = new Date().toISOString();
const log = (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the database: created, migrated, webhooks switched on for the demo client -----------------
if (await ensureDatabase(databaseUrl)) log(`created database ${databaseName(databaseUrl)}`);
const migrate = spawnSync(process.execPath, ['dist/src/main.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 900_000 });
if (migrate.status !== 0) throw new Error(`migrate failed: ${(migrate.stderr || migrate.stdout || '').slice(-1500)}`);
const db = await connect(databaseUrl);
/** The pg client as the service's Queryable: statement names are the service's concern, not needed here. */
const queryable = (client) => ({ query: (text, params) => client.query(text, params) });
for (const [name, value, clientId] of [['REST_WEBHOOK_ENABLED', 'Y', 11], ['REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1', 0]]) {
  await db.query('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = $2', [name, clientId]);
  await insertRow(queryable(db), 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
}
await db.query(`UPDATE rest_webhook_out SET isactive = 'N'`);

// --- the webhook receiver ----------------------------------------------------------------------
const received = new Set();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.add(String(req.headers['webhook-id']));
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

// --- one client's requests -----------------------------------------------------------------------
const PRODUCTS = [128, 133, 137, 134, 136];
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];

/** The samples of the running phase: one per HTTP request ({atMs, ms, error}), and one per failed check (ms null). */
const recorder = { started: 0, samples: [] };
/** fetch, recorded as one request; an answer outside 2xx or no answer is an error. */
async function timedFetch(url, init) {
  const t0 = performance.now();
  try {
    const r = await fetch(url, init);
    const bytes = Buffer.from(await r.arrayBuffer());
    recorder.samples.push({ atMs: performance.now() - recorder.started, ms: performance.now() - t0, error: r.status < 200 || r.status > 299 });
    return { r, bytes };
  } catch (e) {
    recorder.samples.push({ atMs: performance.now() - recorder.started, ms: performance.now() - t0, error: true });
    throw e;
  }
}

/** A request that must answer 2xx; returns {status, body}; throws {status, text} otherwise. */
async function call(session, method, urlPath, body, headers = {}) {
  for (let attempt = 0; ; attempt++) {
    const isBuffer = Buffer.isBuffer(body);
    const { r, bytes } = await timedFetch(session.baseUrl + urlPath, {
      method,
      headers: { authorization: `Bearer ${session.token}`, accept: 'application/json', ...(body !== undefined && !isBuffer ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : isBuffer ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = bytes.toString('utf8');
    // An access token that ran out is renewed, as a client would; the request is then made again.
    if (r.status === 401 && attempt === 0) {
      session.token = (await loginSession(session.baseUrl)).token;
      continue;
    }
    if (r.status < 200 || r.status > 299) throw Object.assign(new Error(`${method} ${urlPath} answered ${r.status}: ${text.slice(0, 300)}`), { status: r.status });
    return { status: r.status, body: text && (r.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  }
}

let partnerCounter = 0;
const runTag = Date.now().toString(36);

/** The kinds of work and their shares of the traffic (weights). */
const WORK = [
  ['read list', 20, async (s) => call(s, 'GET', `/api/v1/models/c_bpartner?$filter=${encodeURIComponent('IsCustomer eq true')}&$top=20&$orderby=Name`)],
  ['read record', 15, async (s) => call(s, 'GET', `/api/v1/models/m_product/${pick(PRODUCTS)}`)],
  ['read order', 10, async (s) => {
    const list = await call(s, 'GET', `/api/v1/models/c_order?$top=5&$orderby=${encodeURIComponent('Created desc')}&$select=DocumentNo`);
    const first = list.body.records?.[0];
    if (first) await call(s, 'GET', `/api/v1/models/c_order/${first.id}?$expand=C_OrderLine`);
  }],
  ['write partner', 15, async (s) => {
    const n = ++partnerCounter;
    const created = await call(s, 'POST', '/api/v1/models/c_bpartner', { Value: `SOAK-${runTag}-${n}`, Name: `Soak Partner ${n}`, IsCustomer: true });
    await call(s, 'PUT', `/api/v1/models/c_bpartner/${created.body.id}`, { Description: `changed ${new Date().toISOString()}` });
  }],
  ['document', 15, async (s) => {
    const order = await call(s, 'POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [{ M_Product_ID: pick(PRODUCTS), QtyEntered: 1 + Math.floor(Math.random() * 5), C_Tax_ID: 105 }],
      'doc-action': 'CO',
    });
    const status = order.body.DocStatus?.id ?? order.body.DocStatus;
    if (status !== 'CO') throw new Error(`order ${order.body.id} ended ${status}, not CO`);
  }],
  ['report', 10, async (s) => {
    const type = Math.random() < 0.5 ? 'CSV' : 'HTML';
    const r = await call(s, 'POST', '/api/v1/processes/rv_storage', { 'report-type': type });
    if (r.body.isError) throw new Error(`report answered an error: ${JSON.stringify(r.body).slice(0, 300)}`);
  }],
  ['upload', 5, async (s) => {
    const chunkSize = 64 * 1024;
    const data = randomBytes(chunkSize + 1000 + Math.floor(Math.random() * 20_000));
    const sha = (b) => createHash('sha256').update(b).digest('hex');
    const up = await call(s, 'POST', '/api/v1/uploads', { fileName: `soak-${runTag}.bin`, contentType: 'application/octet-stream', fileSize: data.length, chunkSize, sha256: sha(data), uploadLocation: 'ARCHIVE' });
    const id = up.body.uploadId;
    for (const [n, part] of [[2, data.subarray(chunkSize)], [1, data.subarray(0, chunkSize)]]) {
      await call(s, 'PUT', `/api/v1/uploads/${id}/chunks/${n}`, part, { 'content-type': 'application/octet-stream', 'x-total-chunks': '2', 'x-content-sha256': sha(part) });
    }
    const { r, bytes: back } = await timedFetch(`${s.baseUrl}/api/v1/uploads/${id}/file`, { headers: { authorization: `Bearer ${s.token}` }, signal: AbortSignal.timeout(120_000) });
    if (r.status !== 200 || sha(back) !== sha(data)) throw new Error(`upload ${id} read back ${r.status}, ${back.length} of ${data.length} bytes`);
    await call(s, 'DELETE', `/api/v1/uploads/${id}`);
  }],
];
const totalWeight = WORK.reduce((n, w) => n + w[1], 0);
const chooseWork = () => {
  let x = Math.random() * totalWeight;
  for (const w of WORK) if ((x -= w[1]) < 0) return w;
  return WORK[0];
};

// --- one phase: n instances, the clients spread over them ----------------------------------------
async function phase(instances, minutes) {
  log(`phase: ${instances} instance(s), ${clients} clients, ${minutes} minute(s)`);
  const servers = [];
  for (let i = 0; i < instances; i++) {
    const server = await startDictum({ root, databaseUrl, port: await freePort(), env: { LOG_LEVEL: 'warn' } });
    // An instance that ends by itself during the run is counted as crashed.
    server.exited.then(() => (server.gone = true));
    servers.push(server);
  }
  const admin = { baseUrl: servers[0].baseUrl, token: (await loginSession(servers[0].baseUrl)).token };
  const endpoint = await call(admin, 'POST', '/api/v1/models/REST_Webhook_Out', { Name: `Soak ${runTag} ${instances}`, URL: hookUrl });
  await call(admin, 'POST', '/api/v1/models/REST_Webhook_Out_Event', { REST_Webhook_Out_ID: endpoint.body.id, AD_Table_ID: 291, EventModelValidator: 'TAN' });
  await sleep(500);

  const sessions = [];
  for (let c = 0; c < clients; c++) {
    const server = servers[c % servers.length];
    sessions.push({ baseUrl: server.baseUrl, token: (await loginSession(server.baseUrl)).token });
  }
  recorder.samples = [];
  const requests = recorder.samples;
  const memory = [];
  const errors = [];
  const byKind = new Map();
  const started = performance.now();
  recorder.started = started;
  const endAt = started + minutes * 60_000;
  const sampler = setInterval(() => memory.push({ atMs: performance.now() - started, rss: servers.map((s) => readMemory(s.pid)?.rss ?? 0) }), 5000);
  let lastMinute = 0;
  const progress = setInterval(() => {
    const m = Math.floor((performance.now() - started) / 60_000);
    if (m > lastMinute) {
      lastMinute = m;
      const row = soakMinutes(requests, memory, m)[m - 1];
      log(`  minute ${m}: ${row.requests} requests, ${row.errors} errors, p50 ${row.p50} ms, p99 ${row.p99} ms, RSS ${row.rssMb.join(' / ')} MB`);
    }
  }, 1000);

  await Promise.all(sessions.map(async (session) => {
    while (performance.now() < endAt) {
      const [kind, , work] = chooseWork();
      let failed = false;
      const before = requests.length;
      try {
        await work(session);
      } catch (e) {
        failed = true;
        if (errors.length < 50) errors.push(`${kind}: ${e.message}`);
        // A check that failed after answers that were all 2xx counts as an error of its own.
        if (!requests.slice(before).some((r) => r.error)) requests.push({ atMs: performance.now() - started, ms: null, error: true });
      }
      const k = byKind.get(kind) ?? { count: 0, errors: 0 };
      k.count++;
      if (failed) k.errors++;
      byKind.set(kind, k);
      if (pauseMs) await sleep(pauseMs * (0.5 + Math.random()));
    }
  }));
  clearInterval(sampler);
  clearInterval(progress);

  // Every partner created while the subscription was active must arrive once, with status Success.
  const deadline = Date.now() + 180_000;
  let deliveries;
  for (;;) {
    deliveries = (await db.query(`SELECT webhookmessageid AS mid, deliverystatus AS st FROM rest_webhook_out_log WHERE rest_webhook_out_id = $1`, [endpoint.body.id])).rows;
    if (deliveries.every((d) => d.st === 'S' && received.has(d.mid)) || Date.now() > deadline) break;
    await sleep(1000);
  }
  const created = byKind.get('write partner')?.count - (byKind.get('write partner')?.errors ?? 0);
  const webhooks = { written: deliveries.length, succeeded: deliveries.filter((d) => d.st === 'S').length, arrived: deliveries.filter((d) => received.has(d.mid)).length, partnersCreated: created };
  const crashed = servers.filter((s) => s.gone).length;
  for (const s of servers) await s.stop();
  await db.query(`UPDATE rest_webhook_out SET isactive = 'N' WHERE rest_webhook_out_id = $1`, [endpoint.body.id]);

  const perMinute = soakMinutes(requests, memory, minutes);
  const target = memoryTarget(perMinute);
  const totalErrors = requests.filter((r) => r.error).length;
  const totalRequests = requests.filter((r) => r.ms !== null).length;
  console.log(`\n${instances} instance(s), ${clients} clients, ${minutes} min, pause ${pauseMs} ms between a client's requests`);
  console.log(soakTable(perMinute));
  console.log(`requests ${totalRequests}, errors ${totalErrors}; operations by kind (count/failed): ${[...byKind].map(([k, v]) => `${k} ${v.count}/${v.errors}`).join(', ')}`);
  console.log(`webhooks: ${webhooks.written} deliveries written for ${webhooks.partnersCreated} partners created, ${webhooks.succeeded} Success, ${webhooks.arrived} arrived`);
  console.log(`memory: worst drift of the last ten minutes against minute ${target.reference}: ${(target.worstDrift * 100).toFixed(1)}% (${target.met ? 'within' : 'OVER'} 10%)`);
  if (errors.length) console.log(`first errors:\n  ${errors.slice(0, 20).join('\n  ')}`);
  return { instances, clients, minutes, pauseMs, requests: totalRequests, errors: totalErrors, byKind: Object.fromEntries(byKind), webhooks, memory: target, perMinute, firstErrors: errors.slice(0, 20), crashed };
}

const results = [];
try {
  for (const [i, n] of instancePlan.entries()) results.push(await phase(n, minutesOf(i)));
} finally {
  receiver.close();
  await db.end();
  fs.mkdirSync(path.dirname(resultFile), { recursive: true });
  fs.writeFileSync(resultFile, JSON.stringify({ date: startedAt, commit, node: process.version, phases: results }, null, 2));
  log(`results written to ${path.relative(root, resultFile)}`);
  if (!keep) {
    const adminDb = await connect(withDatabase(databaseUrl, 'postgres'));
    await adminDb.query(`DROP DATABASE IF EXISTS "${databaseName(databaseUrl)}" WITH (FORCE)`);
    await adminDb.end();
    log(`dropped database ${databaseName(databaseUrl)}`);
  }
}
const failed = results.some((r) => r.errors > 0 || !r.memory.met || r.webhooks.succeeded !== r.webhooks.written || r.webhooks.written !== r.webhooks.partnersCreated);
process.exitCode = failed ? 1 : 0;
