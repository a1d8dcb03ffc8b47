// Trial balance benchmark (npm run bench:trial-balance; build first: npm run build).
// Puts 100,000 accounting facts (balanced pairs over the demo accounts and the months of 2025) of
// the demo company into a PostgreSQL database by SQL, runs the Financial Report process on the
// demo's Trial Balance over HTTP one request after another for --seconds, and compares its
// requests per second with pgbench replaying the statements one request runs (recorded on the
// wire, in one transaction that rolls back). Prints the statement count and the ratio (target >= 0.5).
// Options: --facts 100000 --seconds 10 --period 202506 (--per-statement: each statement's time and the aggregate's plan); DATABASE_URL names a database whose name
// starts with dictum_bench (default: dictum_bench_statements on the local server).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureWriteSql } from './lib/capture.mjs';
import { assertBenchDatabase, connect, defaultDatabaseUrl, ensureDatabase, withDatabase } from './lib/database.mjs';
import { runPgbench } from './lib/pgbench.mjs';
import { freePort, login, startDictum } from './lib/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const factCount = option('facts', 100_000);
const seconds = option('seconds', 10);
const periodId = option('period', 202506);
const databaseUrl = process.env.DATABASE_URL ?? withDatabase(defaultDatabaseUrl(), 'dictum_bench_statements');
assertBenchDatabase(databaseUrl);

/** The demo's Trial Balance report (migration 140) and the facts this benchmark owns (ids from here up). */
const TRIAL_BALANCE = 1103002;
const FIRST_FACT = 900_000_000;
const request = {
  path: '/api/v1/processes/finreport',
  body: { 'record-id': TRIAL_BALANCE, 'model-name': 'pa_report', C_Period_ID: periodId, 'report-type': 'CSV' },
};

/**
 * Replaces the benchmark's facts with `count` new ones: pairs of a debit and a credit of the same
 * amount on two leaf accounts of the demo, dated over 2025 (so the period, the year to date and
 * the balances before it all have facts).
 */
async function seedFacts(client, count) {
  await client.query('DELETE FROM fact_acct WHERE fact_acct_id >= $1', [FIRST_FACT]);
  // The facts of earlier runs leave dead rows behind that a scan would read again.
  await client.query('VACUUM fact_acct');
  await client.query(
    `WITH accounts AS (SELECT array_agg(c_elementvalue_id ORDER BY c_elementvalue_id) AS ids FROM c_elementvalue WHERE ad_client_id = 11 AND issummary = 'N'),
          n AS (SELECT g AS i, (g / 2) AS pair, (DATE '2025-01-01' + ((g / 2) % 365)) AS day FROM generate_series(0, $2::int - 1) g)
     INSERT INTO fact_acct (fact_acct_id, fact_acct_uu, ad_client_id, ad_org_id, c_acctschema_id, account_id, c_period_id, dateacct, datetrx, postingtype,
                            c_currency_id, amtsourcedr, amtsourcecr, amtacctdr, amtacctcr, ad_table_id, record_id, description, isactive, created, createdby, updated, updatedby)
     SELECT $1::bigint + n.i, gen_random_uuid()::text, 11, 11, 101,
            a.ids[1 + ((n.pair * 7 + (n.i % 2) * 3) % array_length(a.ids, 1))],
            (SELECT p.c_period_id FROM c_period p WHERE p.ad_client_id = 11 AND p.startdate <= n.day AND p.enddate >= n.day ORDER BY p.startdate DESC LIMIT 1),
            n.day, n.day, 'A', 100,
            CASE WHEN n.i % 2 = 0 THEN 10 + n.pair % 997 ELSE 0 END, CASE WHEN n.i % 2 = 1 THEN 10 + n.pair % 997 ELSE 0 END,
            CASE WHEN n.i % 2 = 0 THEN 10 + n.pair % 997 ELSE 0 END, CASE WHEN n.i % 2 = 1 THEN 10 + n.pair % 997 ELSE 0 END,
            224, n.pair, 'benchmark fact', 'Y', now(), 100, now(), 100
       FROM n CROSS JOIN accounts a`,
    [FIRST_FACT, count],
  );
  await client.query('VACUUM ANALYZE fact_acct');
}

