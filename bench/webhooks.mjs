// Fan-out of outbound webhooks (npm run bench runs it; alone: node bench/webhooks.mjs [--events N] [--json]).
// Writes N deliveries in transactions of 500, as the outbox does for N changes, and measures how fast
// the dispatcher brings them to a local receiver: deliveries per second from the first commit to the
// last arrival, deliveries lost (never arrived, or not Success), and the receiver-side latency from
// the commit of each delivery to its arrival (p50, p99). DATABASE_URL selects PostgreSQL; without it
// the embedded database is used.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'dist', p);
const args = process.argv.slice(2);
const events = Number(args[args.indexOf('--events') + 1]) > 0 && args.includes('--events') ? Number(args[args.indexOf('--events') + 1]) : 10_000;
const json = args.includes('--json');
const say = (line) => {
  if (!json) console.log(line);
};

process.env.DICTUM_KEEP_TEMPLATES ??= '1';
const prep = spawnSync(process.execPath, [dist('test/helpers/prepare.js')], { stdio: json ? 'ignore' : 'inherit' });
if (prep.status !== 0) throw new Error('the seeded database could not be prepared');
const { startTestServer } = await import(dist('test/helpers/server.js'));
const { insertRow } = await import(dist('src/auth/util.js'));
const { writeDeliveries } = await import(dist('src/webhooks/outbox.js'));
const { webhookDispatcher } = await import(dist('src/webhooks/register.js'));

const arrivals = new Map();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.set(String(req.headers['webhook-id']), performance.timeOrigin + performance.now());
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${receiver.address().port}/hook`;

const server = await startTestServer({ LOG_LEVEL: 'silent' });
const s = server.services;
try {
  for (const [name, value, clientId] of [['REST_WEBHOOK_ENABLED', 'Y', 11], ['REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1', 0]]) {
    await insertRow(s.db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
  }
  s.sysConfig.clear();
  const who = { clientId: 11, orgId: 11 };
  const endpointId = await insertRow(s.db, 'REST_Webhook_Out', { name: 'Bench', url, webhooksecret: 'whsec_' + Buffer.alloc(32, 5).toString('base64'), isstandardwebhook: 'Y', ispaused: 'N', maxconsecutivefailures: 0, consecutivefailures: 0 }, who);
  const eventId = await insertRow(s.db, 'REST_Webhook_Out_Event', { rest_webhook_out_id: endpointId, ad_table_id: 291, eventmodelvalidator: 'TAN', seqno: 10 }, who);
  const sub = { eventId, endpointId, clientId: 11, orgId: 11, tableId: 291, code: 'TAN', template: null, include: null, exclude: null, isStandard: true };
  const table = s.dictionary.current.byName.get('c_bpartner');
  const dispatcher = webhookDispatcher(s);
  const outbox = { s, subscriptions: null, enqueue: async (q, job) => void (await dispatcher.enqueue(q, job)) };
  const committedAt = new Map();
  say(`webhooks fan-out: ${events.toLocaleString('en-US')} deliveries to a local receiver (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})`);
  const started = performance.timeOrigin + performance.now();
  for (let done = 0; done < events; ) {
    const n = Math.min(500, events - done);
    const ids = await s.db.tx(async (tx) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const id = done + i + 1;
        out.push(...(await writeDeliveries(outbox, tx, [sub], table, 'TAN', id, { id, Name: `Partner ${id}`, Value: String(id), 'model-name': 'c_bpartner' })));
      }
      return out;
    });
    const at = performance.timeOrigin + performance.now();
    for (const id of ids) committedAt.set(id, at);
    done += n;
  }
  const deadline = Date.now() + 10 * 60_000;
  while (arrivals.size < events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const last = Math.max(...arrivals.values());
  // The last arrivals are still being recorded as Success: wait for them before counting.
  const statusOf = async () => (await s.db.query(`SELECT rest_webhook_out_log_id AS id, webhookmessageid AS mid, deliverystatus AS st FROM rest_webhook_out_log WHERE rest_webhook_out_id = $1`, [endpointId])).rows;
  let rows = await statusOf();
  while (rows.some((r) => r.st !== 'S') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    rows = await statusOf();
  }
  const latencies = [];
  let succeeded = 0;
  for (const r of rows) {
    const arrived = arrivals.get(r.mid);
    if (arrived !== undefined) latencies.push(arrived - committedAt.get(Number(r.id)));
    if (r.st === 'S') succeeded++;
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]) : null);
  const seconds = (last - started) / 1000;
  const result = {
    events,
    delivered: arrivals.size,
    succeeded,
    lost: events - Math.min(arrivals.size, succeeded),
    seconds: Math.round(seconds * 100) / 100,
    deliveriesPerSecond: Math.round(arrivals.size / seconds),
    latencyP50Ms: pct(50),
    latencyP99Ms: pct(99),
    targetPerSecond: 1000,
  };
  if (json) console.log(JSON.stringify(result));
  else {
    say(`  delivered ${result.delivered} (Success ${result.succeeded}), lost ${result.lost}, in ${result.seconds} s: ${result.deliveriesPerSecond} deliveries/s (target ≥ 1,000/s on PostgreSQL)`);
    say(`  commit to arrival: p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms`);
  }
} finally {
  await server.close();
  receiver.close();
}
