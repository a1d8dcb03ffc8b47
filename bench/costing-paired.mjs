// Two builds side by side (node bench/costing-paired.mjs --base <root of another built checkout>
// [--shipments 1000]): each serves its own fresh database (<name>_paired_base / _new, the name
// DATABASE_URL's when it is a dictum_bench_* one, else dictum_bench), costed at Average PO as
// bench/costing.mjs does, and their shipment completions are alternated one by
// one (PUT {"doc-action":"CO"} with the headers fetch sends, on a socket of each side's own written
// to as it is; --http: through node:http), so that both meet the
// same load of a shared machine. Prints each one's mean time and CPU a completion (/proc, the
// server process and its database's backends), its answer's length, and whether the last answers
// of both are alike but for times (also in epoch milliseconds) and uuids (the two databases are
// made the same way: same ids).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabaseName, connect, defaultDatabaseUrl, withDatabase } from './lib/database.mjs';
import { freePort, login, startDictum } from './lib/server.mjs';
import { startCpuMeter } from './lib/cpu.mjs';
import { backendPids } from './lib/instances.mjs';
import { call } from './lib/api-call.mjs';
import { costDemoAtAverage } from './lib/average-costing.mjs';
import { numberOption } from './lib/completion-replay.mjs';
import { completeShipment, completeShipmentRaw, keptAliveAgent, rawConnection } from './lib/lean-put.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--base');
if (at < 0 || !process.argv[at + 1]) throw new Error('--base <root of a built checkout to compare with> is needed');
const shipments = numberOption('shipments', 1000);
const viaHttp = process.argv.includes('--http');
const completeOn = (s, id) => (viaHttp ? completeShipment(s, id) : completeShipmentRaw(s, id));
const PRODUCT = 128;
const url = process.env.DATABASE_URL ?? defaultDatabaseUrl({ tcp: true });
const prefix = benchDatabaseName(url, 'dictum_bench');
const sides = [
  { label: 'base', root: path.resolve(process.argv[at + 1]), name: `${prefix}_paired_base` },
  { label: 'new', root, name: `${prefix}_paired_new` },
];
const admin = await connect(withDatabase(url, 'postgres'));
for (const s of sides) {
  await admin.query(`DROP DATABASE IF EXISTS "${s.name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${s.name}"`);
}
await admin.end();
try {
  for (const s of sides) {
    s.url = withDatabase(url, s.name);
    s.server = await startDictum({ root: s.root, databaseUrl: s.url, port: await freePort(), waitMs: 600_000 });
    s.db = await connect(s.url);
    s.token = await login(s.server.baseUrl);
    if (viaHttp) s.agent = keptAliveAgent();
    else s.connection = rawConnection(s.server.baseUrl);
    await costDemoAtAverage(s.db);
    await s.db.query(
      `UPDATE m_storageonhand SET qtyonhand = qtyonhand + $2
        WHERE ctid = (SELECT ctid FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = 101 ORDER BY datematerialpolicy LIMIT 1)`,
      [PRODUCT, shipments + 10],
    );
    await s.db.query('UPDATE m_cost SET currentqty = currentqty + $2 WHERE m_product_id = $1 AND m_costelement_id = 103', [PRODUCT, shipments + 10]);
    s.ids = [];
    for (let i = 0; i < shipments + 2; i++) {
      s.ids.push((await call(s.server, s.token, 'POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: PRODUCT, MovementQty: 1 }] })).id);
    }
    // Two completions first: caches warm.
    for (const id of s.ids.splice(0, 2)) await completeOn(s, id);
  }
  for (const s of sides) {
    s.meter = await startCpuMeter({ server: () => [s.server.pid], backends: () => backendPids(s.db, s.name) });
    s.ms = 0;
  }
  for (let i = 0; i < shipments; i++) {
    // Each goes first every other time.
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const started = performance.now();
      s.answer = await completeOn(s, s.ids[i]);
      s.ms += performance.now() - started;
    }
  }
  for (const s of sides) {
    const u = await s.meter.stop();
    const perShipment = (cores) => ((cores * u.seconds * 1000) / shipments).toFixed(2);
    console.log(`${s.label} (${s.root}): ${shipments} completions, mean ${(s.ms / shipments).toFixed(2)} ms; CPU a completion: server ${perShipment(u.server)} ms, backends ${perShipment(u.backends)} ms; answer ${s.answer.length} characters`);
  }
  const masked = (text) => text.replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/g, '<time>').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>').replace(/\b1\d{12}\b/g, '<ms>');
  const [a, b] = sides.map((s) => masked(s.answer));
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (t) => t.slice(Math.max(0, at - 60), at + 60);
  console.log(`last answers alike (times, epoch milliseconds and uuids aside): ${a === b ? 'yes' : `NO, from character ${at}: base …${around(a)}… new …${around(b)}…`}`);
} finally {
  for (const s of sides) {
    s.agent?.destroy();
    s.connection?.destroy();
    await s.db?.end();
    await s.server?.stop();
  }
}
