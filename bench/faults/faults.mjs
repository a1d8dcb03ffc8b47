// Fault suite (npm run faults [-- --kills 6] [--only order,shipment] [--keep]), on PostgreSQL.
// For each scenario the built service runs as a child process (as `npm start` runs it); the suite
// drives the scenario, kills the instance with SIGKILL after a random delay, starts it again, lets
// it finish or retries what a client would retry, and checks: all or nothing per transaction, no
// document completed twice or half, no job, delivery or firing lost or done twice, and no new
// violation of the books' invariants (booksViolations, against those before the run: the demo's
// opening stock has no M_Transaction rows). Prints: scenario, kills, outcomes, violations.
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/dictum_faults) names a database of its
// own: created and migrated when missing, dropped at the end unless --keep.
//
// Leases: a background job or a webhook delivery that an instance held when it was killed is taken
// over when its lease runs out (5 minutes). Instead of waiting, the suite moves the leases of the
// killed instance into the past before the restart, as the passing of time would.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, databaseName, ensureDatabase, withDatabase } from '../lib/database.mjs';
import { freePort, loginSession, startDictum } from '../lib/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (p) => path.join(root, 'dist', p);
const { classifyOutcome, faultTable, newViolations } = await import(dist('bench/faults/tables.js'));
const { booksViolations } = await import(dist('src/documents/invariants/books-invariants.js'));
const { insertRow } = await import(dist('src/auth/util.js'));

function option(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
}
const kills = Number(option('kills', '6'));
const only = option('only', '')?.split(',').filter(Boolean) ?? [];
const keep = process.argv.includes('--keep');
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/dictum_faults';
if (!databaseName(databaseUrl).startsWith('dictum_faults')) throw new Error(`the fault suite writes into its own database only: its name must start with dictum_faults (got ${databaseName(databaseUrl)})`);

const log = (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CLIENT = 11;
const TIMING = { DICTUM_SCHEDULER_TICK_MS: '200', DICTUM_NODE_HEARTBEAT_MS: '300', DICTUM_NODE_WINDOW_MS: '1200' };
const ADMIN = { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } };
const USER = { userName: 'GardenUser', password: 'GardenUser', parameters: { clientId: 11, roleId: 103, organizationId: 11, warehouseId: 103 } };

