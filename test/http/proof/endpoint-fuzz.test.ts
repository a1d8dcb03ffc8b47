/**
 * Hostile input over every endpoint: FUZZ_COUNT random requests (query options, bodies, batch
 * items, info-window and process parameters, webhook templates, upload headers, login bodies, and
 * every operation of the OpenAPI document) from a seeded generator. No answer may be a 5xx, show
 * SQL text, a database message or a stack trace, and every 4xx carries {title, status, detail}.
 * FUZZ_SEED picks the inputs (FUZZ_SEED=random for new ones); `npm run fuzz` sends 100,000.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import pLimit from 'p-limit';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { answerProblems } from './answer-checks.js';
import { fuzzRequest, type FuzzRequest, type FuzzWorld } from './fuzz-inputs.js';

const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261128);
const PARALLEL = Number(process.env.FUZZ_PARALLEL ?? 3);
/** Inputs are drawn in chunks, each from its own seed, so a long run needs little memory. */
const CHUNK = 500;

/** Tables read closely: the documents and master data most endpoints touch, and the security tables. */
const FOCUS = ['c_bpartner', 'm_product', 'c_order', 'c_orderline', 'c_invoice', 'c_payment', 'm_inout', 'gl_journal', 'c_elementvalue', 'ad_user', 'ad_role', 'ad_client', 'ad_org', 'ad_val_rule', 'ad_column', 'm_warehouse', 'c_bankstatement', 'r_request', 'ad_attachment', 'rest_webhook_out', 'm_pricelist', 'c_project'];

async function loadWorld(server: TestServer, token: string): Promise<FuzzWorld> {
  const get = async (path: string) => {
    const r = await server.request('GET', path, { token });
    assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`);
    return r.body;
  };
  const tables = ((await get('/api/v1/models')).models as { 'model-name': string }[]).map((m) => m['model-name']);
  const focus: FuzzWorld['focus'] = [];
  for (const table of FOCUS) {
    const rows = (await get(`/api/v1/models/${table}?$top=1`)).records as Record<string, unknown>[];
    const row = rows[0] ?? {};
    focus.push({ table, columns: Object.keys(row).filter((k) => /^[A-Z]/.test(k)), id: typeof row.id === 'number' ? row.id : null });
  }
  for (const f of focus) if (f.columns.length === 0) f.columns = ['Name', 'Value', 'Description'];
  const processes = ((await get('/api/v1/processes')).processes as { slug?: string; Value?: string }[]).map((p) => p.slug ?? String(p.Value ?? '').toLowerCase()).filter(Boolean);
  const infos = ((await get('/api/v1/infos')).infowindows as { slug?: string; Name?: string }[]).map((i) => i.slug ?? '').filter(Boolean);
  const views = ((await get('/api/v1/views')).views as { name: string }[]).map((v) => v.name);
  const windows = ((await get('/api/v1/windows')).windows as { slug: string }[]).map((w) => w.slug);
  const doc = await get('/api/v1/openapi.json');
  const operations: [string, string][] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    // The per-table copies of /api/v1/models/{table}... are covered by the generic templates.
    if (/^\/api\/v1\/models\/[a-z0-9_]+(\/|$)/i.test(path) && !path.startsWith('/api/v1/models/{')) continue;
    for (const m of Object.keys(ops)) if (['get', 'post', 'put', 'delete', 'patch'].includes(m)) operations.push([m.toUpperCase(), path]);
  }
  assert.ok(operations.length > 50 && processes.length > 10 && infos.length > 3, 'the world to fuzz was found');
  return { tables, focus, processes, infos, views, windows, operations };
}

/** The request as text, its path decoded, for telling an echo of the input from a leak. */
function requestText(r: FuzzRequest): string {
  let path = r.path;
  try {
    path = decodeURIComponent(r.path);
  } catch {
    // an undecodable path is compared as sent
  }
  return `${path} ${r.raw ?? JSON.stringify(r.body ?? null)} ${JSON.stringify(r.headers ?? {})}`;
}

interface Tally {
  requests: number;
  ok: number;
  refused: number;
  problems: number;
}

describe('fuzz over every endpoint', () => {
  let server: TestServer;
  let admin: string;
  let world: FuzzWorld;
  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    world = await loadWorld(server, admin);
  });
  after(async () => {
    await server?.close();
  });

  it(`answers ${COUNT} hostile requests without a 5xx, SQL text or a stack, with the error body on every 4xx`, async () => {
    const tally = new Map<string, Tally>();
    const failures: string[] = [];
    const limit = pLimit(PARALLEL);
    const send = async (r: FuzzRequest, index: number) => {
      const token = r.token === 'admin' ? admin : r.token === 'garbage' ? 'eyJhbGciOiJIUzI1NiJ9.e30.x' : undefined;
      let a;
      try {
        a = await server.request(r.method, r.path, { token, headers: r.headers, body: r.body, raw: r.raw });
      } catch (e) {
        a = { status: 599, headers: new Headers(), text: String(e), body: null };
      }
      const t = tally.get(r.family) ?? { requests: 0, ok: 0, refused: 0, problems: 0 };
      tally.set(r.family, t);
      t.requests++;
      if (a.status < 400) t.ok++;
      else if (a.status < 500) t.refused++;
      const problems = answerProblems(a, requestText(r), r.method === 'POST' && r.path.split('?')[0] === '/api/v1/batch');
      if (problems.length) {
        t.problems++;
        if (failures.length < 30) failures.push(`#${index} ${problems.join(', ')}: ${r.method} ${r.path} ${r.raw ?? JSON.stringify(r.body ?? null).slice(0, 300)} -> ${a.status} ${a.text.slice(0, 300)}`);
      }
    };
    const arbitrary = fuzzRequest(world);
    for (let start = 0; start < COUNT; start += CHUNK) {
      const inputs = fc.sample(arbitrary, { seed: SEED + start, numRuns: Math.min(CHUNK, COUNT - start) });
      await Promise.all(inputs.map((r, i) => limit(() => send(r, start + i))));
    }
    const rows = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b));
    const total = rows.reduce((s, [, t]) => ({ requests: s.requests + t.requests, ok: s.ok + t.ok, refused: s.refused + t.refused, problems: s.problems + t.problems }), { requests: 0, ok: 0, refused: 0, problems: 0 });
    const line = (name: string, t: Tally) => `${name.padEnd(18)} ${String(t.requests).padStart(7)} ${String(t.ok).padStart(7)} ${String(t.refused).padStart(7)} ${String(t.problems).padStart(8)}`;
    console.log(`fuzz seed ${SEED}, ${COUNT} requests\n${'family'.padEnd(18)} ${'sent'.padStart(7)} ${'2xx/3xx'.padStart(7)} ${'4xx'.padStart(7)} ${'problems'.padStart(8)}\n${rows.map(([n, t]) => line(n, t)).join('\n')}\n${line('total', total)}`);
    assert.deepEqual(failures, [], `seed ${SEED}`);
    // Both kinds of answer occur in every family, so each property tested something on each side.
    for (const [name, t] of rows) assert.ok(t.refused > 0, `${name}: nothing refused`);
    assert.ok(total.ok > COUNT / 20, `only ${total.ok} answered`);
  });
});
