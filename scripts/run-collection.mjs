// Runs the upstream iDempiere REST request collection with newman against a fresh Dictum
// (embedded database in a scratch data directory) and prints one line per request:
// status, method, path. Requests of capabilities Dictum does not serve yet show their 404.
//
// The collection is a catalogue rather than a script: in file order it logs out early (every
// later request would then carry a dead token) and logs in as the System administrator after the
// requests that need that role. The runner therefore plays it as a client would: logout last; the
// System administrator's login, then every administration request (tasks, caches, nodes and their
// log files, servers, schedulers), then the tenant's one-step login again. GET /files reads the log
// file that GET /nodes/{id}/logs names, so it is played right after the node's log requests, before
// the rotation and deletion of old files; its length is the size the same answer gives (no script of
// the collection sets logFileLength). Its scripts read the lists as bare arrays, as the original
// answered before it wrapped them ({nodes}, {logs}, {servers}): they read the array inside.
// docs/compatibility.md, "Administration in the collection".
// Product 144 is deleted after the attachment requests (one of them removes that product's
// attachment: a client removes a record's attachment before the record, not after).
// The two chunk PUTs name their bodies by Postman cloud file references, which newman cannot read:
// they are given the collection's example chunks (upload-example/<file>_chunk_<n>).
// The collection reads attachments that none of its requests adds (IDEMPIERE-3997.patch on order
// 1000022, any attachment of product 144): its author's database had them, GardenWorld has not.
// The runner adds them through the API before the run and says so (see docs/compatibility.md).
// The copy request's test expects 202, which the original's copy never answers: it answers 200
// (UploadResourceImpl.copyUploadedFile, `return Response.ok(response).build()`, lines 678, 702 and
// 725 of bxservice/idempiere-rest at cd41207, as at 9d845b4 where the copy came in); the 202 was
// the answer of the `/complete` request it replaced (4f8be2e). The runner expects 200 there and
// prints a `correction:` line.
// Usage: npm run build && node scripts/run-collection.mjs [collection.json] [environment.json] [--no-fixtures]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import newman from 'newman';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const upstream = path.resolve(root, '..', 'shared', 'reference', 'upstream');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const collection = args[0] ?? path.join(upstream, 'trekglobal-idempiere-rest.postman_collection.json');
const environmentFile = args[1] ?? path.join(upstream, 'http---localhost-8080.postman_environment.json');
const uploadExample = path.join(upstream, 'upload-example');

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

const ADMIN_ITEMS = /^(del |post )?api\/v1\/(tasks?|caches|nodes|files|servers)\b/;

/** Reorders the top-level items as described above; unknown shapes are left as they are. */
function playOrder(c) {
  const items = [...c.item];
  const take = (pred) => {
    const i = items.findIndex(pred);
    return i < 0 ? null : items.splice(i, 1)[0];
  };
  const takeAll = (pred) => {
    const out = [];
    for (let it = take(pred); it; it = take(pred)) out.push(it);
    return out;
  };
  const logout = take((it) => it.name === 'api/v1/auth/logout');
  const tenantLogin = items.find((it) => it.name === 'api/v1/auth/tokens one step');
  const firstAdmin = items.findIndex((it) => ADMIN_ITEMS.test(it.name));
  const sysadmin = takeAll((x) => x.name.startsWith('sysadmin'));
  const admin = takeAll((x) => ADMIN_ITEMS.test(x.name));
  const files = admin.filter((it) => it.name.startsWith('api/v1/files'));
  const ordered = admin.filter((it) => !files.includes(it));
  const logFile = ordered.findIndex((it) => it.name === 'api/v1/nodes/{id}/logs/file');
  ordered.splice(logFile < 0 ? ordered.length : logFile + 1, 0, ...files);
  for (const it of ordered) unwrapListScript(it);
  const logs = ordered.find((it) => it.name === 'api/v1/nodes/{id}/logs');
  const script = logs?.event?.find((e) => e.listen === 'test')?.script;
  if (script && Array.isArray(script.exec)) script.exec = [...script.exec, 'pm.environment.set("logFileLength", jsonData[jsonData.length-1].fileSize);'];
  if (sysadmin.length && tenantLogin && firstAdmin >= 0) items.splice(Math.min(firstAdmin, items.length), 0, ...sysadmin, ...ordered, structuredClone(tenantLogin));
  else items.push(...sysadmin, ...ordered);
  const productDelete = take((it) => it.request?.method === 'DELETE' && /\/models\/m_product\/144$/.test(rawUrl(it)));
  if (productDelete) {
    let lastAttachment = -1;
    items.forEach((it, i) => {
      if (/\/attachments/.test(rawUrl(it))) lastAttachment = i;
    });
    items.splice(lastAttachment + 1, 0, productDelete);
  }
  if (logout) items.push(logout);
  for (const it of items) {
    useExampleChunk(it);
    expectCopyStatus(it);
  }
  return { ...c, item: items };
}

