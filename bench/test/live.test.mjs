// Checks against the real tools on this machine: wrk (if installed) against a local HTTP server,
// the recording relay and the data-set SQL against the PostgreSQL server (if reachable).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { connect, TCP_DATABASE_URL, ensureDatabase, withDatabase, withHostPort } from '../lib/database.mjs';
import { clearEarlierWrites, compileNamed, datasetValues, FIRST_ID, INSERT_BPARTNERS, loadDataset, matchesRange } from '../lib/dataset.mjs';
import { startRecorder } from '../lib/pg-recorder.mjs';
import { findOnPath, runWrk } from '../lib/wrk.mjs';
import { sendOne } from '../lib/requests.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bench-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const baseUrl = process.env.BENCH_TEST_DATABASE_URL ?? withDatabase(process.env.DATABASE_URL?.includes('dictum_bench') ? process.env.DATABASE_URL : TCP_DATABASE_URL, 'dictum_bench_unit');
let pgReady = false;
before(async () => {
  try {
    await ensureDatabase(baseUrl);
    pgReady = true;
  } catch {
    pgReady = false;
  }
});

test('wrk sends the generated requests and counts failures', { skip: !findOnPath('wrk') && 'wrk is not installed' }, async () => {
  const seen = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (seen.length < 2000) seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      res.statusCode = req.url.endsWith('7') ? 404 : 201;
      res.end('{}');
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${srv.address().port}`;
  try {
    const common = { wrk: findOnPath('wrk'), baseUrl: url, token: 'T0K', tag: 'u1', seconds: 1, connections: 2, threads: 2, workDir: work };
    const ids = await runWrk({ ...common, desc: { key: 'ids', method: 'GET', path: '/m/', auth: true, pathGen: { kind: 'randomInt', prefix: '/m/', lo: 10, hi: 19 } } });
    assert.ok(ids.requests > 0);
    assert.ok(ids.non2xx > 0 && ids.non2xx < ids.requests, 'the ids ending in 7 fail');
    assert.equal(ids.errors, ids.non2xx + ids.socketErrors);
    const urls = new Set(seen.map((s) => s.url));
    assert.ok([...urls].every((u) => /^\/m\/1\d$/.test(u)));
    assert.ok(urls.size > 5);
    assert.equal(seen[0].auth, 'Bearer T0K');

    seen.length = 0;
    const batch = await runWrk({ ...common, desc: { key: 'batch', method: 'POST', path: '/batch', auth: true, bodyGen: { kind: 'partnerBatch', size: 5, orgId: 11, groupId: 103 } } });
    assert.equal(batch.errors, 0);
    const values = new Set();
    for (const s of seen) {
      const items = JSON.parse(s.body);
      assert.equal(items.length, 5);
      for (const it of items) {
        assert.equal(it.method, 'POST');
        assert.equal(it.path, 'v1/models/c_bpartner');
        assert.equal(it.body.AD_Org_ID, 11);
        values.add(it.body.Value);
      }
    }
    assert.equal(values.size, seen.length * 5, 'every created Value is unique');

    const check = await sendOne(url, { method: 'POST', path: '/x', auth: true, bodyGen: { kind: 'partner', orgId: 11, groupId: 103 } }, 'T0K', 'u2');
    assert.equal(check.status, 201);
  } finally {
    srv.close();
  }
});

test('the relay forwards a session and records statements with their values', async (t) => {
  if (!pgReady) return t.skip('no PostgreSQL server');
  const u = new URL(baseUrl);
  const rec = await startRecorder({ host: u.hostname, port: Number(u.port || 5432) });
  const client = new pg.Client({ connectionString: withHostPort(baseUrl, '127.0.0.1', rec.port) });
  try {
    await client.connect();
    const r = await client.query('SELECT $1::int + 1 AS n, $2::text AS s', [41, "it's"]);
    assert.deepEqual(r.rows[0], { n: 42, s: "it's" });
    await client.query({ name: 'named', text: 'SELECT $1::bigint[] AS a', values: [[1, 2]] });
    await client.query({ name: 'named', text: 'SELECT $1::bigint[] AS a', values: [[3]] });
    const st = rec.statements();
    assert.deepEqual(st.find((s) => s.text.startsWith('SELECT $1::int')).params, ['41', "it's"]);
    assert.deepEqual(st.filter((s) => s.text.startsWith('SELECT $1::bigint[]')).map((s) => s.params), [['{"1","2"}'], ['{"3"}']]);
  } finally {
    await client.end();
    await rec.close();
  }
});

test('the data set is the same whatever the chunks, and its names are realistic', async (t) => {
  if (!pgReady) return t.skip('no PostgreSQL server');
  const c = await connect(baseUrl);
  try {
    // Only the columns the statements write, as the service's schema has them (no constraints beyond keys).
    const m = /INSERT INTO c_bpartner \(([^)]*)\)/.exec(INSERT_BPARTNERS);
    const cols = m[1].split(',').map((s) => s.trim());
    const typed = cols.map((n) => `${n} ${/_id$|^createdby$|^updatedby$|^numberemployees$/.test(n) ? 'bigint' : /^(created|updated)$/.test(n) ? 'timestamp' : ['so_creditlimit', 'so_creditused', 'totalopenbalance', 'actuallifetimevalue'].includes(n) ? 'numeric' : 'text'}`);
    await c.query('DROP TABLE IF EXISTS c_bpartner, ad_user, c_location, c_bpartner_location CASCADE');
    await c.query('DROP SEQUENCE IF EXISTS c_bpartner_sq, ad_user_sq, c_location_sq, c_bpartner_location_sq');
    await c.query(`CREATE TABLE c_bpartner (${typed.join(', ')}, PRIMARY KEY (c_bpartner_id))`);
    await c.query(`CREATE TABLE ad_user (ad_user_id bigint PRIMARY KEY, ad_user_uu text, ad_client_id bigint, ad_org_id bigint, isactive text, created timestamp, createdby bigint, updated timestamp, updatedby bigint, name text, description text, email text, phone text, title text, c_bpartner_id bigint, notificationtype text, isfullbpaccess text, islocked text, isexpired text, isnopasswordreset text, isinpayroll text, issaleslead text, isbillto text, isshipto text, isvendorlead text, failedlogincount bigint)`);
    await c.query(`CREATE TABLE c_location (c_location_id bigint PRIMARY KEY, c_location_uu text, ad_client_id bigint, ad_org_id bigint, isactive text, created timestamp, createdby bigint, updated timestamp, updatedby bigint, address1 text, city text, postal text, c_country_id bigint, isvalid text)`);
    await c.query(`CREATE TABLE c_bpartner_location (c_bpartner_location_id bigint PRIMARY KEY, c_bpartner_location_uu text, ad_client_id bigint, ad_org_id bigint, isactive text, created timestamp, createdby bigint, updated timestamp, updatedby bigint, c_bpartner_id bigint, c_location_id bigint, name text, isbillto text, isshipto text, ispayfrom text, isremitto text, ispreservecustomname text, phone text)`);
    for (const s of ['c_bpartner_sq', 'ad_user_sq', 'c_location_sq', 'c_bpartner_location_sq']) await c.query(`CREATE SEQUENCE ${s} START 1000000`);

    const first = await loadDataset(c, { rows: 300, seed: 7, chunk: 1000 });
    assert.equal(first.loaded, 300);
    const again = await loadDataset(c, { rows: 300, seed: 7 });
    assert.equal(again.loaded, 0, 'a loaded data set is not loaded again');
    const more = await loadDataset(c, { rows: 1000, seed: 7, chunk: 256 });
    assert.equal(more.loaded, 700);
    const stepwise = (await c.query('SELECT c_bpartner_id, name, value, ad_org_id, iscustomer FROM c_bpartner ORDER BY 1')).rows;

    const q = compileNamed(INSERT_BPARTNERS.replace('INSERT INTO c_bpartner', 'INSERT INTO bp_once'), datasetValues(7, 0, 1000));
    await c.query('DROP TABLE IF EXISTS bp_once');
    await c.query('CREATE TABLE bp_once (LIKE c_bpartner)');
    await c.query(q.text, q.values);
    const once = (await c.query('SELECT c_bpartner_id, name, value, ad_org_id, iscustomer FROM bp_once ORDER BY 1')).rows;
    assert.deepEqual(stepwise, once);

    assert.equal(stepwise[0].c_bpartner_id, String(FIRST_ID));
    assert.ok(stepwise.every((r) => r.name.length > 3 && r.name.length <= 60 && /^[A-Z]/.test(r.name)));
    assert.ok(new Set(stepwise.map((r) => r.name)).size > 800, 'names vary');
    assert.equal(new Set(stepwise.map((r) => r.value)).size, 1000, 'values are unique');
    const customers = stepwise.filter((r) => r.iscustomer === 'Y').length;
    assert.ok(customers > 600 && customers < 800, `about 70% customers, got ${customers}`);
    const orgs = new Set(stepwise.map((r) => Number(r.ad_org_id)));
    assert.deepEqual([...orgs].sort((a, b) => a - b), [11, 12, 50000, 50001, 50002, 50004, 50005, 50006]);
    const uu = await c.query('SELECT count(DISTINCT c_bpartner_uu)::int AS n FROM c_bpartner');
    assert.equal(uu.rows[0].n, 1000);
    const contacts = await c.query('SELECT count(*)::int AS n FROM ad_user u JOIN c_bpartner b USING (c_bpartner_id)');
    assert.ok(contacts.rows[0].n > 250 && contacts.rows[0].n < 450);
    const loc = await c.query('SELECT count(*)::int AS n FROM c_bpartner_location bl JOIN c_location l USING (c_location_id) JOIN c_bpartner b USING (c_bpartner_id)');
    assert.ok(loc.rows[0].n > 500 && loc.rows[0].n < 700);

    // The list read's range for a match count: from the prefix to the first name past that many listed partners.
    const listed = stepwise.filter((r) => r.iscustomer === 'Y' && r.name >= 'M').map((r) => r.name);
    const active = (await c.query("SELECT name FROM c_bpartner WHERE isactive = 'Y' AND iscustomer = 'Y' AND name >= 'M' ORDER BY name")).rows.map((r) => r.name);
    assert.ok(active.length > 100 && active.length <= listed.length);
    const range = await matchesRange(c, 'M', 100);
    assert.equal(range.lo, 'M');
    assert.equal(range.hi, active[100]);
    assert.equal(range.matches, active.filter((n) => n < range.hi).length);
    assert.ok(range.matches <= 100 && range.matches > 90, `about 100 matches, got ${range.matches}`);
    await assert.rejects(matchesRange(c, 'M', active.length), /lists fewer partners/);

    await assert.rejects(loadDataset(c, { rows: 500, seed: 7 }), /more data-set partners than --rows 500/);
    await c.query("SELECT setval('ad_user_sq', $1)", [FIRST_ID + 5]);
    await assert.rejects(loadDataset(c, { rows: 2000, seed: 7 }), /inside the data set's id range/);
  } finally {
    await c.end();
  }
});

test('memory and CPU time of a process are read from /proc', { skip: !fs.existsSync('/proc/self/stat') && 'no /proc' }, async () => {
  const { readCpuTicks, readMemory, waitIdle } = await import('../lib/server.mjs');
  assert.equal(typeof readCpuTicks(process.pid), 'number');
  const m = readMemory(process.pid);
  assert.ok(m.rss > 1024 * 1024 && m.hwm >= m.rss);
  assert.equal(readMemory(2 ** 22 + 12345), null);
  const waited = await waitIdle(process.pid, { maxMs: 2000, busyShare: 2 });
  assert.ok(waited < 2000);
});

/** The tables that the write scenarios fill, with the columns clearEarlierWrites reads, new and empty. */
async function createWrittenTables(c) {
    await c.query('DROP TABLE IF EXISTS c_bpartner, c_order, c_orderline, c_ordertax CASCADE');
    await c.query('CREATE TABLE c_bpartner (c_bpartner_id bigint PRIMARY KEY, value text, name text)');
    await c.query('CREATE TABLE c_order (c_order_id bigint PRIMARY KEY, description text)');
    await c.query('CREATE TABLE c_orderline (c_orderline_id bigint PRIMARY KEY, c_order_id bigint)');
    await c.query('CREATE TABLE c_ordertax (c_order_id bigint, c_tax_id bigint)');
}

test('each run starts without what earlier runs created, and leaves everything else', async (t) => {
  if (!pgReady) return t.skip('no PostgreSQL server');
  const c = await connect(baseUrl);
  try {
    await createWrittenTables(c);
    await c.query(`INSERT INTO c_bpartner VALUES
      (117, 'W1-1', 'Demo Garden'),
      (1000001, 'W1a2-1', 'Anna Alvarez Garden'), (1000002, 'W1a2-0-3', 'Ben Berg Garden'),
      (1000003, 'C001', 'Customer Garden'), (1000004, 'W9-1', 'Anna Alvarez'),
      (${FIRST_ID}, 'W0-1', 'Data Garden')`);
    await c.query(`INSERT INTO c_order VALUES (102, 'a demo order'), (1000022, 'benchmark order'), (1000023, NULL), (1000024, 'benchmark order'), (1000025, 'benchmark order')`);
    await c.query('INSERT INTO c_orderline VALUES (1, 102), (2, 1000022), (3, 1000022), (4, 1000023), (5, 1000024), (6, 1000025)');
    await c.query('INSERT INTO c_ordertax VALUES (102, 1), (1000022, 1), (1000025, 1)');

    // The newest two orders of earlier runs stay, the older one goes with its lines and taxes.
    assert.deepEqual(await clearEarlierWrites(c, 2), { partners: 2, orders: 1 });
    const ids = async (sql) => (await c.query(sql)).rows.map((r) => Number(r.id));
    assert.deepEqual(await ids('SELECT c_bpartner_id AS id FROM c_bpartner ORDER BY 1'), [117, 1000003, 1000004, FIRST_ID]);
    assert.deepEqual(await ids('SELECT c_order_id AS id FROM c_order ORDER BY 1'), [102, 1000023, 1000024, 1000025]);
    assert.deepEqual(await ids('SELECT c_orderline_id AS id FROM c_orderline ORDER BY 1'), [1, 4, 5, 6]);
    assert.deepEqual(await ids('SELECT c_order_id AS id FROM c_ordertax ORDER BY 1'), [102, 1000025]);
    assert.deepEqual(await clearEarlierWrites(c, 2), { partners: 0, orders: 0 }, 'a second run finds nothing to remove');
    assert.deepEqual(await clearEarlierWrites(c, 0), { partners: 0, orders: 2 }, 'keeping none removes every order of the runs');
  } finally {
    await c.query('DROP TABLE IF EXISTS c_order, c_orderline, c_ordertax CASCADE').catch(() => undefined);
    await c.end();
  }
});

test('only the tables that lost the writes of earlier runs are analyzed', async (t) => {
  if (!pgReady) return t.skip('no PostgreSQL server');
  const c = await connect(baseUrl);
  try {
    await createWrittenTables(c);
    await c.query("INSERT INTO c_bpartner VALUES (117, 'C1', 'Demo Garden'), (1000001, 'W1a2-1', 'Anna Alvarez Garden')");
    await c.query("INSERT INTO c_order VALUES (102, 'a demo order'), (103, 'a demo order')");
    await c.query('INSERT INTO c_orderline VALUES (1, 102), (2, 103)');
    assert.deepEqual(await clearEarlierWrites(c), { partners: 1, orders: 0 });
    const tuples = async (table) => Number((await c.query('SELECT reltuples FROM pg_class WHERE oid = $1::regclass', [table])).rows[0].reltuples);
    assert.equal(await tuples('c_bpartner'), 1, 'the partner table, which lost a row, is analyzed');
    for (const table of ['c_order', 'c_orderline', 'c_ordertax']) assert.equal(await tuples(table), -1, `${table} stays never analyzed`);
  } finally {
    await c.query('DROP TABLE IF EXISTS c_bpartner, c_order, c_orderline, c_ordertax CASCADE').catch(() => undefined);
    await c.end();
  }
});

test('the orders of a database in use are created through the service once, then analyzed', async (t) => {
  if (!pgReady) return t.skip('no PostgreSQL server');
  const { ensureOrdersInUse, ORDER_TABLES } = await import('../lib/orders-in-use.mjs');
  const c = await connect(baseUrl);
  try {
    await c.query('DROP TABLE IF EXISTS c_order, c_orderline, c_ordertax CASCADE');
    await c.query('CREATE TABLE c_order (c_order_id serial PRIMARY KEY, description text)');
    await c.query('CREATE TABLE c_orderline (c_orderline_id serial PRIMARY KEY, c_order_id bigint)');
    await c.query('CREATE TABLE c_ordertax (c_order_id bigint, c_tax_id bigint)');
    await c.query("INSERT INTO c_order (description) VALUES ('benchmark order'), ('benchmark order'), ('a demo order')");
    const desc = { key: 'createOrder', method: 'POST', path: '/api/v1/models/c_order', auth: true, bodyGen: { kind: 'json', value: {} } };
    const calls = [];
    const send = async (baseUrl, d, token) => {
      calls.push({ baseUrl, d, token });
      await c.query("INSERT INTO c_order (description) VALUES ('benchmark order')");
      return { status: 201, body: '{}', path: d.path };
    };
    assert.equal(await ensureOrdersInUse({ client: c, baseUrl: 'http://x', token: 'T', desc, kept: 20, concurrency: 4, send }), 18);
    assert.equal(calls.length, 18);
    assert.ok(calls.every((k) => k.baseUrl === 'http://x' && k.token === 'T' && k.d === desc));
    assert.equal((await c.query("SELECT count(*)::int AS n FROM c_order WHERE description = 'benchmark order'")).rows[0].n, 20);
    for (const table of ORDER_TABLES) {
      const r = await c.query('SELECT reltuples FROM pg_class WHERE oid = $1::regclass', [table]);
      assert.notEqual(Number(r.rows[0].reltuples), -1, `${table} is analyzed after the orders are made`);
    }
    assert.equal(await ensureOrdersInUse({ client: c, baseUrl: 'http://x', token: 'T', desc, kept: 20, send }), 0, 'enough orders: nothing is sent');
    assert.equal(calls.length, 18);

    const refuse = async (_b, d) => ({ status: 409, body: '{"title":"Conflict"}', path: d.path });
    await assert.rejects(ensureOrdersInUse({ client: c, baseUrl: 'http://x', token: 'T', desc, kept: 30, send: refuse }), /POST \/api\/v1\/models\/c_order answered 409: \{"title":"Conflict"\}/);
  } finally {
    await c.query('DROP TABLE IF EXISTS c_order, c_orderline, c_ordertax CASCADE').catch(() => undefined);
    await c.end();
  }
});
