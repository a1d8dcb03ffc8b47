// Startup benchmark: milliseconds from the command to the first 200 of GET /api/v1/health.
// Measures what a user types, `npm start` (its prestart check included), on a first start (empty
// data directory) and on restarts (existing data), the built entry point alone for comparison, and
// the floor of such a start on this machine (Node's own start, PGlite alone opening the same data).
// Usage: node bench/startup.mjs [--keep-cache] [--runs N]
// Without --keep-cache the first start also builds the seeded snapshot (a cold machine).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keepCache = process.argv.includes('--keep-cache');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 5) : 5;
const TARGET_MS = 1000;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds (user + system, threads included) used so far by the live processes of a
 * process group: on a busy machine the wall time mostly measures the neighbours, the CPU time
 * what the start itself costs. Linux only (null elsewhere).
 */
function groupCpuMs(pgid) {
  let ticks = 0;
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        // Fields after the name: state ppid pgrp ... utime (12th) stime (13th).
        if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return null;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Starts a command in a process group of its own and times it until health answers 200: wall and CPU ms. */
async function timeStart(command, args, dataDir, cacheDir, port, env = process.env) {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DICTUM_DATA_DIR: dataDir, DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        if (r.status === 200) return { wall: performance.now() - started, cpu: groupCpuMs(child.pid) };
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 180000) throw new Error('server did not answer within 180 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    // npm starts the server as a child: stop the whole group, then wait until the port is free.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
    for (let i = 0; i < 400; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        await new Promise((r) => setTimeout(r, 10));
      } catch {
        break;
      }
    }
  }
}

/** Wall ms from spawning `node args` until it writes "ready" (or exits, for `node -e 0`). */
async function timeProcess(args, env = process.env) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let ready = null;
  child.stdout.on('data', (d) => {
    if (ready === null && String(d).includes('ready')) ready = performance.now() - started;
  });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return ready ?? performance.now() - started;
}

/**
 * The environment without NODE_EXTRA_CA_CERTS, or null when it is not set. Node 20 reads and parses
 * that file when it starts (Node 24 when TLS first needs it): a machine that sets it pays for it
 * in every Node process, npm's and the service's, before any of their own code runs.
 */
function withoutExtraCaCerts() {
  if (!process.env.NODE_EXTRA_CA_CERTS) return null;
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bench-'));
const dataDir = path.join(work, 'data');
const cacheDir = keepCache ? path.join(root, '.cache') : path.join(work, 'cache');
const port = 18000 + Math.floor(Math.random() * 1000);
try {
  const first = await timeStart(npm, ['start'], dataDir, cacheDir, port);
  // Alternated, so that a busy moment of the machine weighs on both alike.
  const viaNpm = [];
  const viaNode = [];
  // What no service on embedded PGlite started this way can go below on this machine: Node's own
  // start, and PGlite opening the same data and answering a first statement.
  const nodeAlone = [];
  const pgliteAlone = [];
  const noCaEnv = withoutExtraCaCerts();
  const viaNpmNoCa = [];
  const nodeAloneNoCa = [];
  for (let i = 0; i < runs; i++) {
    viaNpm.push(await timeStart(npm, ['start'], dataDir, cacheDir, port));
    viaNode.push(await timeStart(process.execPath, [path.join(root, 'dist/src/main.js'), 'serve'], dataDir, cacheDir, port));
    nodeAlone.push(await timeProcess(['-e', '0']));
    pgliteAlone.push(await timeProcess([path.join(root, 'bench/lib/pglite-alone.mjs'), dataDir]));
    if (noCaEnv) {
      viaNpmNoCa.push(await timeStart(npm, ['start'], dataDir, cacheDir, port, noCaEnv));
      nodeAloneNoCa.push(await timeProcess(['-e', '0'], noCaEnv));
    }
  }
  const wall = (xs) => xs.map((x) => x.wall);
  const cpu = (xs) => (xs.every((x) => x.cpu !== null) ? xs.map((x) => x.cpu) : null);
  const restart = median(wall(viaNpm));
  const show = (xs) => (xs ? median(xs).toFixed(0) : '-');
  const list = (xs) => (xs ? xs.map((x) => x.toFixed(0)).join(' ') : '-');
  const rows = [
    ['scenario', 'wall ms', 'CPU ms'],
    [keepCache ? '`npm start`, first start (empty data dir, cached snapshot)' : '`npm start`, first start (empty data dir, no snapshot)', first.wall.toFixed(0), first.cpu === null ? '-' : first.cpu.toFixed(0)],
    [`\`npm start\`, restart on existing data (median of ${runs})`, restart.toFixed(0), show(cpu(viaNpm))],
    [`  runs`, list(wall(viaNpm)), list(cpu(viaNpm))],
    [`\`node dist/src/main.js serve\`, restart (median of ${runs})`, median(wall(viaNode)).toFixed(0), show(cpu(viaNode))],
    [`  runs`, list(wall(viaNode)), list(cpu(viaNode))],
    [`Node alone, \`node -e 0\` (median of ${runs})`, median(nodeAlone).toFixed(0), ''],
    [`PGlite alone: open the same data, first answer (median of ${runs})`, median(pgliteAlone).toFixed(0), ''],
    [`  runs`, list(pgliteAlone), ''],
    ...(noCaEnv
      ? [
          [`\`npm start\`, restart, without NODE_EXTRA_CA_CERTS (median of ${runs})`, median(wall(viaNpmNoCa)).toFixed(0), show(cpu(viaNpmNoCa))],
          [`  runs`, list(wall(viaNpmNoCa)), list(cpu(viaNpmNoCa))],
          [`Node alone, without NODE_EXTRA_CA_CERTS (median of ${runs})`, median(nodeAloneNoCa).toFixed(0), ''],
        ]
      : []),
  ];
  for (const [a, b, c] of rows) console.log(`${a.padEnd(64)} ${b.padStart(8)}  ${c.padStart(8)}`);
  console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (1, 5, 15 min)`);
  console.log('CPU ms: user + system time of the started process group (npm, Node and its threads) until the first 200');
  console.log(`target: a restart through \`npm start\` within ${TARGET_MS} ms: ${restart <= TARGET_MS ? 'met' : 'NOT met'}`);
  const floor = median(pgliteAlone);
  console.log(`  of it, PGlite alone takes ${floor.toFixed(0)} ms on this machine (${((100 * floor) / restart).toFixed(0)}% of the restart); the rest is npm, the service's code and its first statements`);
  if (noCaEnv && process.version.startsWith('v20.')) {
    const perProcess = median(nodeAlone) - median(nodeAloneNoCa);
    console.log(
      `  this machine sets NODE_EXTRA_CA_CERTS (${process.env.NODE_EXTRA_CA_CERTS}), which Node 20 reads as it starts: about ${perProcess.toFixed(0)} ms per Node process, two of them in \`npm start\`; without it the restart took ${median(wall(viaNpmNoCa)).toFixed(0)} ms`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
