import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/paths.js';

/** The value of one series of a Prometheus text answer (null when absent). */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('metrics for this machine only (no METRICS_KEY)', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('answers Prometheus text with requests by route pattern and status, and latency histograms', async () => {
    for (const id of [117, 118, 119]) assert.equal((await server.request('GET', `/api/v1/models/c_bpartner/${id}`, { token })).status, 200);
    assert.equal((await server.request('GET', '/api/v1/models/c_bpartner/99999999', { token })).status, 404);
    const r = await server.request('GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = r.text;
    assert.equal(sample(text, 'dictum_http_requests_total{method="GET",route="/api/v1/models/:table/:id",status="200"}'), 3);
    assert.equal(sample(text, 'dictum_http_requests_total{method="GET",route="/api/v1/models/:table/:id",status="404"}'), 1);
    assert.doesNotMatch(text, /c_bpartner\/117/, 'never the raw path');
    assert.equal(sample(text, 'dictum_http_request_duration_seconds_count{method="GET",route="/api/v1/models/:table/:id"}'), 4);
    assert.equal(sample(text, 'dictum_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/models/:table/:id"}'), 4);
    assert.ok(sample(text, 'dictum_http_requests_total{method="POST",route="/api/v1/auth/tokens",status="200"}')! >= 1);
  });

  it('shows the event-loop delay, caches, schedulers, webhooks and the queue', async () => {
    await server.services.db.query(
      `INSERT INTO dictum.queue_item (kind, payload, run_at, created_at) VALUES ('metrics-check', '{}', now() - interval '90 seconds', now() - interval '90 seconds')`,
    );
    await server.services.schedulers.runNow();
    const text = (await server.request('GET', '/metrics')).text;
    assert.ok(sample(text, 'nodejs_eventloop_lag_p99_seconds')! >= 0);
    assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
    assert.ok(sample(text, 'dictum_cache_hits_total{cache="AD_SysConfig"}')! >= 0);
    assert.ok(sample(text, 'dictum_cache_entries{cache="AD_SysConfig"}')! >= 0);
    assert.match(text, /^dictum_cache_misses_total\{cache="[^"]+"\} \d+$/m);
    assert.ok(sample(text, 'dictum_scheduler_passes_total')! >= 1);
    assert.equal(sample(text, 'dictum_scheduler_firings_total{outcome="failed"}'), 0);
    assert.equal(sample(text, 'dictum_webhook_deliveries_open{state="pending"}'), 0);
    assert.equal(sample(text, 'dictum_webhook_attempts_total{outcome="sent"}'), 0);
    assert.equal(sample(text, 'dictum_queue_items{kind="metrics-check",state="pending"}'), 1);
    const age = sample(text, 'dictum_queue_oldest_age_seconds{kind="metrics-check",state="pending"}')!;
    assert.ok(age >= 89 && age < 200, `age ${age}`);
    const pool = sample(text, 'dictum_db_pool_connections{state="max"}');
    if (server.services.db.kind === 'pg') assert.equal(pool, server.services.config.dbPoolSize);
    else assert.equal(pool, null, 'embedded PGlite has no pool');
  });

  it('exposes every metric the Grafana dashboard in docs/ queries', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.join(projectRoot, 'docs', 'grafana-dashboard.json'), 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    const names = new Set(exprs.flatMap((e) => e.match(/\b(?:dictum|nodejs|process)_[a-z0-9_]+/g) ?? []));
    assert.ok(names.size >= 15, [...names].join(', '));
    const text = (await server.request('GET', '/metrics')).text;
    for (const name of names) {
      const metric = name.replace(/_(bucket|count|sum)$/, '');
      assert.match(text, new RegExp(`^# HELP ${metric} `, 'm'), `${name} is exposed`);
    }
  });

  it('refuses a client on another machine', async () => {
    const r = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    assert.equal(r.statusCode, 403);
    assert.equal(r.json().status, 403);
    assert.doesNotMatch(r.body, /dictum_http/);
    const mapped = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::ffff:127.0.0.1' });
    assert.equal(mapped.statusCode, 200, 'IPv4 loopback written as IPv6');
  });
});

describe('metrics behind METRICS_KEY', () => {
  let server: TestServer;
  const KEY = 'scrape-8f2c1e77d0';
  before(async () => {
    server = await startTestServer({ METRICS_KEY: KEY });
  });
  after(async () => {
    await server.close();
  });

  it('asks every client for the key, as a bearer or a query parameter', async () => {
    assert.equal((await server.request('GET', '/metrics')).status, 401);
    assert.equal((await server.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await server.request('GET', '/metrics?key=wrong')).status, 401);
    const bearer = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(bearer.status, 200);
    assert.match(bearer.text, /dictum_http_requests_total/);
    assert.equal((await server.request('GET', `/metrics?key=${KEY}`)).status, 200);
    const remote = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(remote.statusCode, 200, 'with the key from anywhere');
  });
});

describe('readiness', () => {
  it('is ready with the database, not without it', async () => {
    const server = await startTestServer();
    try {
      const ready = await server.request('GET', '/api/v1/health/ready');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'UP', database: 'connected' });
      const db = server.services.db;
      const realQuery = db.query.bind(db);
      (db as { query: unknown }).query = async () => {
        throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
      };
      try {
        const down = await server.request('GET', '/api/v1/health/ready');
        assert.equal(down.status, 503);
        assert.deepEqual(down.body, { status: 'DOWN', database: 'disconnected' });
      } finally {
        (db as { query: unknown }).query = realQuery;
      }
    } finally {
      await server.close();
    }
  });

  it('answers 503 as soon as the instance drains, while it still serves the rest', async () => {
    const server = await startTestServer({ DICTUM_DRAIN_DELAY_MS: '1500' });
    const url = server.url;
    const token = await login(server);
    const closing = server.close();
    try {
      const ready = await fetch(`${url}/api/v1/health/ready`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'DOWN', draining: true });
      assert.equal((await fetch(`${url}/api/v1/health`)).status, 200, 'alive while it drains');
      const read = await fetch(`${url}/api/v1/models/c_bpartner/117`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(read.status, 200, 'requests still answered');
    } finally {
      await closing;
    }
  });
});
