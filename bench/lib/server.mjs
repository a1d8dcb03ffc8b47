// Starting and stopping the service under test, watching its memory, logging in.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/** The Node flags of `npm start` (package.json), so that the benchmark measures the service as it runs. */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16', '--min-semi-space-size=16', '--heap-growing-percent=100', '--no-memory-reducer'];
/** The environment `npm start` sets (package.json): glibc's allocator returns large freed buffers at once and keeps two arenas. */
export const SERVICE_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };

/**
 * The script and arguments `npm start` runs (package.json): it runs the bundle when the build made
 * one, which holds less memory than the separate modules (about 10 MB less at the list read's peak).
 */
export const SERVICE_ENTRY = ['scripts/start.mjs', 'serve'];

/**
 * Starts the service as `npm start` does (SERVICE_ENTRY, SERVICE_NODE_FLAGS, SERVICE_ENV) on a
 * PostgreSQL database and waits (at most waitMs) for GET /api/v1/health to answer 200.
 * Returns {pid, baseUrl, stop(), exited, stderrTail()}.
 */
export function startDictum({ root, databaseUrl, port, env = {}, nodeArgs = [], waitMs = 300_000 }) {
  return startProcess({ root, args: [...SERVICE_NODE_FLAGS, ...nodeArgs, ...SERVICE_ENTRY], databaseUrl, port, env, waitMs, readyPath: '/api/v1/health' });
}

/** The hand-written comparison server (bench/handwritten-server.mjs), with the same pool size. */
export function startHandwritten({ root, databaseUrl, port, waitMs = 60_000 }) {
  return startProcess({ root, args: [...SERVICE_NODE_FLAGS, 'bench/handwritten-server.mjs'], databaseUrl, port, env: {}, waitMs, readyPath: '/partners/0', readyStatus: 404 });
}

async function startProcess({ root, args, databaseUrl, port, env, waitMs, readyPath, readyStatus = 200 }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...SERVICE_ENV, ...env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: env.LOG_LEVEL ?? 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = {
    pid: child.pid,
    baseUrl,
    exited,
    stderrTail: () => stderr.trim(),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it answered: ${server.stderrTail().slice(-1500)}`);
    try {
      const r = await fetch(`${baseUrl}${readyPath}`, { signal: AbortSignal.timeout(5000) });
      if (r.status === readyStatus) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > waitMs) {
      await server.stop();
      throw new Error(`the server did not answer ${readyPath} within ${waitMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.startMs = performance.now() - started;
  return server;
}

/** Reads VmRSS and VmHWM (bytes) of a process from /proc; null when it is gone. */
export function readMemory(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
      return m ? Number(m[1]) * 1024 : 0;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * Resident memory of a process's WebAssembly memories (embedded PGlite). V8 reserves a memory's
 * whole address range and makes the used part readable and writable: the memory is the run of
 * read-write mappings that ends where an inaccessible guard of several GiB begins. Only the pages
 * used count. 0 when the process has none or is gone.
 */
export function readWasmResident(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return 0;
  }
  const maps = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const h = /^([0-9a-f]+)-([0-9a-f]+) (\S+) /.exec(line);
    if (h) {
      cur = { start: BigInt(`0x${h[1]}`), end: BigInt(`0x${h[2]}`), perms: h[3], rss: 0 };
      maps.push(cur);
      continue;
    }
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r && cur) cur.rss = Number(r[1]) * 1024;
  }
  const GUARD = 4n * 1024n ** 3n;
  let total = 0;
  for (let i = 1; i < maps.length; i++) {
    if (maps[i].perms !== '---p' || maps[i].end - maps[i].start < GUARD) continue;
    for (let j = i - 1; j >= 0 && maps[j].perms === 'rw-p' && maps[j].end === maps[j + 1].start; j--) total += maps[j].rss;
  }
  return total;
}