async function post(baseUrl, token) {
  const r = await fetch(baseUrl + request.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(request.body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`POST ${request.path} answered ${r.status}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text);
  if (body.isError) throw new Error(`the report failed: ${body.summary}`);
  return body;
}

/** The run's instance and what it wrote (parameters, logs, archived report), so that a replay meets no committed copy. */
async function removeRun(client, body) {
  const id = body.AD_PInstance_ID;
  await client.query('DELETE FROM ad_archive WHERE ad_archive_id = (SELECT max(ad_archive_id) FROM ad_archive WHERE ad_process_id = 202)');
  for (const table of ['ad_pinstance_para', 'ad_pinstance_log', 'ad_pinstance']) await client.query(`DELETE FROM ${table} WHERE ad_pinstance_id = $1`, [id]);
}

await ensureDatabase(databaseUrl);
// A first start applies the migrations (the report definitions) before the facts go in.
let server = await startDictum({ root, databaseUrl, port: await freePort() });
await server.stop();
const client = await connect(databaseUrl);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-trial-balance-'));
try {
  const started = performance.now();
  await seedFacts(client, factCount);
  const { rows } = await client.query('SELECT count(*)::int AS n FROM fact_acct WHERE ad_client_id = 11');
  console.log(`facts: ${factCount.toLocaleString('en-US')} written in ${Math.round(performance.now() - started)} ms; the client has ${rows[0].n.toLocaleString('en-US')}`);

  server = await startDictum({ root, databaseUrl, port: await freePort() });
  const token = await login(server.baseUrl);
  const first = await post(server.baseUrl, token);
  const csv = Buffer.from(first.exportFile, 'base64').toString('utf8').trim().split('\n');
  const total = csv.find((l) => l.startsWith('Total,') || l.startsWith('"Total"'))?.split(',');
  if (!total || total[2] !== total[3]) throw new Error(`the trial balance's debits and credits differ: ${total}`);
  console.log(`trial balance of period ${periodId}: ${csv.length - 2} accounts, debits = credits = ${total[2]}`);
  let requests = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    await post(server.baseUrl, token);
    requests++;
  }
  const serviceRps = (requests / (performance.now() - t0)) * 1000;
  await server.stop();
  server = null;

  const captured = await captureWriteSql({ root, databaseUrl, request, cleanup: (body) => removeRun(client, body) });
  const aggregate = captured.statements.filter((s) => /FROM fact_acct f /.test(s.text));
  const plan = await client.query(`EXPLAIN ${aggregate[0].text.replace(/\$(\d+)/g, (_, k) => {
    const v = aggregate[0].params[Number(k) - 1];
    return v === null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`;
  })}`);
  if (process.argv.includes('--per-statement')) {
    // Each statement alone, in a transaction that rolls back: where a request's database time goes.
    const { rewriteStatement, sqlLiteral } = await import('./lib/pgbench.mjs');
    await client.query('BEGIN');
    for (const st of captured.statements) {
      const t = performance.now();
      await client.query(rewriteStatement(st.text, (k) => sqlLiteral(st.params[k - 1])));
      console.log(`${(performance.now() - t).toFixed(1).padStart(8)} ms  ${st.text.replace(/\s+/g, ' ').slice(0, 110)}`);
    }
    await client.query('ROLLBACK');
    const { rows: analyzed } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${rewriteStatement(aggregate[0].text, (k) => sqlLiteral(aggregate[0].params[k - 1]))}`);
    console.log(analyzed.map((r) => r['QUERY PLAN']).join('\n'));
  }
  const ceiling = await runPgbench({ databaseUrl, script: captured.script, name: 'trial-balance', seconds, clients: 1, threads: 1, workDir, log: false });
  const ratio = serviceRps / ceiling.tps;
  console.log(`statements per request: ${captured.statements.length} (${aggregate.length} over the facts)`);
  console.log(`plan of the aggregate: ${plan.rows.map((r) => r['QUERY PLAN'].trim()).filter((l) => /Scan|Aggregate/.test(l)).join(' | ')}`);
  console.log(`service: ${serviceRps.toFixed(2)} requests/s (${(1000 / serviceRps).toFixed(1)} ms each, ${requests} requests, 1 connection)`);
  console.log(`pgbench replay of the same statements: ${ceiling.tps.toFixed(2)} transactions/s (${ceiling.meanMs.toFixed(1)} ms each)`);
  console.log(`ratio to the replay: ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ facts: factCount, statements: captured.statements.length, serviceRps, pgbenchTps: ceiling.tps, ratio }));
} finally {
  if (server) await server.stop();
  await client.query('DELETE FROM fact_acct WHERE fact_acct_id >= $1', [FIRST_FACT]);
  await client.query('VACUUM fact_acct');
  await client.end();
  fs.rmSync(workDir, { recursive: true, force: true });
}
