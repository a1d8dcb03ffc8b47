// The pure parts of the fault suite and the soak run: percentiles, the soak's minutes, its memory
// target, and the text tables both print. The scripts (faults.mjs, soak.mjs) import the compiled
// module from dist/, so that test/unit/faults checks exactly what they run.

/** The p-th percentile (0-100) of numbers by the nearest-rank method; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** A table of text: columns padded to their widest cell, numbers right-aligned, a rule under the header. */
export function formatTable(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const cells = rows.map((r) => header.map((_, i) => (r[i] === null || r[i] === undefined ? '-' : String(r[i]))));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((x, i) => (numeric[i] ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** The same table in Markdown, for docs/reliability.md. */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '-' : String(v).replace(/\|/g, '\\|'));
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${header.map((_, i) => cell(r[i])).join(' | ')} |`)].join('\n');
}

/**
 * One request as the soak records it: when it ended (ms since the start), how long it took, whether
 * it failed. A check that failed on answers that were all 2xx (an order left Drafted, a file read
 * back different) is a sample with `ms` null: an error, but no request of its own.
 */
export interface RequestSample {
  atMs: number;
  ms: number | null;
  error: boolean;
}

/** One minute of a soak run: requests, errors, latency percentiles and the servers' resident memory. */
export interface SoakMinute {
  minute: number;
  requests: number;
  errors: number;
  p50: number | null;
  p99: number | null;
  /** Resident memory (MB) of each server process, the mean of the minute's samples. */
  rssMb: number[];
}

/** Groups requests and memory samples ({atMs, rss: bytes per server}) into minutes 1..n. */
export function soakMinutes(requests: readonly RequestSample[], memory: readonly { atMs: number; rss: readonly number[] }[], minutes: number): SoakMinute[] {
  const out: SoakMinute[] = [];
  for (let m = 1; m <= minutes; m++) {
    const inMinute = (at: number) => at >= (m - 1) * 60_000 && at < m * 60_000;
    const reqs = requests.filter((r) => inMinute(r.atMs));
    const mem = memory.filter((s) => inMinute(s.atMs));
    const servers = Math.max(0, ...mem.map((s) => s.rss.length));
    const rssMb = Array.from({ length: servers }, (_, i) => {
      const xs = mem.map((s) => s.rss[i]).filter((x): x is number => typeof x === 'number' && x > 0);
      return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length / 1024 / 1024) * 10) / 10 : 0;
    });
    const ms = reqs.map((r) => r.ms).filter((x): x is number => x !== null);
    const round = (x: number | null) => (x === null ? null : Math.round(x));
    out.push({ minute: m, requests: ms.length, errors: reqs.filter((r) => r.error).length, p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), rssMb });
  }
  return out;
}

/**
 * The soak's memory target: every server's resident memory in each of the last ten minutes within
 * `tolerance` (0.1 = 10%) of its tenth minute. Runs shorter than 11 minutes compare against the
 * middle minute instead (said in `reference`). Returns the largest drift seen and whether it is met.
 */
export function memoryTarget(minutes: readonly SoakMinute[], tolerance = 0.1): { reference: number; worstDrift: number; met: boolean } {
  if (minutes.length < 2) return { reference: minutes.length, worstDrift: 0, met: true };
  const reference = minutes.length >= 11 ? 10 : Math.ceil(minutes.length / 2);
  const ref = minutes[reference - 1]!;
  const last = minutes.slice(Math.max(reference, minutes.length - 10));
  let worst = 0;
  for (const m of last) {
    m.rssMb.forEach((mb, i) => {
      const base = ref.rssMb[i];
      if (base && mb) worst = Math.max(worst, (mb - base) / base);
    });
  }
  return { reference, worstDrift: Math.round(worst * 1000) / 1000, met: worst <= tolerance };
}

/** The per-minute table of a soak phase. */
export function soakTable(minutes: readonly SoakMinute[], markdown = false): string {
  const servers = Math.max(0, ...minutes.map((m) => m.rssMb.length));
  const header = ['minute', 'requests', 'errors', 'p50 ms', 'p99 ms', ...Array.from({ length: servers }, (_, i) => (servers === 1 ? 'RSS MB' : `RSS MB #${i + 1}`))];
  const rows = minutes.map((m) => [m.minute, m.requests, m.errors, m.p50, m.p99, ...Array.from({ length: servers }, (_, i) => m.rssMb[i] ?? null)]);
  return markdown ? markdownTable(header, rows) : formatTable(header, rows);
}

/** How a request ended for its client: answered 2xx, answered otherwise, or no answer (the instance was killed). */
export type Answer = 'ok' | 'refused' | 'cut';
/** What the database holds of the request's work after the restart. */
export type Written = 'all' | 'none' | 'partial' | 'doubled';

/**
 * The outcome of one kill: the client's answer against what was written. All or nothing, once:
 * an answered success that is all there, a cut request that is all or nothing, a refusal that
 * wrote nothing. `retried` says the work was finished by a retry (the client's, or a takeover of
 * the killed instance's job or delivery). Anything else is a violation, named.
 */
export function classifyOutcome(answer: Answer, written: Written, retried = false): { outcome: string; violation: string | null } {
  if (written === 'partial') return { outcome: 'partial write', violation: 'partial write' };
  if (written === 'doubled') return { outcome: 'done twice', violation: 'done twice' };
  const suffix = retried ? ', retried to success' : '';
  if (answer === 'ok') return written === 'all' ? { outcome: `committed${suffix}`, violation: null } : { outcome: 'lost', violation: 'lost: answered success, nothing written' };
  if (answer === 'refused') return written === 'none' ? { outcome: `refused${suffix}`, violation: null } : { outcome: 'written though refused', violation: 'written though refused' };
  return { outcome: written === 'all' ? `committed, answer lost${suffix}` : `rolled back${suffix}`, violation: null };
}

/** A scenario's result as the table shows it. */
export interface ScenarioResult {
  scenario: string;
  kills: number;
  outcomes: string[];
  violations: string[];
  /** New violations of the books' invariants after the scenario. */
  books: number;
}

/** Outcomes counted by kind, most frequent first: "rolled back 3, committed 2". */
export function countOutcomes(outcomes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([o, n]) => `${o} ${n}`).join(', ');
}

/** The fault suite's table: scenario, kills, outcomes, violations (its own checks plus the books'). */
export function faultTable(results: readonly ScenarioResult[], markdown = false): string {
  const header = ['scenario', 'kills', 'outcomes', 'violations'];
  const rows = results.map((r) => [r.scenario, r.kills, countOutcomes(r.outcomes) || '-', r.violations.length + r.books]);
  return markdown ? markdownTable(header, rows) : formatTable(header, rows);
}

/**
 * Violations of the books present after a run and not before it. A violation is compared by its
 * check, its subject and its difference (actual less expected), not by its two numbers: the demo's
 * opening stock has no stock transactions, so on hand and the transactions' sum differ from the
 * start, and a shipment moves both sides by the same quantity without making anything new.
 */
export function newViolations<V extends { check: string; subject: unknown; expected: string; actual: string }>(before: readonly V[], after: readonly V[]): V[] {
  const difference = (v: V) => {
    const d = Number(v.actual) - Number(v.expected);
    return Number.isFinite(d) ? Math.round(d * 1e6) / 1e6 : `${v.expected} / ${v.actual}`;
  };
  const key = (v: V) => JSON.stringify([v.check, v.subject, difference(v)]);
  const seen = new Set(before.map(key));
  return after.filter((v) => !seen.has(key(v)));
}
