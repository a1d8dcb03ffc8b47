// Costing benchmark (npm run bench:costing; alone: node bench/costing.mjs [--lines 10000]
// [--shipments 1000] [--seconds 10] [--tcp] [--profile] [--statements] [--http] [--fetch]). Build first (npm run build).
// Its database: DATABASE_URL's when that names a dictum_bench_* one, else dictum_bench_costing (made afresh).
// --profile: a V8 CPU profile of each scenario's server, summarized over the timed completions only;
// --statements: the recorded statements of a completion, each with its prepared name (or unnamed);
// --fetch / --http: the timed completions through fetch or node:http rather than a socket of
// their own (see bench/lib/lean-put.mjs).
// The demo costed at Average PO, on fresh PostgreSQL databases:
// 1. a physical inventory of --lines lines completed (bench/physical-inventory.mjs --average, one run);
// 2. --shipments shipments of one line each (a demo product, stock at its average cost) completed one
//    after another through PUT /api/v1/models/m_inout/{id} {"doc-action":"CO"}, each writing its
//    cost detail, moving the average's quantity and posting cost of goods sold at the average. The
//    statements of one more completion are recorded on the wire and replayed by pgbench (bound
//    values, in a transaction that rolls back) for --seconds: ratio = replay time / service time
//    (target at least 0.5).
// 3. the same --shipments shipments (two units each) with the product costed FIFO: its stock in
//    layers of three units at varying prices (M_CostQueue), so that every other shipment takes from
//    two layers; each shipment's cost is the sum of the layers it takes, in the same statement
//    that costs its lines. Statement count and replay ratio as in 2.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertBenchDatabase, benchDatabaseName, connect, defaultDatabaseUrl, withDatabase } from './lib/database.mjs';
import { freePort, login, startDictum } from './lib/server.mjs';
import { startCpuMeter } from './lib/cpu.mjs';
import { backendPids } from './lib/instances.mjs';
import { formatProfile, summarizeNewestProfile } from './lib/profile.mjs';
import { numberOption as option, recordCompletion, replayRatio } from './lib/completion-replay.mjs';
import { call, completeDocument } from './lib/api-call.mjs';
import { costDemoAtAverage } from './lib/average-costing.mjs';
import { completeShipment, completeShipmentRaw, keptAliveAgent, rawConnection } from './lib/lean-put.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lineCount = option('lines', 10_000);
const shipments = option('shipments', 1000);
const seconds = option('seconds', 10);
const base = process.env.DATABASE_URL ?? defaultDatabaseUrl({ tcp: process.argv.includes('--tcp') });
const NAME = benchDatabaseName(base, 'dictum_bench_costing');
const url = withDatabase(base, NAME);
assertBenchDatabase(url);
const PRODUCT = 128;
// --profile: the server of each scenario runs with a V8 CPU profile, summarized after it stops.
const profileDir = process.argv.includes('--profile') ? fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-costing-profile-')) : null;
/** A CPU meter (bench/lib/cpu.mjs, /proc utime+stime per pid) of the server process and PostgreSQL's backends of the benchmark database. */
const cpuMeter = (pid) => startCpuMeter({ server: () => [pid], backends: () => backendPids(db, NAME) });
const log = (s) => console.log(s);

