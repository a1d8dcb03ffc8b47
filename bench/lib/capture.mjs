// Learns the exact statements (text and bound values) the service runs for a read: a second,
// short-lived server instance reaches the database through the recording relay, answers the
// read with showsql, and the statements named in its sql-command* fields are picked from the
// record, together with the row count that a list read runs beside its page.
import { socketDir, withHostPort } from './database.mjs';
import { startRecorder } from './pg-recorder.mjs';
import { freePort, getJson, login, startDictum } from './server.mjs';
import { pgbenchScript } from './pgbench.mjs';

/** Where `word` occurs outside parentheses and quotes (the first, or the last), or -1. */
export function topLevelIndex(sql, word, last = false) {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && sql.startsWith(word, i)) {
      found = i;
      if (!last) return i;
    }
  }
  return found;
}

/** The statements of one answered read: [{text, params}] in the order they ran. */
export function pickStatements(body, recorded) {
  const commands = Object.entries(body)
    .filter(([k, v]) => k.startsWith('sql-command') && typeof v === 'string')
    .map(([, v]) => v);
  if (!commands.length) throw new Error('the answer carries no sql-command (showsql)');
  const picked = new Set();
  for (const text of commands) {
    let found = -1;
    for (let i = recorded.length - 1; i >= 0; i--) {
      if (recorded[i].text === text) {
        found = i;
        break;
      }
    }
    if (found < 0) throw new Error(`the statement of sql-command was not seen on the wire: ${text.slice(0, 200)}`);
    picked.add(found);
  }
  const page = commands[0];
  if ('row-count' in body) {
    // A list read counts its rows with the page's FROM ... WHERE.
    const from = topLevelIndex(page, ' FROM ');
    const order = topLevelIndex(page, ' ORDER BY ', true);
    const fromWhere = from >= 0 && order > from ? page.slice(from, order) : null;
    const count = fromWhere ? recorded.findLastIndex((s) => /^SELECT count\(/i.test(s.text) && s.text.includes(fromWhere)) : -1;
    if (count >= 0) picked.add(count);
  }
  return [...picked].sort((a, b) => a - b).map((i) => recorded[i]);
}

/**
 * Reads `path` until two answers in a row show the same statements (sql-command*): an instance
 * counts its small tables in the background after its first read, and only then takes their
 * identifiers from memory instead of reading them in the statement. Without this, the statements
 * captured would be those of an instance that has not yet settled (measured: 20 identifier
 * lookups per row instead of 3).
 */
async function warmRead(baseUrl, path, token, tries = 50) {
  const shown = (body) => JSON.stringify(Object.entries(body).filter(([k]) => k.startsWith('sql-command')));
  let last = shown(await getJson(baseUrl, path, token));
  for (let i = 0; i < tries; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = shown(await getJson(baseUrl, path, token));
    if (now === last) return;
    last = now;
  }
  throw new Error(`the statements of ${path} did not settle in ${tries} reads`);
}

/**
 * Runs each request [{key, path, variables?}] through a recording instance on databaseUrl and
 * returns {key: {statements, script}} (script: a pgbench script) or {key: {error}}.
 */
export async function captureCeilingSql({ root, databaseUrl, requests, env = {} }) {
  const u = new URL(databaseUrl);
  const dir = socketDir(databaseUrl);
  const recorder = await startRecorder(dir ? { path: `${dir}/.s.PGSQL.${u.port || 5432}` } : { host: u.hostname, port: Number(u.port || 5432) });
  let server;
  const out = {};
  try {
    server = await startDictum({ root, databaseUrl: withHostPort(databaseUrl, '127.0.0.1', recorder.port), port: await freePort(), env, waitMs: 120_000 });
    const token = await login(server.baseUrl);
    for (const req of requests) {
      try {
        await warmRead(server.baseUrl, req.path, token);
        recorder.clear();
        const body = await getJson(server.baseUrl, req.path, token);
        const statements = pickStatements(body, recorder.statements());
        out[req.key] = { statements, script: pgbenchScript(statements, req.variables ?? {}) };
      } catch (e) {
        out[req.key] = { error: e.message };
      }
    }
  } finally {
    if (server) await server.stop();
    await recorder.close();
  }
  return out;
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START|SAVEPOINT|RELEASE|SET|SHOW|DISCARD)\b/i;

/**
 * The statements one write runs: a recording instance answers `request` ({path, body}) until two
 * answers in a row run as many statements (its caches warm), and the statements of the last
 * answer (all connections, transaction control left out) are kept. Every record an answer created
 * is removed through `cleanup(body)` (it gets the answer), so that a replay inserting the same keys
 * meets no committed copy.
 * Returns {statements, script}: the script replays them in one transaction that rolls back, so
 * every run finds the database as the previous one left it.
 */
export async function captureWriteSql({ root, databaseUrl, request, cleanup, env = {} }) {
  const u = new URL(databaseUrl);
  const dir = socketDir(databaseUrl);
  const recorder = await startRecorder(dir ? { path: `${dir}/.s.PGSQL.${u.port || 5432}` } : { host: u.hostname, port: Number(u.port || 5432) });
  let server;
  try {
    server = await startDictum({ root, databaseUrl: withHostPort(databaseUrl, '127.0.0.1', recorder.port), port: await freePort(), env, waitMs: 120_000 });
    const token = await login(server.baseUrl);
    const send = async () => {
      const r = await fetch(server.baseUrl + request.path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await r.text();
      if (r.status < 200 || r.status > 299) throw new Error(`POST ${request.path} answered ${r.status}: ${text.slice(0, 800)}`);
      return JSON.parse(text);
    };
    // Orders until two in a row run the same statements: the instance's caches are warm (some,
    // like the kept identifiers, fill in the background after the first request that needs them),
    // so the count is that of a service in use, not of its first requests.
    const one = async () => {
      recorder.clear();
      const body = await send();
      const statements = recorder.statements().filter((s) => !TRANSACTION_CONTROL.test(s.text));
      await cleanup(body);
      return statements;
    };
    await one();
    let statements = await one();
    for (let tries = 0; tries < 8; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      const next = await one();
      const same = next.length === statements.length;
      statements = next;
      if (same) break;
    }
    return { statements, script: `BEGIN;\n${pgbenchScript(statements)}ROLLBACK;\n` };
  } finally {
    if (server) await server.stop();
    await recorder.close();
  }
}
