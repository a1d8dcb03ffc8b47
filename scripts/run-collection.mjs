// Runs the upstream iDempiere REST request collection with newman against a fresh Dictum
// (embedded database in a scratch data directory) and prints one line per request:
// status, method, path. Requests of capabilities Dictum does not serve yet show their 404.
//
// The collection is a catalogue rather than a script: in file order it logs out early (every
// later request would then carry a dead token) and logs in as the System administrator before
// the tenant's requests. The runner therefore plays it as a client would: logout last, the
// System administrator's login just before the administration endpoints (nodes, servers,
// schedulers), and the tenant's one-step login again right after them.
// Usage: npm run build && node scripts/run-collection.mjs [collection.json] [environment.json]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import newman from 'newman';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const upstream = path.resolve(root, '..', 'shared', 'reference', 'upstream');
const collection = process.argv[2] ?? path.join(upstream, 'trekglobal-idempiere-rest.postman_collection.json');
const environmentFile = process.argv[3] ?? path.join(upstream, 'http---localhost-8080.postman_environment.json');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function waitForHealth(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/api/v1/health`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not answer /api/v1/health in time');
}

/** Reorders the top-level items as described above; unknown shapes are left as they are. */
function playOrder(c) {
  const items = [...c.item];
  const take = (pred) => {
    const i = items.findIndex(pred);
    return i < 0 ? null : items.splice(i, 1)[0];
  };
  const logout = take((it) => it.name === 'api/v1/auth/logout');
  const sysadmin = [];
  for (let it = take((x) => x.name.startsWith('sysadmin')); it; it = take((x) => x.name.startsWith('sysadmin'))) sysadmin.push(it);
  const tenantLogin = items.find((it) => it.name === 'api/v1/auth/tokens one step');
  const firstAdmin = items.findIndex((it) => it.name === 'api/v1/nodes');
  let lastAdmin = -1;
  items.forEach((it, i) => {
    if (/servers/.test(it.name)) lastAdmin = i;
  });
  if (sysadmin.length && tenantLogin && firstAdmin >= 0 && lastAdmin > firstAdmin) {
    items.splice(lastAdmin + 1, 0, structuredClone(tenantLogin));
    items.splice(firstAdmin, 0, ...sysadmin);
  } else items.push(...sysadmin);
  if (logout) items.push(logout);
  return { ...c, item: items };
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-collection-'));
const serverEnv = { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DICTUM_DATA_DIR: path.join(dataDir, 'data'), DICTUM_CACHE_DIR: path.join(root, '.cache'), LOG_LEVEL: 'warn' };
// The collection logs in with the System role, whose Role Type an administrator must clear first.
const cleared = spawnSync(process.execPath, [path.join(root, 'dist', 'src', 'main.js'), 'clear-role-type', '0'], { env: serverEnv, stdio: 'inherit' });
if (cleared.status !== 0) process.exit(cleared.status ?? 1);
const server = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js'), 'serve'], {
  env: serverEnv,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};

try {
  await waitForHealth(`http://127.0.0.1:${port}`, Date.now() + 120_000);
  const environment = JSON.parse(fs.readFileSync(environmentFile, 'utf8'));
  for (const v of environment.values) {
    if (v.key === 'host') v.value = '127.0.0.1';
    if (v.key === 'port') v.value = String(port);
  }
  // The collection's /infos script reads the answer as a bare array, which the original no longer
  // gives ({infowindows: [...]}), so it never sets infoSlug: the slug it means is given here.
  if (!environment.values.some((v) => v.key === 'infoSlug')) environment.values.push({ key: 'infoSlug', value: 'business-partner-info', enabled: true });
  const summary = await new Promise((resolve, reject) =>
    newman.run({ collection: playOrder(JSON.parse(fs.readFileSync(collection, 'utf8'))), environment, reporters: [], timeoutRequest: 30_000 }, (err, s) => (err ? reject(err) : resolve(s))),
  );
  let ok = 0;
  const lines = [];
  for (const e of summary.run.executions) {
    const code = e.response?.code ?? 0;
    const failedTests = (e.assertions ?? []).filter((a) => a.error).length;
    const good = code >= 200 && code < 300 && failedTests === 0;
    if (good) ok++;
    lines.push(`${good ? 'ok  ' : 'FAIL'} ${String(code).padStart(3)} ${e.item.name} — ${e.request.method} ${e.request.url.getPathWithQuery()}`);
  }
  console.log(lines.join('\n'));
  console.log(`\n${ok} of ${summary.run.executions.length} requests succeeded`);
} finally {
  stop();
}