/** The copy request expects the original's 200 instead of the 202 of the request it replaced. */
function expectCopyStatus(it) {
  if (it.request?.method !== 'POST' || !/\/uploads\/[^/]+\/copy$/.test(rawUrl(it))) return;
  const script = it.event?.find((e) => e.listen === 'test')?.script;
  if (!script || !Array.isArray(script.exec) || !script.exec.some((l) => l.includes('have.status(202)'))) return;
  script.exec = script.exec.map((l) => l.replace('Status code is 202', 'Status code is 200').replace('have.status(202)', 'have.status(200)'));
  console.log(`correction: ${it.name} expects 200, as the original's copy answers`);
}

/**
 * The collection's administration scripts read lists as bare arrays (`jsonData[jsonData.length-1]`),
 * as the original answered before it wrapped every list in an object ({nodes}, {logs}, {servers});
 * a client of today's original reads the array inside, and so does the script as played here.
 */
function unwrapListScript(it) {
  const script = it.event?.find((e) => e.listen === 'test')?.script;
  if (!script || !Array.isArray(script.exec) || !script.exec.some((l) => l.includes('jsonData[jsonData.length-1]'))) return;
  const at = script.exec.findIndex((l) => /var jsonData = pm\.response\.json\(\);/.test(l));
  if (at < 0) return;
  script.exec = [...script.exec.slice(0, at + 1), 'if (!Array.isArray(jsonData)) jsonData = Object.values(jsonData).find(Array.isArray) || [];', ...script.exec.slice(at + 1)];
}

function rawUrl(it) {
  const u = it.request?.url;
  return typeof u === 'string' ? u : (u?.raw ?? '');
}

/** A chunk PUT whose body is a Postman cloud file gets the example chunk of the same number. */
function useExampleChunk(it) {
  const file = it.request?.body?.mode === 'file' ? it.request.body.file : null;
  const n = /\/chunks\/(\d+)$/.exec(rawUrl(it))?.[1];
  if (!file || !n || !String(file.src ?? '').startsWith('postman-cloud:')) return;
  const chunk = fs.readdirSync(uploadExample).find((f) => f.endsWith(`_chunk_${n}`));
  if (chunk) file.src = path.join(uploadExample, chunk);
}

/** Attachments the collection reads but never adds, added as its author's database had them. */
async function addAssumedAttachments(baseUrl, env) {
  const v = (k) => env.values.find((x) => x.key === k)?.value;
  const login = await fetch(`${baseUrl}/api/v1/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userName: v('userName'), password: v('password'), parameters: { clientId: +v('clientId'), roleId: +v('roleId'), organizationId: +v('organizationId'), warehouseId: +v('warehouseId') } }),
  });
  const { token } = await login.json();
  const assumed = [
    ['c_order/1000022', 'IDEMPIERE-3997.patch', '# IDEMPIERE-3997 (placeholder of the attachment the collection reads)\n'],
    ['m_product/144', 'Tiller.txt', 'Lawn tiller manual (placeholder of the attachment the collection deletes)\n'],
  ];
  for (const [record, name, text] of assumed) {
    const r = await fetch(`${baseUrl}/api/v1/models/${record}/attachments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, data: Buffer.from(text).toString('base64') }),
    });
    console.log(`fixture: ${r.status} attachment ${name} added to ${record}`);
  }
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-collection-'));
const serverEnv = { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DICTUM_DATA_DIR: path.join(dataDir, 'data'), DICTUM_CACHE_DIR: path.join(root, '.cache'), LOG_LEVEL: 'warn' };
// The collection logs in with the System role, whose Role Type an administrator must clear first.
const cleared = spawnSync(process.execPath, [path.join(root, 'dist', 'src', 'main.js'), 'clear-role-type', '0'], { env: serverEnv, stdio: 'inherit' });
if (cleared.status !== 0) process.exit(cleared.status ?? 1);
// As `npm start` runs it: the start script (the bundled service when the build wrote one).
const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs'), 'serve'], {
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
  // Variables that neither the collection nor its environment define (its author's own environment
  // held them) get the values a user running it would give: a table and a language of the demo data.
  for (const [key, value] of [['tableName', 'c_bpartner'], ['locale', 'en_US']]) {
    if (!environment.values.some((v) => v.key === key)) environment.values.push({ key, value, enabled: true });
  }
  if (!process.argv.includes('--no-fixtures')) await addAssumedAttachments(`http://127.0.0.1:${port}`, environment);
  const summary = await new Promise((resolve, reject) =>
    newman.run({ collection: playOrder(JSON.parse(fs.readFileSync(collection, 'utf8'))), environment, reporters: [], timeoutRequest: 30_000, workingDir: uploadExample }, (err, s) => (err ? reject(err) : resolve(s))),
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
