// The printed table of the N-instance benchmark (bench/lib/instances.mjs).
import { layout } from './report.mjs';

const int = (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-');
const cores = (v) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '-');
const ratio = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(2)}x` : '-');
const ms = (v) => (typeof v === 'number' && Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '-');
/** Backends per sample running / waiting on a lock / waiting otherwise / idle in a transaction (pg-waits.mjs). */
const backends = (b) => (b ? [b.running, b.lock, b.otherWait, b.inTransaction].map((v) => v.toFixed(1)).join('/') : '-');
const share = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${Math.round(v * 100)}%` : '-');

/**
 * CPU the run's own processes did not use, in cores: the machine's busy share times its cores, less
 * Dictum, PostgreSQL's backends, the balancer and wrk (other users of a shared machine, PostgreSQL's
 * background processes, the kernel's work not charged to a process). Null when not measured.
 */
export function otherCpu(cpu, cores) {
  if (typeof cpu.machineBusy !== 'number' || !cores) return null;
  const ours = [cpu.dictum, cpu.postgres, cpu.balancer, cpu.loadGenerator].reduce((a, b) => a + (typeof b === 'number' ? b : 0), 0);
  return Math.max(0, cpu.machineBusy * cores - ours);
}

/** One row per scenario and instance count; CPU columns in cores (CPU seconds per second). */
export function formatInstancesTable(out) {
  const rows = [['scenario', 'N', 'req/s', 'each round', 'vs N=1', 'p50 ms', 'errors', 'Dictum CPU', 'PostgreSQL CPU', 'balancer CPU', 'wrk CPU', 'other CPU', 'machine busy', 'PG run/lock/wait/tx']];
  for (const s of Object.values(out.scenarios)) {
    const ns = Object.keys(s.runs).map(Number).sort((a, b) => a - b);
    ns.forEach((n, i) => {
      const r = s.runs[n];
      rows.push([i === 0 ? `${s.title} (${s.connections} conn)` : '', n, int(r.rps), (r.roundsRps ?? []).map(int).join(' / '), ratio(r.ratio), ms(r.p50Ms), int(r.errors), cores(r.cpu.dictum), cores(r.cpu.postgres), cores(r.cpu.balancer), cores(r.cpu.loadGenerator), cores(otherCpu(r.cpu, out.cpus)), share(r.cpu.machineBusy), backends(r.backends)]);
    });
  }
  return layout(rows);
}