// --- the database ---------------------------------------------------------------------------------
if (await ensureDatabase(databaseUrl)) log(`created database ${databaseName(databaseUrl)}`);
const migrate = spawnSync(process.execPath, ['dist/src/main.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 900_000 });
if (migrate.status !== 0) throw new Error(`migrate failed: ${(migrate.stderr || migrate.stdout || '').slice(-1500)}`);
const db = await connect(databaseUrl);
/** The pg client as the service's Queryable (statement names are not needed here). */
const q = { query: (text, params) => db.query(text, params) };
const one = async (text, params) => (await db.query(text, params)).rows[0];
const count = async (text, params) => Number((await one(text, params)).n);

// --- the instance: started, killed, started again --------------------------------------------------
let server = null;
async function start() {
  server = await startDictum({ root, databaseUrl, port: await freePort(), env: { LOG_LEVEL: 'warn', ...TIMING } });
  return server;
}
async function kill() {
  if (!server) return;
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  server = null;
  // What the killed instance held, its leases run out (see the head of this file).
  await db.query(`UPDATE dictum.queue_item SET lease_until = now() - interval '1 second' WHERE state = 'running'`);
  await db.query(`UPDATE rest_webhook_out_log SET lockedat = lockedat - interval '1 hour' WHERE deliverystatus = 'I'`);
}
async function stop() {
  if (server) await server.stop();
  server = null;
}

/** A client of the running instance: requests that must answer 2xx throw otherwise. */
async function client(login = ADMIN) {
  const base = server.baseUrl;
  const token = (await loginSession(base, login)).token;
  const raw = async (method, p, body, headers = {}) => {
    const isBuffer = Buffer.isBuffer(body);
    const r = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body !== undefined && !isBuffer ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : isBuffer ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(300_000),
    });
    const bytes = Buffer.from(await r.arrayBuffer());
    const text = bytes.toString('utf8');
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON (a file)
    }
    return { status: r.status, body: json, text, bytes };
  };
  const ok = async (method, p, body, headers) => {
    const r = await raw(method, p, body, headers);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p} answered ${r.status}: ${r.text.slice(0, 400)}`);
    return r.body ?? r;
  };
  return { raw, ok };
}

/**
 * Sends the action, kills the instance after `delayMs`, and tells how the action ended for the
 * client: 'ok' (2xx before the kill), 'refused' (another answer) or 'cut' (no answer).
 */
async function actAndKill(action, delayMs) {
  let answer = 'cut';
  let body = null;
  const running = action().then(
    (r) => {
      answer = r.status >= 200 && r.status <= 299 ? 'ok' : 'refused';
      body = r;
    },
    () => {
      answer = 'cut';
    },
  );
  await sleep(delayMs);
  await kill();
  await running;
  return { answer, body };
}

const statusOf = (v) => (v && typeof v === 'object' ? v.id : v);
const idList = (rows) => rows.map((r) => Number(r.id));

// --- the scenarios -------------------------------------------------------------------------------
// Each: setup(c, round) once per round while the instance serves, answering what the action needs;
// action(c, ctx) the request to cut; check(ctx, answer) after the restart, answering
// {written: 'all'|'none'|'partial'|'doubled', retried?, note?}. `duration` is measured by a first
// round without a kill and bounds the random delays.
const tag = Date.now().toString(36);

/** The partners of a round each delivered: one delivery row, Success, received (again after a kill: same webhook-id). */
async function deliveredOnce(ctx) {
  const partners = idList((await db.query(`SELECT c_bpartner_id AS id FROM c_bpartner WHERE value LIKE $1`, [`${ctx.prefix}%`])).rows);
  if (partners.length === 0) return { written: 'none' };
  let rows = [];
  for (let i = 0; i < 600; i++) {
    rows = (await db.query(`SELECT record_id, webhookmessageid AS mid, deliverystatus AS st, attempts FROM rest_webhook_out_log WHERE rest_webhook_out_id = $1 AND record_id = ANY($2::bigint[])`, [ctx.endpoint, partners])).rows;
    if (rows.length >= partners.length && rows.every((r) => r.st === 'S' && received.has(r.mid))) break;
    await sleep(200);
  }
  const perPartner = new Map();
  for (const r of rows) perPartner.set(Number(r.record_id), (perPartner.get(Number(r.record_id)) ?? 0) + 1);
  const doubledRows = [...perPartner.values()].some((n) => n > 1);
  const lost = partners.filter((p) => !perPartner.has(p)).length + rows.filter((r) => r.st !== 'S' || !received.has(r.mid)).length;
  const redelivered = rows.filter((r) => (received.get(r.mid) ?? 0) > 1).length;
  if (partners.length !== 20) return { written: 'partial', note: `${partners.length} of 20 partners` };
  if (doubledRows) return { written: 'doubled', note: 'two delivery rows for one change' };
  if (lost) return { written: 'partial', note: `${lost} of ${partners.length} deliveries not delivered` };
  return { written: 'all', retried: redelivered > 0, note: redelivered ? `${redelivered} sent again after the kill (same webhook-id)` : null };
}

const SCENARIOS = [
  {
    key: 'batch',
    title: 'batch of 300 creates',
    setup: async (c, round) => ({ prefix: `FB${tag}-${round}-` }),
    action: (c, ctx) =>
      c.raw('POST', '/api/v1/batch?transaction=true', Array.from({ length: 300 }, (_, i) => ({ method: 'POST', path: 'v1/models/c_bpartner', body: { Value: `${ctx.prefix}${i}`, Name: `Fault batch ${i}`, IsCustomer: true } }))),
    check: async (ctx) => {
      const n = await count(`SELECT count(*) AS n FROM c_bpartner WHERE value LIKE $1`, [`${ctx.prefix}%`]);
      return { written: n === 0 ? 'none' : n === 300 ? 'all' : 'partial', note: n > 0 && n < 300 ? `${n} of 300 partners` : null };
    },
  },
  {
    key: 'order',
    title: 'order completion',
    setup: async (c) => {
      const order = await c.ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 3, C_Tax_ID: 105 }, { M_Product_ID: 133, QtyEntered: 2, C_Tax_ID: 107 }] });
      return { id: order.id };
    },
    action: (c, ctx) => c.raw('PUT', `/api/v1/models/c_order/${ctx.id}`, { 'doc-action': 'CO' }),
    check: async (ctx) => {
      const o = await one(`SELECT docstatus, processed FROM c_order WHERE c_order_id = $1`, [ctx.id]);
      if (o.docstatus === 'DR' && o.processed === 'N') return { written: 'none' };
      if (o.docstatus === 'CO' && o.processed === 'Y') return { written: 'all' };
      return { written: 'partial', note: `order ${ctx.id} ${o.docstatus} processed ${o.processed}` };
    },
  },
  {
    key: 'shipment',
    title: 'shipment completion',
    setup: async (c) => {
      const order = await c.ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 105 }, { M_Product_ID: 137, QtyEntered: 2, C_Tax_ID: 105 }], 'doc-action': 'CO' });
      const lines = await c.ok('GET', `/api/v1/models/c_orderline?$filter=${encodeURIComponent(`C_Order_ID eq ${order.id}`)}`);
      const shipment = await c.ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: lines.records.map((l) => ({ C_OrderLine_ID: l.id })) });
      return { id: shipment.id, lines: lines.records.length };
    },
    action: (c, ctx) => c.raw('PUT', `/api/v1/models/m_inout/${ctx.id}`, { 'doc-action': 'CO' }),
    check: async (ctx) => {
      const s = await one(`SELECT docstatus, processed FROM m_inout WHERE m_inout_id = $1`, [ctx.id]);
      const tx = await count(`SELECT count(*) AS n FROM m_transaction t JOIN m_inoutline l ON l.m_inoutline_id = t.m_inoutline_id WHERE l.m_inout_id = $1`, [ctx.id]);
      if (s.docstatus === 'DR' && s.processed === 'N' && tx === 0) return { written: 'none' };
      if (s.docstatus === 'CO' && s.processed === 'Y' && tx === ctx.lines) return { written: 'all' };
      return { written: tx > ctx.lines ? 'doubled' : 'partial', note: `shipment ${ctx.id} ${s.docstatus}, ${tx} stock transactions for ${ctx.lines} lines` };
    },
  },
  {
    key: 'allocation',
    title: 'invoice with allocation',
    setup: async (c) => {
      const order = await c.ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2, C_Tax_ID: 105 }], 'doc-action': 'CO' });
      const lines = await c.ok('GET', `/api/v1/models/c_orderline?$filter=${encodeURIComponent(`C_Order_ID eq ${order.id}`)}`);
      const shipment = await c.ok('POST', '/api/v1/models/m_inout', { C_Order_ID: order.id, M_InOutLine: lines.records.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
      const invoice = await c.ok('POST', '/api/v1/models/c_invoice', { C_Order_ID: order.id, C_InvoiceLine: shipment.M_InOutLine.map((l) => ({ M_InOutLine_ID: l.id })), 'doc-action': 'CO' });
      const payment = await c.ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 118, IsReceipt: true, PayAmt: invoice.GrandTotal, 'doc-action': 'CO' });
      return { invoice: invoice.id, payment: payment.id, amount: invoice.GrandTotal };
    },
    action: (c, ctx) => c.raw('POST', '/api/v1/models/c_allocationhdr', { C_AllocationLine: [{ C_Invoice_ID: ctx.invoice, C_Payment_ID: ctx.payment, Amount: ctx.amount }], 'doc-action': 'CO' }),
    check: async (ctx) => {
      const headers = (await db.query(`SELECT DISTINCT h.c_allocationhdr_id AS id, h.docstatus FROM c_allocationhdr h JOIN c_allocationline l ON l.c_allocationhdr_id = h.c_allocationhdr_id WHERE l.c_invoice_id = $1`, [ctx.invoice])).rows;
      const inv = await one(`SELECT ispaid FROM c_invoice WHERE c_invoice_id = $1`, [ctx.invoice]);
      const pay = await one(`SELECT isallocated FROM c_payment WHERE c_payment_id = $1`, [ctx.payment]);
      if (headers.length === 0 && inv.ispaid === 'N' && pay.isallocated === 'N') return { written: 'none' };
      if (headers.length === 1 && headers[0].docstatus === 'CO' && inv.ispaid === 'Y' && pay.isallocated === 'Y') return { written: 'all' };
      return { written: headers.length > 1 ? 'doubled' : 'partial', note: `invoice ${ctx.invoice}: allocations ${headers.map((h) => `${h.id} ${h.docstatus}`).join(', ') || 'none'}, paid ${inv.ispaid}, payment allocated ${pay.isallocated}` };
    },
  },
  {
    key: 'job',
    title: 'background process job',
    background: true,
    setup: async () => ({ after: Number((await one(`SELECT coalesce(max(ad_pinstance_id), 0) AS n FROM ad_pinstance`)).n) }),
    action: (c) => c.raw('POST', '/api/v1/processes/jobs/rv_storage', { 'report-type': 'CSV', 'notification-type': 'N' }),
    check: async (ctx) => {
      const runs = idList((await db.query(`SELECT ad_pinstance_id AS id FROM ad_pinstance p JOIN ad_process pr ON pr.ad_process_id = p.ad_process_id WHERE p.ad_pinstance_id > $1 AND pr.value = 'RV_Storage'`, [ctx.after])).rows);
      if (runs.length === 0) return { written: 'none' };
      if (runs.length > 1) return { written: 'doubled', note: `${runs.length} instances for one request` };
      // The queued run ends (after a takeover when the instance died while it ran), and notifies once.
      const id = runs[0];
      let item;
      for (let i = 0; i < 600; i++) {
        item = await one(`SELECT state, attempts FROM dictum.queue_item WHERE kind = 'process' AND (payload->>'instanceId')::bigint = $1`, [id]);
        if (item && ['done', 'failed', 'cancelled'].includes(item.state)) break;
        await sleep(200);
      }
      const notes = await count(`SELECT count(*) AS n FROM ad_note WHERE ad_table_id = 282 AND record_id = $1`, [id]);
      const inst = await one(`SELECT result, isprocessing FROM ad_pinstance WHERE ad_pinstance_id = $1`, [id]);
      if (item?.state === 'done' && notes === 1 && inst.isprocessing === 'N') return { written: 'all', retried: Number(item.attempts) > 1 };
      return { written: notes > 1 ? 'doubled' : 'partial', note: `job ${id}: queue ${item?.state ?? 'missing'} after ${item?.attempts} attempts, ${notes} notes, processing ${inst.isprocessing}` };
    },
  },
  {
    key: 'webhook',
    title: 'webhook delivery',
    background: true,
    once: async (c) => {
      await db.query(`UPDATE rest_webhook_out SET isactive = 'N'`);
      const ep = await c.ok('POST', '/api/v1/models/REST_Webhook_Out', { Name: `Faults ${tag}`, URL: hookUrl });
      await c.ok('POST', '/api/v1/models/REST_Webhook_Out_Event', { REST_Webhook_Out_ID: ep.id, AD_Table_ID: 291, EventModelValidator: 'TAN' });
      await sleep(500);
      return { endpoint: ep.id };
    },
    setup: async (c, round) => ({ prefix: `FW${tag}-${round}-` }),
    action: (c, ctx) => c.raw('POST', '/api/v1/batch?transaction=true', Array.from({ length: 20 }, (_, i) => ({ method: 'POST', path: 'v1/models/c_bpartner', body: { Value: `${ctx.prefix}${i}`, Name: `Fault hook ${i}`, IsCustomer: true } }))),
    check: (ctx) => deliveredOnce(ctx),
  },
  {
    key: 'dispatch',
    title: 'webhook dispatch of written deliveries',
    background: true,
    setup: async (c, round) => {
      // A paused endpoint of its own holds 20 written deliveries; the action unpauses it.
      await db.query(`UPDATE rest_webhook_out SET isactive = 'N'`);
      await db.query(`SELECT pg_notify('dictum_webhooks', 'faults')`);
      const ep = await c.ok('POST', '/api/v1/models/REST_Webhook_Out', { Name: `Faults ${tag} ${round}`, URL: hookUrl, IsPaused: true });
      await c.ok('POST', '/api/v1/models/REST_Webhook_Out_Event', { REST_Webhook_Out_ID: ep.id, AD_Table_ID: 291, EventModelValidator: 'TAN' });
      await sleep(500);
      const prefix = `FD${tag}-${round}-`;
      await c.ok('POST', '/api/v1/batch?transaction=true', Array.from({ length: 20 }, (_, i) => ({ method: 'POST', path: 'v1/models/c_bpartner', body: { Value: `${prefix}${i}`, Name: `Fault dispatch ${i}`, IsCustomer: true } })));
      return { endpoint: ep.id, prefix };
    },
    action: (c, ctx) => c.raw('PUT', `/api/v1/models/REST_Webhook_Out/${ctx.endpoint}`, { IsPaused: false }),
    check: async (ctx) => {
      // An unpause that the kill rolled back is sent again, as its client would.
      const paused = (await one(`SELECT ispaused FROM rest_webhook_out WHERE rest_webhook_out_id = $1`, [ctx.endpoint])).ispaused === 'Y';
      if (paused) {
        if (!server) await start();
        await (await client()).ok('PUT', `/api/v1/models/REST_Webhook_Out/${ctx.endpoint}`, { IsPaused: false });
      }
      const delivered = await deliveredOnce(ctx);
      return paused && delivered.written === 'all' ? { written: 'none', retried: true, note: delivered.note } : delivered;
    },
  },
  {
    key: 'upload',
    title: 'chunked upload completion',
    setup: async (c) => {
      const chunkSize = 256 * 1024;
      const data = randomBytes(chunkSize * 4 - 1000);
      const sha = (b) => createHash('sha256').update(b).digest('hex');
      const up = await c.ok('POST', '/api/v1/uploads', { fileName: `fault-${tag}.bin`, contentType: 'application/octet-stream', fileSize: data.length, chunkSize, sha256: sha(data), uploadLocation: 'ARCHIVE' });
      const parts = [1, 2, 3, 4].map((n) => data.subarray((n - 1) * chunkSize, n * chunkSize));
      const put = (cl, n) => cl.raw('PUT', `/api/v1/uploads/${up.uploadId}/chunks/${n}`, parts[n - 1], { 'content-type': 'application/octet-stream', 'x-total-chunks': '4', 'x-content-sha256': sha(parts[n - 1]) });
      for (const n of [1, 2, 3]) {
        const r = await put(c, n);
        if (r.status !== 200) throw new Error(`chunk ${n}: ${r.status} ${r.text}`);
      }
      return { id: up.uploadId, put, sha: sha(data) };
    },
    action: (c, ctx) => ctx.put(c, 4),
    check: async (ctx) => {
      await start();
      const c = await client();
      const readBack = async () => {
        const f = await c.raw('GET', `/api/v1/uploads/${ctx.id}/file`);
        return f.status === 200 ? createHash('sha256').update(f.bytes).digest('hex') : null;
      };
      const state = await c.raw('GET', `/api/v1/uploads/${ctx.id}`);
      if (state.body?.status === 'COMPLETED') {
        const got = await readBack();
        return got === ctx.sha ? { written: 'all' } : { written: 'partial', note: `completed upload ${ctx.id} reads back ${got}` };
      }
      // Not completed: the client sends the last chunk again, which must complete it.
      const again = await ctx.put(c, 4);
      const got = await readBack();
      if (again.status === 200 && got === ctx.sha) return { written: 'none', retried: true };
      return { written: 'partial', note: `upload ${ctx.id} ${state.body?.status}; the last chunk again answered ${again.status}, file ${got}` };
    },
  },
  {
    key: 'workflow',
    title: 'workflow approval',
    setup: async () => {
      const u = await client(USER);
      const order = await u.ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 150, C_Tax_ID: 105 }], 'doc-action': 'CO' });
      if (statusOf(order.DocStatus) !== 'IP') throw new Error(`the order of GardenUser did not wait for approval: ${statusOf(order.DocStatus)}`);
      const a = await one(`SELECT a.ad_wf_activity_id AS id FROM ad_wf_activity a WHERE a.ad_table_id = 259 AND a.record_id = $1 AND a.wfstate = 'OS' AND a.processed = 'N'`, [order.id]);
      if (!a) throw new Error(`no suspended activity for order ${order.id}`);
      return { order: order.id, activity: Number(a.id) };
    },
    action: (c, ctx) => c.raw('PUT', `/api/v1/workflow/approve/${ctx.activity}`, {}),
    check: async (ctx) => {
      const state = async () => ({
        order: await one(`SELECT docstatus, isapproved, processed FROM c_order WHERE c_order_id = $1`, [ctx.order]),
        open: await count(`SELECT count(*) AS n FROM ad_wf_activity WHERE ad_table_id = 259 AND record_id = $1 AND processed = 'N' AND wfstate IN ('OS', 'ON', 'OR')`, [ctx.order]),
      });
      const done = (s) => s.order.docstatus === 'CO' && s.order.isapproved === 'Y' && s.order.processed === 'Y' && s.open === 0;
      const before = await state();
      if (done(before)) return { written: 'all' };
      if (!(before.order.docstatus === 'IP' && before.open === 1)) return { written: 'partial', note: `order ${ctx.order} ${before.order.docstatus}, approved ${before.order.isapproved}, ${before.open} open activities` };
      // Still waiting: the approver answers again, which must complete the order.
      await start();
      const c = await client();
      const again = await c.raw('PUT', `/api/v1/workflow/approve/${ctx.activity}`, {});
      const after = await state();
      if (again.status === 200 && done(after)) return { written: 'none', retried: true };
      return { written: 'partial', note: `order ${ctx.order} after a second approval (${again.status}): ${after.order.docstatus}, ${after.open} open activities` };
    },
  },
];

// --- the webhook receiver --------------------------------------------------------------------------
const received = new Map();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    received.set(id, (received.get(id) ?? 0) + 1);
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
for (const [name, value, clientId] of [['REST_WEBHOOK_ENABLED', 'Y', CLIENT], ['REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1', 0]]) {
  await db.query('DELETE FROM ad_sysconfig WHERE name = $1 AND ad_client_id = $2', [name, clientId]);
  await insertRow(q, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
}

/** Runs a request scenario: a first round without a kill measures it, then `kills` rounds with one. */
async function runScenario(sc) {
  const result = { key: sc.key, scenario: sc.title, kills: 0, outcomes: [], violations: [], books: 0, bookNotes: [] };
  const before = await booksViolations(q, CLIENT);
  await start();
  let c = await client();
  const base = sc.once ? await sc.once(c) : {};
  const first = { ...base, ...(await sc.setup(c, 0)) };
  const t0 = performance.now();
  const calibration = await sc.action(c, first);
  if (calibration.status < 200 || calibration.status > 299) throw new Error(`${sc.key}: the action without a kill answered ${calibration.status}: ${calibration.text.slice(0, 400)}`);
  // Work that goes on after the answer (a queued job, deliveries) is part of what a kill may cut.
  if (sc.background) {
    const done = await sc.check(first, 'ok');
    if (done.written !== 'all') throw new Error(`${sc.key}: without a kill the work did not end: ${done.note}`);
  }
  const duration = performance.now() - t0;
  log(`${sc.key}: the action takes ${Math.round(duration)} ms without a kill`);
  for (let round = 1; round <= kills; round++) {
    if (!server) await start();
    c = await client();
    const ctx = { ...base, ...(await sc.setup(c, round)) };
    // Delays over the whole action and a little after it: a kill after the answer must change nothing.
    const delay = Math.random() * duration * 1.2;
    const { answer } = await actAndKill(() => sc.action(c, ctx), delay);
    result.kills++;
    if (sc.background) await start();
    const checked = await sc.check(ctx, answer);
    const outcome = classifyOutcome(answer, checked.written, checked.retried);
    result.outcomes.push(outcome.outcome);
    if (outcome.violation) result.violations.push(`${outcome.violation}${checked.note ? ` (${checked.note})` : ''}`);
    log(`  kill ${round} after ${Math.round(delay)} ms: ${answer}, ${outcome.outcome}${checked.note ? `; ${checked.note}` : ''}`);
  }
  await stop();
  const fresh = newViolations(before, await booksViolations(q, CLIENT));
  result.books = fresh.length;
  for (const v of fresh.slice(0, 5)) result.bookNotes.push(`books: ${v.check} ${JSON.stringify(v.subject)} expected ${v.expected}, actual ${v.actual}`);
  return result;
}

/**
 * The scheduler: Cache Reset every 2 seconds; the instance is killed at random `kills` times while
 * it fires. Afterwards: one firing per due time, each firing's run queued exactly once and ended.
 */
async function runScheduler() {
  const result = { key: 'scheduler', scenario: 'scheduler firing', kills: 0, outcomes: [], violations: [], books: 0 };
  const before = await booksViolations(q, CLIENT);
  const started = new Date();
  const old = await one(`SELECT cronpattern, scheduletype FROM ad_schedule WHERE ad_schedule_id = 200000`);
  await db.query(`UPDATE ad_schedule SET scheduletype = 'C', cronpattern = '*/2 * * * * *' WHERE ad_schedule_id = 200000`);
  await db.query(`UPDATE ad_scheduler SET schedulerstate = 'R' WHERE ad_scheduler_id = 100`);
  try {
    for (let round = 1; round <= kills; round++) {
      await start();
      const delay = 1000 + Math.random() * 5000;
      await sleep(delay);
      await kill();
      result.kills++;
      log(`  kill ${round} after ${Math.round(delay)} ms`);
    }
    await start();
    await sleep(4000);
    await db.query(`UPDATE ad_scheduler SET schedulerstate = 'X' WHERE ad_scheduler_id = 100`);
    await sleep(1000);
    // Every queued run ends before the check.
    for (let i = 0; i < 300; i++) {
      const waiting = await count(`SELECT count(*) AS n FROM dictum.queue_item WHERE kind = 'process' AND state IN ('pending', 'running')`);
      if (!waiting) break;
      await sleep(200);
    }
    await stop();
    const firings = (await db.query(`SELECT due_at, ad_pinstance_id AS id, is_error, summary FROM dictum.scheduler_firing WHERE ad_scheduler_id = 100 AND due_at >= $1 ORDER BY due_at`, [started])).rows;
    const ids = firings.map((f) => f.id).filter((x) => x !== null).map(Number);
    const dueTimes = new Set(firings.map((f) => new Date(f.due_at).getTime()));
    if (dueTimes.size !== firings.length) result.violations.push('doubled: two firings for one due time');
    if (new Set(ids).size !== ids.length) result.violations.push('doubled: two firings name one run');
    // A claimed firing whose run was queued but not linked (the instance died between the two writes) is found by its run's time.
    const unlinked = firings.filter((f) => f.id === null && !f.is_error).length;
    const runs = ids.length ? (await db.query(`SELECT p.ad_pinstance_id AS id, q.state, q.attempts FROM ad_pinstance p LEFT JOIN dictum.queue_item q ON q.kind = 'process' AND (q.payload->>'instanceId')::bigint = p.ad_pinstance_id WHERE p.ad_pinstance_id = ANY($1::bigint[])`, [ids])).rows : [];
    const queuedRuns = await count(`SELECT count(*) AS n FROM ad_pinstance WHERE ad_process_id = 205 AND created >= $1`, [started]);
    for (const r of runs) {
      if (r.state === 'done') result.outcomes.push(Number(r.attempts) > 1 ? 'run retried to success' : 'run exactly once');
      else result.violations.push(`lost: run ${r.id} of a firing ended ${r.state ?? 'without a queue item'}`);
    }
    for (const f of firings.filter((x) => x.is_error)) result.outcomes.push(`failed firing: ${String(f.summary).slice(0, 60)}`);
    if (unlinked) result.violations.push(`${unlinked} firing(s) claimed without their run recorded`);
    if (queuedRuns !== ids.length + unlinked) result.violations.push(`${queuedRuns} Cache Reset runs for ${ids.length + unlinked} firings`);
  } finally {
    await db.query(`UPDATE ad_schedule SET scheduletype = $1, cronpattern = $2 WHERE ad_schedule_id = 200000`, [old.scheduletype, old.cronpattern]);
    await db.query(`UPDATE ad_scheduler SET schedulerstate = 'X' WHERE ad_scheduler_id = 100`);
  }
  result.books = newViolations(before, await booksViolations(q, CLIENT)).length;
  return result;
}

const results = [];
try {
  for (const sc of SCENARIOS) {
    if (only.length && !only.includes(sc.key)) continue;
    log(`scenario: ${sc.title}, ${kills} kills`);
    try {
      results.push(await runScenario(sc));
    } catch (e) {
      await stop().catch(() => {});
      results.push({ key: sc.key, scenario: sc.title, kills: 0, outcomes: [], violations: [`the scenario could not run: ${e.message.slice(0, 300)}`], books: 0 });
    }
  }
  if (!only.length || only.includes('scheduler')) {
    log(`scenario: scheduler firing, ${kills} kills`);
    results.push(await runScheduler());
  }
} finally {
  await stop().catch(() => {});
  receiver.close();
  await db.end();
  if (!keep) {
    const admin = await connect(withDatabase(databaseUrl, 'postgres'));
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName(databaseUrl)}" WITH (FORCE)`);
    await admin.end();
  }
}
console.log(`\n${faultTable(results)}`);
for (const r of results) for (const v of [...r.violations, ...(r.bookNotes ?? [])]) console.log(`  ${r.key}: ${v}`);
if (process.argv.includes('--markdown')) console.log(`\n${faultTable(results, true)}`);
process.exitCode = results.some((r) => r.violations.length || r.books) ? 1 : 0;
