// CPU time of the processes of the N-instance benchmark, read from /proc: the Dictum instances,
// the balancer, PostgreSQL's backends of the benchmark database, the load generator (reaped
// children of this process) and the machine as a whole.
import fs from 'node:fs';
import { readCpuTicks } from './server.mjs';

export const TICKS_PER_SECOND = 100;

/** utime+stime and cutime+cstime (reaped children) of a process, in ticks; null when it is gone. */
export function readOwnAndChildrenTicks(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** The machine's CPU ticks from /proc/stat: {busy, total} summed over all cores. */
export function readMachineTicks(statText = fs.readFileSync('/proc/stat', 'utf8')) {
  const line = statText.split('\n').find((l) => l.startsWith('cpu '));
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = v[3] + (v[4] ?? 0);
  return { busy: total - idle, total };
}

/** Sum of the CPU ticks of `pids` (processes gone count 0). */
export function sumTicks(pids) {
  let n = 0;
  for (const pid of pids) n += readCpuTicks(pid) ?? 0;
  return n;
}

/**
 * A CPU meter over a set of process groups. `groups` maps a name to a function returning the pids
 * of that group at the moment (read at start and at stop; a pid seen only at one end counts from
 * 0 or up to where it was last read). stop() answers each group's CPU in cores (CPU seconds per
 * wall second), the load generator's (this process's reaped children) and the machine's busy share.
 */
export async function startCpuMeter(groups) {
  const startedAt = performance.now();
  const first = {};
  for (const [name, pidsOf] of Object.entries(groups)) {
    first[name] = new Map();
    for (const pid of await pidsOf()) first[name].set(pid, readCpuTicks(pid) ?? 0);
  }
  const self0 = readOwnAndChildrenTicks(process.pid);
  const machine0 = readMachineTicks();
  return {
    async stop() {
      const seconds = (performance.now() - startedAt) / 1000;
      const out = { seconds };
      for (const [name, pidsOf] of Object.entries(groups)) {
        const pids = new Set([...first[name].keys(), ...(await pidsOf())]);
        let ticks = 0;
        for (const pid of pids) {
          const now = readCpuTicks(pid);
          const before = first[name].get(pid) ?? 0;
          if (now !== null) ticks += Math.max(0, now - before);
        }
        out[name] = ticks / TICKS_PER_SECOND / seconds;
      }
      const self1 = readOwnAndChildrenTicks(process.pid);
      out.loadGenerator = self0 && self1 ? (self1.children - self0.children) / TICKS_PER_SECOND / seconds : null;
      const machine1 = readMachineTicks();
      const total = machine1.total - machine0.total;
      out.machineBusy = total > 0 ? (machine1.busy - machine0.busy) / total : null;
      return out;
    },
  };
}
