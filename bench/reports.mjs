// Report rendering benchmark (part of npm run bench; alone: node bench/reports.mjs [--seconds 3] [--rows 1000]).
// Renders the same report of --rows order lines (the layout of Order Detail, grouped by partner
// with subtotals) in each format for --seconds, one file after another in this process, and prints
// files per second, milliseconds per file, file size and the process's peak RSS while it ran.
// Figures are information: the renderers run on the event loop, so files/s is what one instance
// can produce at most while doing nothing else.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { buildReport } = await import(path.join(root, 'dist/src/reports/report-model.js'));
const { renderReport } = await import(path.join(root, 'dist/src/reports/render-report.js'));

function option(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}
const seconds = option('seconds', 3);
const rowCount = option('rows', 1000);
const MB = 1024 * 1024;

/** Deterministic rows: 40 partners, dates over a year, products, quantities and amounts. */
function rows(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const qty = (i % 17) + 1;
    const price = 5 + ((i * 37) % 200) / 4;
    out.push([`Partner ${String(i % 40).padStart(2, '0')}`, `SO-${100000 + Math.floor(i / 4)}`, `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`, `Product ${i % 250}`, qty, qty % 3, Math.round(qty * price * 100) / 100]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const columns = [
  { name: 'BPartner', label: 'Business Partner', type: 'text', sum: false },
  { name: 'DocumentNo', label: 'Document No', type: 'text', sum: false },
  { name: 'DateOrdered', label: 'Date Ordered', type: 'date', sum: false },
  { name: 'Product', label: 'Product', type: 'text', sum: false },
  { name: 'QtyOrdered', label: 'Ordered', type: 'quantity', sum: true },
  { name: 'QtyToDeliver', label: 'To Deliver', type: 'quantity', sum: true },
  { name: 'LineNetAmt', label: 'Line Amount', type: 'amount', sum: true },
];
const report = buildReport({ title: 'Order Detail by Business Partner', subtitle: `${rowCount} rows`, columns, rows: rows(rowCount), groupBy: 'BPartner', isSummary: false });

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const results = {};
for (const type of ['HTML', 'CSV', 'XLSX', 'PDF']) {
  await renderReport(report, type); // warm-up
  peak = process.memoryUsage().rss;
  let files = 0;
  let bytes = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const f = await renderReport(report, type);
    bytes = f.data.length;
    files++;
  }
  const ms = performance.now() - started;
  results[type] = { files, filesPerSecond: Math.round((files / ms) * 1000 * 10) / 10, msPerFile: Math.round((ms / files) * 10) / 10, bytes, peakRssMB: Math.round((peak / MB) * 10) / 10 };
}
clearInterval(sampler);
console.log(`report rendering, ${rowCount} rows, ${seconds} s a format (Node ${process.version})`);
console.log('format   files/s   ms/file   file KB   peak RSS MB');
for (const [type, r] of Object.entries(results)) {
  console.log(`${type.padEnd(8)} ${String(r.filesPerSecond).padStart(7)} ${String(r.msPerFile).padStart(9)} ${String(Math.round(r.bytes / 1024)).padStart(9)} ${String(r.peakRssMB).padStart(13)}`);
}
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows: rowCount, seconds, results }));
