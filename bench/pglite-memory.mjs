// Memory of Dictum on embedded PGlite under load: for each shared_buffers setting, a restart on a
// data directory made from the cached seeded snapshot, 30 s of mixed reads of the demo company from 32
// connections (wrk), and the process's resident memory: after start, and its peak under load.
// PGlite is PostgreSQL compiled to WASM inside the Node process, and WASM memory never shrinks,
// so whatever PostgreSQL touches once (shared buffers, catalog and plan caches, sort memory) stays.
// Usage: npm run build && node bench/pglite-memory.mjs [--duration 30] [--connections 32] [--settings 128,32,16]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, login, startDictum, waitIdle, watchMemory } from './lib/server.mjs';
import { ensureWrk, runWrk } from './lib/wrk.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const duration = Number(arg('duration', '30'));
const connections = Number(arg('connections', '32'));
const settings = arg('settings', '128,32,16').split(',').map(Number);
const MB = 1024 * 1024;
const TARGET_MB = 300;

/** Reads a client of the original sends all day: lists with filters and expansions, single records, the dictionary. */
const PATHS = [
  "/api/v1/models/c_bpartner?$filter=IsCustomer eq true&$orderby=Name&$top=50",
  '/api/v1/models/c_bpartner/117?$expand=C_BPartner_Location',
  "/api/v1/models/m_product?$filter=contains(Name,'a')&$top=100",
  '/api/v1/models/c_order?$expand=C_OrderLine&$top=20',
  '/api/v1/models/c_invoice?$top=50&$orderby=DateInvoiced desc',
  '/api/v1/models/c_orderline?$top=100&$orderby=LineNetAmt desc',
  '/api/v1/models/m_product/123',
  '/api/v1/models/c_bpartner_location?$top=100',
].map((p) => p.replace(/ /g, '%20').replace(/'/g, '%27'));

const wrk = ensureWrk(console.log);
if (!wrk.path) throw new Error(wrk.error);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-pglite-mem-'));
const rows = [];
try {
  for (const mb of settings) {
    const dataDir = path.join(work, `data-${mb}`);
    const env = { DICTUM_DATA_DIR: dataDir, DICTUM_CACHE_DIR: path.join(root, '.cache'), DICTUM_PGLITE_SHARED_BUFFERS_MB: String(mb) };
    // A first start unpacks the seeded snapshot inside PGlite's memory; measured is a restart on existing data.
    await (await startDictum({ root, databaseUrl: '', port: await freePort(), env })).stop();
    const server = await startDictum({ root, databaseUrl: '', port: await freePort(), env });
    try {
      await waitIdle(server.pid);
      const memory = watchMemory(server.pid, 100);
      memory.phase('idle');
      await new Promise((r) => setTimeout(r, 500));
      const token = await login(server.baseUrl);
      memory.phase('load');
      const desc = { key: `mixed${mb}`, method: 'GET', path: PATHS[0], pathGen: { kind: 'randomChoice', paths: PATHS }, auth: true };
      const r = await runWrk({ wrk: wrk.path, baseUrl: server.baseUrl, desc, token, tag: `m${mb}`, seconds: duration, connections, threads: 2, workDir: work, seed: 42 });
      const m = memory.stop();
      rows.push({ sharedBuffersMB: mb, idleMB: m.phases.idle / MB, peakMB: m.peak / MB, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors });
      console.log(`shared_buffers ${String(mb).padStart(4)} MB: idle ${(m.phases.idle / MB).toFixed(0)} MB, peak ${(m.peak / MB).toFixed(0)} MB, ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`);
    } finally {
      await server.stop();
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log('');
console.log(`Dictum on embedded PGlite, ${duration} s of mixed reads from ${connections} connections; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`);
console.log('shared_buffers  idle RSS  peak RSS  req/s   p50 ms  p99 ms  errors  target peak <= 300 MB');
for (const r of rows) {
  console.log(`${`${r.sharedBuffersMB} MB`.padStart(14)}  ${r.idleMB.toFixed(0).padStart(8)}  ${r.peakMB.toFixed(0).padStart(8)}  ${r.rps.toFixed(0).padStart(5)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(6)}  ${String(r.errors).padStart(6)}  ${r.peakMB <= TARGET_MB ? 'met' : 'NOT met'}`);
}
const base = rows.find((r) => r.sharedBuffersMB === 128);
if (base) for (const r of rows.filter((x) => x !== base)) console.log(`${r.sharedBuffersMB} MB against 128 MB: ${(base.peakMB - r.peakMB).toFixed(0)} MB less at peak, ${(r.rps / base.rps).toFixed(2)}x the requests/s`);
if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