log(`costing benchmark at Average PO and FIFO: a count of ${lineCount} lines, ${shipments} shipments, pgbench ${seconds} s (Node ${process.version}, ${os.cpus().length} CPUs)`);
// --lines 0 leaves the count part out.
if (lineCount > 0) {
  const count = spawnSync(process.execPath, ['bench/physical-inventory.mjs', '--lines', String(lineCount), '--runs', '1', '--seconds', String(seconds), '--average', ...(process.argv.includes('--tcp') ? ['--tcp'] : [])], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (count.status !== 0) throw new Error(`the physical inventory part ended with ${count.status}`);
}

const admin = await connect(withDatabase(url, 'postgres'));
// FORCE: the backends of a previous run's servers may still be ending.
await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${NAME}"`);
await admin.end();
const db = await connect(url);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-costing-bench-'));
let server;
/** Draft shipments of `qty` units of the product each, through the API. */
const drafts = async (at, token, n, qty) => {
  const ids = [];
  for (let i = 0; i < n; i++) ids.push((await call(at, token, 'POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: PRODUCT, MovementQty: qty }] })).id);
  return ids;
};
const complete = (at, token, id) => completeDocument(at, token, 'm_inout', id);
// The timed completions on a kept-alive socket written to as it is (bench/lib/lean-put.mjs);
// --http: through node:http; --fetch: through fetch. One client a scenario (its server's).
const clientOf = (at, token) => {
  if (process.argv.includes('--fetch')) return { complete: (id) => complete(at, token, id), close() {} };
  if (process.argv.includes('--http')) {
    const http = { server: at, token, agent: keptAliveAgent() };
    return { complete: (id) => completeShipment(http, id), close: () => http.agent.destroy() };
  }
  const raw = { token, connection: rawConnection(at.baseUrl) };
  return { complete: (id) => completeShipmentRaw(raw, id), close: () => raw.connection.destroy() };
};
/** Stock for every shipment of a scenario (and the two recorded ones) on the product's first storage row. */
const addStock = (qty) =>
  db.query(
    `UPDATE m_storageonhand SET qtyonhand = qtyonhand + $2
      WHERE ctid = (SELECT ctid FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = 101 ORDER BY datematerialpolicy LIMIT 1)`,
    [PRODUCT, qty],
  );

/**
 * The product costed FIFO: the schema's method F, its cost row on the FIFO element (102), and its
 * stock in `layers` layers of 3 units at 10.00 to 11.50 (oldest first); the cost's price is the first layer's.
 */
async function costProductAtFifo(layers) {
  await db.query(`UPDATE c_acctschema SET costingmethod = 'F' WHERE ad_client_id = 11`);
  await db.query(
    `INSERT INTO m_costqueue (m_costqueue_id, m_costqueue_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_acctschema_id, m_costtype_id, m_costelement_id, m_product_id, m_attributesetinstance_id, currentcostprice, currentqty)
     SELECT nextval('m_costqueue_sq'), gen_random_uuid()::text, 11, 0, 'Y', now(), 100, now(), 100, a.c_acctschema_id, a.m_costtype_id, 102, $1, 0, 10 + (g % 7) * 0.25, 3
       FROM generate_series(1, $2) g CROSS JOIN c_acctschema a WHERE a.ad_client_id = 11 ORDER BY g`,
    [PRODUCT, layers],
  );
  await db.query(
    `UPDATE m_cost SET m_costelement_id = 102, costingmethod = 'F', currentqty = $2, currentcostprice = 10.25 WHERE m_product_id = $1 AND m_costelement_id = 103`,
    [PRODUCT, layers * 3],
  );
  await addStock(layers * 3);
}

/**
 * Completes `shipments` drafts of `qty` units one after another (after one to warm the caches),
 * then records the statements of one more completion and replays them: answers the times, the
 * statement count, the ratio and the cost row of `element` after the run.
 */
async function shipmentScenario({ qty, element, prepare }) {
  server = await startDictum({ root, databaseUrl: url, port: await freePort(), waitMs: 600_000, nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [] });
  const token = await login(server.baseUrl);
  await prepare();
  const ids = await drafts(server, token, shipments + 1, qty);
  const client = clientOf(server, token);
  await client.complete(ids.shift());
  const meter = await cpuMeter(server.pid);
  const client0 = process.cpuUsage();
  const started = performance.now();
  // The profile's summary covers the completions only (µs of the monotonic clock the profile's samples are timed by).
  const window = { from: Number(process.hrtime.bigint() / 1000n) };
  for (const id of ids) await client.complete(id);
  window.to = Number(process.hrtime.bigint() / 1000n);
  const total = performance.now() - started;
  const used = await meter.stop();
  const client1 = process.cpuUsage(client0);
  // The meter answers cores (CPU seconds a wall second): ms of CPU a shipment.
  const cpu = { server: (used.server * used.seconds * 1000) / shipments, backends: (used.backends * used.seconds * 1000) / shipments, client: (client1.user + client1.system) / 1000 / shipments };
  const { rows } = await db.query(
    `SELECT c.currentcostprice::text AS price, c.currentqty::text AS qty,
            (SELECT count(*)::int FROM m_costdetail cd WHERE cd.m_product_id = $1 AND cd.m_inoutline_id IS NOT NULL AND cd.m_costelement_id = $2) AS details,
            (SELECT count(*)::int FROM m_costqueue q WHERE q.m_product_id = $1 AND q.m_costelement_id = $2 AND q.currentqty > 0) AS layers
       FROM m_cost c WHERE c.m_product_id = $1 AND c.m_costelement_id = $2`,
    [PRODUCT, element],
  );
  client.close();
  await server.stop();
  server = null;
  if (profileDir) {
    const summary = summarizeNewestProfile(profileDir, window);
    if (summary) log(`${formatProfile(summary)}\n  (the completions only: samples from ${window.from} to ${window.to} µs)`);
  }
  // One shipment completed first (caches warm), then the statements of the next one. Without the
  // pauses the recorded completion sometimes read the kept reference identifiers again (7 reads
  // more, 17 statements instead of 10, as if their cache had been emptied just before: most
  // likely by a cache notification of the warm-up's writes arriving late), which the timed
  // completions, after a thousand others, do not.
  const settle = () => new Promise((r) => setTimeout(r, 500));
  const warmThenNext = async (at, t) => {
    const [first, next] = await drafts(at, t, 2, qty);
    await settle();
    await complete(at, t, first);
    await settle();
    return next;
  };
  const statements = await recordCompletion({ root, url, warm: warmThenNext, measured: complete });
  // --statements: the recorded statements, each with its prepared name (none: sent unnamed, parsed and planned every time).
  if (process.argv.includes('--statements')) for (const s of statements) log(`  [${s.name || 'unnamed'}] ${s.text.replace(/\s+/g, ' ').slice(0, 160)}`);
  const mean = total / shipments;
  const replayed = await replayRatio({ url, statements, name: `shipment-complete-${element}`, seconds, workDir, serviceMs: mean });
  return { total, mean, cpu, statements: statements.length, cost: rows[0], ...replayed };
}

const report = (label, r) => {
  log('');
  log(`${shipments} shipments completed ${label}: ${r.total.toFixed(0)} ms, mean ${r.mean.toFixed(1)} ms a shipment; ${r.cost.details} cost details, cost ${r.cost.price} on ${r.cost.qty}${r.cost.layers ? ` in ${r.cost.layers} layers` : ''}`);
  log(`statements per shipment completion: ${r.statements}`);
  log(`CPU a shipment (/proc utime+stime over the ${shipments}): server ${r.cpu.server.toFixed(2)} ms, PostgreSQL backends ${r.cpu.backends.toFixed(2)} ms (this process, the HTTP client: ${r.cpu.client.toFixed(2)} ms)`);
  log(`pgbench replay of those statements: ${r.replayMs.toFixed(2)} ms (${r.replay.transactions} replays, ${r.replay.failed} failed)`);
  log(`ratio replay / service: ${r.ratio.toFixed(2)}x (target >= 0.5x) ${r.ratio >= 0.5 ? 'met' : 'NOT met'}`);
};

try {
  const average = await shipmentScenario({
    qty: 1,
    element: 103,
    prepare: async () => {
      await costDemoAtAverage(db);
      // Stock for every shipment, at the product's average cost (as a count at the average would bring it).
      await addStock(shipments + 10);
      await db.query('UPDATE m_cost SET currentqty = currentqty + $2 WHERE m_product_id = $1 AND m_costelement_id = 103', [PRODUCT, shipments + 10]);
    },
  });
  report('at average cost', average);
  // Two units a shipment from layers of three: enough layers for the measured shipments and the recorded ones.
  const fifo = await shipmentScenario({ qty: 2, element: 102, prepare: () => costProductAtFifo(Math.ceil((2 * shipments + 10) / 3)) });
  report('at FIFO (2 units each from layers of 3)', fifo);
} finally {
  await db.end();
  if (server) await server.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}
