// The ceiling: PostgreSQL's own pgbench running the statements the service runs for a request,
// with the parameter values it bound written in as literals (a random id as a pgbench variable).
import fs from 'node:fs';
import path from 'node:path';
import { runTool } from './children.mjs';

/** A SQL literal of a parameter value as the service sent it (text format): typed like an untyped parameter. */
export function sqlLiteral(value) {
  if (value === null || value === undefined) return 'NULL';
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  const text = String(value).replace(/'/g, "''");
  // pgbench reads ":name" as a variable even inside a literal: a colon is written as a Unicode escape.
  if (text.includes(':')) return `U&'${text.replace(/\\/g, '\\005C').replace(/:/g, '\\003A')}'`;
  return `'${text}'`;
}

/**
 * Rewrites a statement: each $n outside quotes and comments becomes replace(n) (1-based), and
 * line breaks outside quotes become spaces, so that the statement fits on one pgbench line.
 */
export function rewriteStatement(text, replace) {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (; j < n; j++) {
        if (text[j] === c) {
          if (text[j + 1] === c) j++;
          else break;
        }
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const j = text.indexOf('\n', i);
      i = j < 0 ? n : j;
      out += ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      i = j < 0 ? n : j + 2;
      out += ' ';
    } else if (c === '$' && /[0-9]/.test(text[i + 1] ?? '') && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
      let j = i + 1;
      while (j < n && /[0-9]/.test(text[j])) j++;
      out += replace(Number(text.slice(i + 1, j)));
      i = j;
    } else if (c === '\n' || c === '\r' || c === '\t') {
      out += ' ';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * A pgbench script for recorded statements [{text, params}]. `variables` maps a parameter value
 * (as text) to a pgbench variable, e.g. {'2000017': {name: 'id', set: 'random(2000000, 2099999)'}}:
 * that value is then drawn anew for every transaction.
 */
export function pgbenchScript(statements, variables = {}) {
  const lines = [];
  for (const [, v] of Object.entries(variables)) lines.push(`\\set ${v.name} ${v.set}`);
  for (const st of statements) {
    const sql = rewriteStatement(st.text, (k) => {
      if (k < 1 || k > st.params.length) throw new Error(`Statement uses $${k} but has ${st.params.length} parameters: ${st.text.slice(0, 200)}`);
      const value = st.params[k - 1];
      const v = typeof value === 'string' ? variables[value] : undefined;
      return v ? `:${v.name}` : sqlLiteral(value);
    });
    // pgbench reads ":name" as a variable anywhere, even inside a quoted literal.
    const stray = sql.replace(/::/g, '').match(/:[A-Za-z_][A-Za-z0-9_]*/g)?.filter((m) => !Object.values(variables).some((v) => `:${v.name}` === m));
    if (stray?.length) throw new Error(`The statement holds ${stray[0]}, which pgbench would read as a variable`);
    lines.push(`${sql};`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Names the statements of a read for the report: a row count is "count", the first other
 * statement "page", any further one "statement N" (1-based).
 */
export function statementLabels(statements) {
  let pageSeen = false;
  return statements.map((st, i) => {
    if (/^\s*SELECT\s+count\(\*\)/i.test(st.text)) return 'count';
    if (!pageSeen) {
      pageSeen = true;
      return 'page';
    }
    return `statement ${i + 1}`;
  });
}

/** Percentile (0-100) of a sorted array, nearest rank. */
export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Figures from pgbench's summary: tps (without connection time), transactions, failed. */
export function parsePgbenchOutput(stdout) {
  const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([0-9.]+)/.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no tps: ${stdout.slice(-500)}`);
  const tx = /number of transactions actually processed: (\d+)/.exec(stdout);
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  const latency = /latency average = ([0-9.]+) ms/.exec(stdout);
  return { tps: Number(tps[1]), transactions: tx ? Number(tx[1]) : 0, failed: failed ? Number(failed[1]) : 0, meanMs: latency ? Number(latency[1]) : 0 };
}

/** Latency percentiles (ms) from pgbench's per-transaction logs (-l): third field is microseconds. */
export function latencyFromLogs(dir, prefix) {
  const values = [];
  for (const f of fs.readdirSync(dir)) {
    if (!f.startsWith(`${prefix}.`)) continue;
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const parts = line.split(' ');
      if (parts.length >= 3 && parts[2] !== 'skipped' && parts[2] !== 'failed') values.push(Number(parts[2]) / 1000);
    }
  }
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p90: percentile(values, 90), p99: percentile(values, 99), count: values.length };
}

/** libpq connection arguments of a postgres:// URL for the pg command-line tools. */
export function pgArgs(databaseUrl) {
  const u = new URL(databaseUrl);
  const args = [];
  const socket = u.searchParams.get('host');
  if (socket) args.push('-h', socket);
  else if (u.hostname) args.push('-h', decodeURIComponent(u.hostname));
  if (u.port) args.push('-p', u.port);
  if (u.username) args.push('-U', decodeURIComponent(u.username));
  const env = u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {};
  return { args, db: decodeURIComponent(u.pathname.replace(/^\//, '')), env };
}

/** Runs pgbench with a script for `seconds`: {tps, p50, p90, p99, transactions, failed}. */
export async function runPgbench({ pgbench = 'pgbench', databaseUrl, script, name, seconds, clients, threads, workDir, log = true }) {
  const file = path.join(workDir, `${name}.sql`);
  fs.writeFileSync(file, script);
  const logDir = fs.mkdtempSync(path.join(workDir, `${name}-log-`));
  const conn = pgArgs(databaseUrl);
  const args = ['-n', '-f', file, '-c', String(clients), '-j', String(Math.min(threads, clients)), '-T', String(seconds), '-M', 'prepared', ...conn.args];
  if (log) args.push('-l', `--log-prefix=${path.join(logDir, 'tx')}`);
  args.push(conn.db);
  const stdout = await runTool(pgbench, args, {
    cwd: logDir,
    env: conn.env,
    timeoutMs: (seconds + 60) * 1000,
    describeFailure: (code, err) => `pgbench exited with ${code}: ${err.trim().split('\n').slice(-5).join(' | ')}`,
  });
  const summary = parsePgbenchOutput(stdout);
  const lat = log ? latencyFromLogs(logDir, 'tx') : { p50: 0, p90: 0, p99: 0 };
  fs.rmSync(logDir, { recursive: true, force: true });
  return { ...summary, p50: lat.p50, p90: lat.p90, p99: lat.p99 };
}
