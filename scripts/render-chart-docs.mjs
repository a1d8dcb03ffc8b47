// Draws every demo chart of GardenWorld into docs/charts/<id>-<name>.png (640 x 400) from a fresh
// embedded database, so that the documentation shows what GET /api/v1/charts/{id} answers.
// Usage: npm run build && node scripts/render-chart-docs.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { loadConfig } = await import(path.join(root, 'dist', 'src', 'config.js'));
const { startServer } = await import(path.join(root, 'dist', 'src', 'server.js'));
const { slugify } = await import(path.join(root, 'dist', 'src', 'infowindows', 'slug.js'));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-charts-'));
const config = { ...loadConfig({ ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', DICTUM_DATA_DIR: path.join(dataDir, 'data') }), cacheDir: path.join(root, '.cache') };
const server = await startServer(config, pino({ level: 'silent' }));
try {
  const login = await fetch(`${server.url}/api/v1/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } }),
  });
  const { token } = await login.json();
  const auth = { authorization: `Bearer ${token}` };
  const { charts } = await (await fetch(`${server.url}/api/v1/charts/data`, { headers: auth })).json();
  const out = path.join(root, 'docs', 'charts');
  fs.mkdirSync(out, { recursive: true });
  for (const chart of charts.sort((a, b) => a.id - b.id)) {
    const res = await fetch(`${server.url}/api/v1/charts/${chart.id}?width=640&height=400`, { headers: auth });
    const file = path.join(out, `${chart.id}-${slugify(chart.name)}.png`);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    process.stdout.write(`${res.status} ${path.relative(root, file)}\n`);
  }
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
