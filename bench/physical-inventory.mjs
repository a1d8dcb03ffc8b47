// Physical inventory benchmark (npm run bench:inventory; alone: node bench/physical-inventory.mjs
// [--lines 10000] [--runs 3] [--seconds 10] [--tcp] [--average]). Build first (npm run build).
// With --average the demo is costed at Average PO (bench/costing.mjs runs it so).
// On a fresh PostgreSQL database (dictum_bench_inventory, recreated each time) with the demo
// company, it counts `--lines` lines (the stocked demo products across as many new locators of
// the HQ warehouse as it takes, book stock on half of them), completes `--runs` such counts one
// after another through PUT /api/v1/models/m_inventory/{id} {"doc-action":"CO"}, and prints the
// time of each completion and the statements it ran. The ceiling is pgbench replaying the same
// statements (with the values bound, in a transaction that rolls back) for `--seconds`: the ratio
// is replay time / service time (1.0: the service adds nothing to its SQL; target at least 0.5).
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assertBenchDatabase, connect, defaultDatabaseUrl, withDatabase } from './lib/database.mjs';
import { freePort, login, startDictum } from './lib/server.mjs';
import { numberOption as option, recordCompletion, replayRatio } from './lib/completion-replay.mjs';
import { call, completeDocument } from './lib/api-call.mjs';
import { costDemoAtAverage } from './lib/average-costing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lineCount = option('lines', 10_000);
const runs = option('runs', 3);
const seconds = option('seconds', 10);
const base = process.env.DATABASE_URL ?? defaultDatabaseUrl({ tcp: process.argv.includes('--tcp') });
const url = withDatabase(base, 'dictum_bench_inventory');
assertBenchDatabase(url);
const log = (s) => console.log(s);

async function recreateDatabase() {
  const admin = await connect(withDatabase(url, 'postgres'));
  try {
    await admin.query('DROP DATABASE IF EXISTS dictum_bench_inventory');
    await admin.query('CREATE DATABASE dictum_bench_inventory');
  } finally {
    await admin.end();
  }
}

/** Locators for the lines (product x locator pairs), book stock on every other pair; returns the pairs. */
async function prepareStock(db) {
  const { rows: products } = await db.query(
    `SELECT p.m_product_id, p.c_uom_id FROM m_product p
      WHERE p.ad_client_id = 11 AND p.producttype = 'I' AND p.isstocked = 'Y' AND p.isactive = 'Y'
        -- Products whose attribute set asks an instance on every count (lots, serial numbers) are left out: the count has no instances.
        AND NOT EXISTS (SELECT 1 FROM m_attributeset s WHERE s.m_attributeset_id = p.m_attributeset_id AND s.m_attributeset_id <> 0
                         AND s.isinstanceattribute = 'Y' AND s.mandatorytype = 'Y')
        AND EXISTS (SELECT 1 FROM m_productprice pp JOIN m_pricelist_version v ON v.m_pricelist_version_id = pp.m_pricelist_version_id
                     JOIN m_pricelist pl ON pl.m_pricelist_id = v.m_pricelist_id AND pl.issopricelist = 'N' WHERE pp.m_product_id = p.m_product_id)
      ORDER BY p.m_product_id`,
  );
  const locators = Math.ceil(lineCount / products.length);
  await db.query(
    `INSERT INTO m_locator (m_locator_id, m_locator_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, m_warehouse_id, value, x, y, z, isdefault, priorityno)
     SELECT nextval('m_locator_sq'), gen_random_uuid()::text, 11, 11, 'Y', now(), 100, now(), 100, 103, 'Count-' || i, 'C', i::text, '0', 'N', 50
       FROM generate_series(1, $1) i`,
    [locators],
  );
  await db.query(
    `INSERT INTO m_storageonhand (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy, ad_client_id, ad_org_id, qtyonhand, m_storageonhand_uu, isactive, created, createdby, updated, updatedby)
     SELECT p.id, l.m_locator_id, 0, date_trunc('day', now()), 11, 11, 1 + (p.id + l.m_locator_id) % 9, gen_random_uuid()::text, 'Y', now(), 100, now(), 100
       FROM m_locator l CROSS JOIN unnest($1::bigint[]) AS p(id)
      WHERE l.value LIKE 'Count-%' AND (p.id + l.m_locator_id) % 2 = 0`,
    [products.map((p) => p.m_product_id)],
  );
  return products;
}