/** CPU time (user + system, in clock ticks) a process has used so far; null when it is gone. */
export function readCpuTicks(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Waits until a process is idle: below `busyShare` of one core over a 250 ms window, at most
 * maxMs. A load generator that stops leaves requests in flight that the server still works on;
 * the next measurement must not pay for them. Returns the ms waited.
 */
export async function waitIdle(pid, { maxMs = 30_000, busyShare = 0.05, ticksPerSecond = 100 } = {}) {
  const started = performance.now();
  let last = readCpuTicks(pid);
  while (last !== null && performance.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = readCpuTicks(pid);
    if (now === null) break;
    const share = (now - last) / ticksPerSecond / 0.25;
    last = now;
    if (share < busyShare) break;
  }
  return performance.now() - started;
}

/**
 * Starts a process's high-water mark (VmHWM) afresh: Linux does so on a 5 written to clear_refs.
 * False where that is not allowed; then only samples tell a phase's peak.
 */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples a process's resident memory every intervalMs until stopped. Keeps the peak overall
 * (VmHWM, the kernel's own high-water mark, backs it up) and per phase (set with phase(name)).
 * The high-water mark starts afresh with each phase, so a phase's peak is exact, even one that
 * lasts less than a sampling interval; `exactPhases` says whether the kernel allowed that.
 */
export function watchMemory(pid, intervalMs = 100, { wasm = false } = {}) {
  let peak = 0;
  let hwm = 0;
  let samples = 0;
  let current = null;
  let exactPhases = false;
  const phases = new Map();
  // With `wasm`, the largest resident WebAssembly memory seen in each phase too (a costlier read).
  const wasmPhases = new Map();
  const sample = () => {
    const m = readMemory(pid);
    if (!m) return;
    samples++;
    peak = Math.max(peak, m.rss);
    hwm = Math.max(hwm, m.hwm);
    if (current) phases.set(current, Math.max(phases.get(current) ?? 0, m.rss, exactPhases ? m.hwm : 0));
    if (current && wasm) wasmPhases.set(current, Math.max(wasmPhases.get(current) ?? 0, readWasmResident(pid)));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    phase(name) {
      sample();
      exactPhases = resetPeak(pid);
      current = name;
      sample();
    },
    phasePeak: (name) => phases.get(name) ?? 0,
    stop() {
      sample();
      clearInterval(timer);
      return { peak: Math.max(peak, hwm), sampledPeak: peak, hwm, samples, exactPhases, phases: Object.fromEntries(phases), wasmPhases: Object.fromEntries(wasmPhases) };
    },
  };
}

export const LOGIN = { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } };

/** Logs in with the demo administrator; returns the answer ({token, userId, ...}). */
export async function loginSession(baseUrl, body = LOGIN) {
  const r = await fetch(`${baseUrl}/api/v1/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`login answered ${r.status}: ${text.slice(0, 500)}`);
  const session = JSON.parse(text);
  if (!session.token) throw new Error(`login answered without a token: ${text.slice(0, 500)}`);
  return session;
}

/** Logs in with the demo administrator; returns the bearer token. */
export async function login(baseUrl, body = LOGIN) {
  return (await loginSession(baseUrl, body)).token;
}

/** GET with the token; parses JSON; throws with the body on a non-2xx answer. */
export async function getJson(baseUrl, path, token) {
  const r = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(60_000) });
  const text = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`GET ${path} answered ${r.status}: ${text.slice(0, 800)}`);
  return JSON.parse(text);
}

/** A request with the token and a JSON body; parses the answer; throws with the body on a non-2xx answer. */
export async function sendJson(baseUrl, token, method, path, body) {
  const r = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path} answered ${r.status}: ${text.slice(0, 800)}`);
  return JSON.parse(text);
}

/** POST a JSON body with the token (see sendJson). */
export const postJson = (baseUrl, path, token, body) => sendJson(baseUrl, token, 'POST', path, body);
