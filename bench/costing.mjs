// Costing benchmark (npm run bench:costing; alone: node bench/costing.mjs [--lines 10000]
// [--shipments 1000] [--seconds 10] [--tcp]). Build first (npm run build).
// The demo costed at Average PO, on fresh PostgreSQL databases:
// 1. a physical inventory of --lines lines completed (bench/physical-inventory.mjs --average, one run);
// 2. --shipments shipments of one line each (a demo product, stock at its average cost) completed one
//    after another through PUT /api/v1/models/m_inout/{id} {"doc-action":"CO"}, each writing its
//    cost detail, moving the average's quantity and posting cost of goods sold at the average. The
//    statements of one more completion are recorded on the wire and replayed by pgbench (bound
//    values, in a transaction that rolls back) for --seconds: ratio = replay time / service time
//    (target at least 0.5).
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertBenchDatabase, connect, defaultDatabaseUrl, withDatabase } from './lib/database.mjs';
import { freePort, login, startDictum } from './lib/server.mjs';
import { numberOption as option, recordCompletion, replayRatio } from './lib/completion-replay.mjs';
import { call, completeDocument } from './lib/api-call.mjs';
import { costDemoAtAverage } from './lib/average-costing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lineCount = option('lines', 10_000);
const shipments = option('shipments', 1000);
const seconds = option('seconds', 10);
const NAME = 'dictum_bench_costing';
const base = process.env.DATABASE_URL ?? defaultDatabaseUrl({ tcp: process.argv.includes('--tcp') });
const url = withDatabase(base, NAME);
assertBenchDatabase(url);
const PRODUCT = 128;
const log = (s) => console.log(s);

log(`costing benchmark at Average PO: a count of ${lineCount} lines, ${shipments} shipments, pgbench ${seconds} s (Node ${process.version}, ${os.cpus().length} CPUs)`);
const count = spawnSync(process.execPath, ['bench/physical-inventory.mjs', '--lines', String(lineCount), '--runs', '1', '--seconds', String(seconds), '--average', ...(process.argv.includes('--tcp') ? ['--tcp'] : [])], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
if (count.status !== 0) throw new Error(`the physical inventory part ended with ${count.status}`);

const admin = await connect(withDatabase(url, 'postgres'));
await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
await admin.query(`CREATE DATABASE ${NAME}`);
await admin.end();
const db = await connect(url);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-costing-bench-'));
let server;
/** Draft shipments of one unit of the product each, through the API. */
const drafts = async (at, token, n) => {
  const ids = [];
  for (let i = 0; i < n; i++) ids.push((await call(at, token, 'POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: PRODUCT, MovementQty: 1 }] })).id);
  return ids;
};
const complete = (at, token, id) => completeDocument(at, token, 'm_inout', id);
try {
  server = await startDictum({ root, databaseUrl: url, port: await freePort(), waitMs: 600_000 });
  const token = await login(server.baseUrl);
  await costDemoAtAverage(db);
  // Stock for every shipment, at the product's average cost (as a count at the average would bring it).
  await db.query(
    `UPDATE m_storageonhand SET qtyonhand = qtyonhand + $2
      WHERE ctid = (SELECT ctid FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = 101 ORDER BY datematerialpolicy LIMIT 1)`,
    [PRODUCT, shipments + 10],
  );
  await db.query('UPDATE m_cost SET currentqty = currentqty + $2 WHERE m_product_id = $1 AND m_costelement_id = 103', [PRODUCT, shipments + 10]);
  const ids = await drafts(server, token, shipments + 1);
  await complete(server, token, ids.shift());
  const started = performance.now();
  for (const id of ids) await complete(server, token, id);
  const total = performance.now() - started;
  const { rows } = await db.query(
    `SELECT c.currentcostprice::text AS price, c.currentqty::text AS qty,
            (SELECT count(*)::int FROM m_costdetail cd WHERE cd.m_product_id = $1 AND cd.m_inoutline_id IS NOT NULL) AS details
       FROM m_cost c WHERE c.m_product_id = $1 AND c.m_costelement_id = 103`,
    [PRODUCT],
  );
  await server.stop();
  server = null;
  // One shipment completed first (caches warm), then the statements of the next one.
  const warmThenNext = async (at, token) => {
    const [first, next] = await drafts(at, token, 2);
    await complete(at, token, first);
    return next;
  };
  const statements = await recordCompletion({ root, url, warm: warmThenNext, measured: complete });
  const mean = total / shipments;
  const { replay, replayMs, ratio } = await replayRatio({ url, statements, name: 'shipment-complete', seconds, workDir, serviceMs: mean });
  log('');
  log(`${shipments} shipments completed at average cost: ${total.toFixed(0)} ms, mean ${mean.toFixed(1)} ms a shipment; ${rows[0].details} cost details, cost ${rows[0].price} on ${rows[0].qty}`);
  log(`statements per shipment completion: ${statements.length}`);
  log(`pgbench replay of those statements: ${replayMs.toFixed(2)} ms (${replay.transactions} replays, ${replay.failed} failed)`);
  log(`ratio replay / service: ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
} finally {
  await db.end();
  if (server) await server.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}