/** The lines of a count: one per product and locator, with the book quantity the line rules give at save, counted a little off it. */
async function addLines(db, inventoryId, products, run) {
  await db.query(
    `INSERT INTO m_inventoryline (m_inventoryline_id, m_inventoryline_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_inventory_id, line, m_product_id, m_locator_id, m_attributesetinstance_id, c_uom_id, qtybook, qtycount, qtycsv, qtyentered, inventorytype,
       processed, currentcostprice, newcostprice)
     SELECT nextval('m_inventoryline_sq'), gen_random_uuid()::text, 11, 11, 'Y', now(), 100, now(), 100,
            $1, 10 * n, x.product, x.locator, 0, x.uom, x.book, (n + $3) % 11, 0, (n + $3) % 11, 'D', 'N', 0, 0
       FROM (SELECT row_number() OVER (ORDER BY l.m_locator_id, p.id) AS n, p.id AS product, p.uom, l.m_locator_id AS locator,
                    COALESCE((SELECT sum(s.qtyonhand) FROM m_storageonhand s WHERE s.m_product_id = p.id AND s.m_locator_id = l.m_locator_id), 0) AS book
               FROM m_locator l CROSS JOIN unnest($4::bigint[], $5::bigint[]) AS p(id, uom)
              WHERE l.value LIKE 'Count-%') x
      WHERE x.n <= $2`,
    [inventoryId, lineCount, run, products.map((p) => p.m_product_id), products.map((p) => p.c_uom_id)],
  );
}

log(`physical inventory benchmark: ${lineCount} lines, ${runs} completions, pgbench ${seconds} s (database dictum_bench_inventory, Node ${process.version}, ${os.cpus().length} CPUs)`);
await recreateDatabase();
let server;
const db = await connect(url);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-inventory-bench-'));
/** A new count of `lineCount` lines through the API and the data set (see addLines). */
const newCount = async (at, token, products, run) => {
  const inv = await call(at, token, 'POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, Description: `Benchmark count ${run}` });
  await addLines(db, inv.id, products, run);
  await db.query('ANALYZE m_inventoryline');
  await db.query('ANALYZE m_storageonhand');
  return inv.id;
};
const complete = (at, token, id) => completeDocument(at, token, 'm_inventory', id);
try {
  // Timed on an instance connected straight to the database, as in service.
  server = await startDictum({ root, databaseUrl: url, port: await freePort(), waitMs: 600_000 });
  const token = await login(server.baseUrl);
  const products = await prepareStock(db);
  if (process.argv.includes('--average')) await costDemoAtAverage(db);
  // A small count first: the service's caches are warm for the measured ones.
  const warm = await call(server, token, 'POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: products[0].m_product_id, QtyCount: 1 }] });
  await complete(server, token, warm.id);
  const times = [];
  for (let run = 1; run <= runs; run++) {
    const id = await newCount(server, token, products, run);
    const started = performance.now();
    await complete(server, token, id);
    times.push(performance.now() - started);
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM m_transaction t JOIN m_inventoryline l ON l.m_inventoryline_id = t.m_inventoryline_id WHERE l.m_inventory_id = $1) AS transactions,
              (SELECT count(*)::int FROM fact_acct WHERE ad_table_id = 321 AND record_id = $1) AS facts`,
      [id],
    );
    log(`  completion ${run}: ${times.at(-1).toFixed(0)} ms, ${rows[0].transactions} transactions, ${rows[0].facts} facts`);
  }
  await server.stop();
  server = null;
  // The statements of one more completion, learnt by an instance behind the recording relay.
  const statements = await recordCompletion({
    root,
    url,
    warm: async (at, token) => {
      const warm2 = await call(at, token, 'POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: products[0].m_product_id, QtyCount: 2 }] });
      await complete(at, token, warm2.id);
      return newCount(at, token, products, runs + 1);
    },
    measured: (at, token, id) => complete(at, token, id),
  });
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const best = Math.min(...times);
  const { replay, replayMs, ratio } = await replayRatio({ url, statements, name: 'inventory-complete', seconds, workDir, serviceMs: mean });
  log('');
  log(`count of ${lineCount} lines completed: mean ${mean.toFixed(0)} ms, best ${best.toFixed(0)} ms (${Math.round((lineCount / mean) * 1000)} lines/s)`);
  log(`statements per completion: ${statements.length} (${(statements.length / lineCount).toFixed(4)} a line)`);
  log(`pgbench replay of those statements: ${replayMs.toFixed(0)} ms (${replay.transactions} replays, ${replay.failed} failed)`);
  log(`ratio replay / service: ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ lines: lineCount, runs, times, statements: statements.length, replayMs, ratio }));
} finally {
  await db.end();
  if (server) await server.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}
