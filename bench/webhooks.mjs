// Fan-out of outbound webhooks (npm run bench runs it; alone: node bench/webhooks.mjs [--events N] [--json]).
// Writes N deliveries in transactions of 500, as the outbox does for N changes, and measures how fast
// the dispatcher brings them to a local receiver: deliveries per second from the first commit to the
// last arrival, deliveries lost (never arrived, or not Success), and the receiver-side latency from
// the commit of each delivery to its arrival (p50, p99). Then the dispatcher alone: as many deliveries
// wait behind a paused endpoint, which is unpaused, and the drain rate is compared with the receiver's
// capacity measured just before and after by a plain sender loop (16 requests at a time over kept-alive
// connections, the same bodies, no database): that ratio is the figure to compare between machines.
// DATABASE_URL selects PostgreSQL; without it the embedded database is used.
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

/** Requests per second a plain loop gets through the receiver: `concurrency` at a time, kept-alive, nothing else. */
async function receiverCapacity(n, concurrency, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (i) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'webhook-id': `plain_${i}` } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await post(next++);
  }));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  for (let i = 0; i < n; i++) arrivals.delete(`plain_${i}`);
  return Math.round(n / seconds);
}

const server = await startTestServer({ LOG_LEVEL: 'silent' });
const s = server.services;
try {
  for (const [name, value, clientId] of [['REST_WEBHOOK_ENABLED', 'Y', 11], ['REST_WEBHOOK_ALLOWED_HOSTS', '127.0.0.1', 0]]) {
    await insertRow(s.db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U' }, { clientId });
  }
  s.sysConfig.clear();
  const who = { clientId: 11, orgId: 11 };
  const table = s.dictionary.current.byName.get('c_bpartner');
  const dispatcher = webhookDispatcher(s);
  const outbox = { s, subscriptions: null, notify: (q) => dispatcher.notify(q) };
  const deadline = Date.now() + 15 * 60_000;
  const now = () => performance.timeOrigin + performance.now();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /** An endpoint with its subscription, as the outbox sees it. */
  const newEndpoint = async (name, paused) => {
    const endpointId = await insertRow(s.db, 'REST_Webhook_Out', { name, url, webhooksecret: 'whsec_' + Buffer.alloc(32, 5).toString('base64'), isstandardwebhook: 'Y', ispaused: paused ? 'Y' : 'N', maxconsecutivefailures: 0, consecutivefailures: 0 }, who);
    const eventId = await insertRow(s.db, 'REST_Webhook_Out_Event', { rest_webhook_out_id: endpointId, ad_table_id: 291, eventmodelvalidator: 'TAN', seqno: 10 }, who);
    return { eventId, endpointId, clientId: 11, orgId: 11, tableId: 291, code: 'TAN', template: null, include: null, exclude: null, isStandard: true };
  };
  /** Writes the deliveries in transactions of 500; returns the commit time of each. */
  const write = async (sub) => {
    const committedAt = new Map();
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
      const at = now();
      for (const id of ids) committedAt.set(id, at);
      done += n;
    }
    return committedAt;
  };
  /** Waits until every delivery of the endpoint arrived and was recorded; their rows and arrival times. */
  const settle = async (endpointId) => {
    const statusOf = async () => (await s.db.query(`SELECT rest_webhook_out_log_id AS id, webhookmessageid AS mid, deliverystatus AS st FROM rest_webhook_out_log WHERE rest_webhook_out_id = $1`, [endpointId])).rows;
    let rows = await statusOf();
    // Arrivals are watched in memory: polling the database would compete with the dispatcher (above all on PGlite's one connection).
    while (rows.some((r) => !arrivals.has(r.mid)) && Date.now() < deadline) await sleep(20);
    while (rows.some((r) => r.st !== 'S') && Date.now() < deadline) {
      await sleep(200);
      rows = await statusOf();
    }
    const times = rows.map((r) => arrivals.get(r.mid)).filter((t) => t !== undefined);
    return { rows, arrived: times.length, succeeded: rows.filter((r) => r.st === 'S').length, last: Math.max(...times) };
  };

  say(`webhooks fan-out: ${events.toLocaleString('en-US')} deliveries to a local receiver (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})`);
  const sampleBody = JSON.stringify({ type: 'C_BPartner.TAN', timestamp: new Date().toISOString(), data: { id: 1, Name: 'Partner 1', Value: '1', 'model-name': 'c_bpartner' } });

  // 1. Live: the dispatcher sends while the deliveries are being written; commit to arrival per delivery.
  const live = await newEndpoint('Bench live', false);
  const started = now();
  const committedAt = await write(live);
  const written = now();
  const l = await settle(live.endpointId);
  const latencies = l.rows.filter((r) => arrivals.has(r.mid)).map((r) => arrivals.get(r.mid) - committedAt.get(Number(r.id))).sort((a, b) => a - b);
  const pct = (p) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]) : null);
  const seconds = (l.last - started) / 1000;

  // 2. Backlog: the deliveries wait behind a paused endpoint; unpausing lets the dispatcher drain them
  //    alone. Between two measurements of the receiver's capacity with a plain loop, for the ratio.
  const capacityBefore = await receiverCapacity(events, 16, sampleBody);
  const backlog = await newEndpoint('Bench backlog', true);
  await write(backlog);
  const unpaused = now();
  await s.db.tx(async (tx) => {
    await tx.query(`UPDATE rest_webhook_out SET ispaused = 'N' WHERE rest_webhook_out_id = $1`, [backlog.endpointId]);
    await dispatcher.notify(tx);
  });
  const b = await settle(backlog.endpointId);
  const capacityAfter = await receiverCapacity(events, 16, sampleBody);
  const capacity = Math.round((capacityBefore + capacityAfter) / 2);
  const drainSeconds = (b.last - unpaused) / 1000;
  const drainPerSecond = Math.round(b.arrived / drainSeconds);

  const round2 = (x) => Math.round(x * 100) / 100;
  const result = {
    events,
    delivered: l.arrived,
    succeeded: l.succeeded,
    lost: events - Math.min(l.arrived, l.succeeded) + (events - Math.min(b.arrived, b.succeeded)),
    seconds: round2(seconds),
    deliveriesPerSecond: Math.round(l.arrived / seconds),
    writeSeconds: round2((written - started) / 1000),
    latencyP50Ms: pct(50),
    latencyP99Ms: pct(99),
    drainSeconds: round2(drainSeconds),
    drainPerSecond,
    receiverCapacityPerSecond: capacity,
    ratioToReceiverCapacity: round2(drainPerSecond / capacity),
    targetPerSecond: 1000,
  };
  if (json) console.log(JSON.stringify(result));
  else {
    say(`  live: ${result.delivered} delivered (Success ${result.succeeded}) in ${result.seconds} s from the first commit: ${result.deliveriesPerSecond} deliveries/s (target ≥ 1,000/s on PostgreSQL); writing took ${result.writeSeconds} s of it`);
    say(`  live, commit to arrival: p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms`);
    say(`  backlog of ${events} drained in ${result.drainSeconds} s: ${result.drainPerSecond} deliveries/s = ${result.ratioToReceiverCapacity} x the receiver's capacity (plain loop, 16 at a time, kept-alive: ${capacityBefore} and ${capacityAfter} requests/s)`);
    say(`  lost: ${result.lost}`);
  }
} finally {
  await server.close();
  receiver.close();
}
