// Targets of the benchmark issue, their evaluation, the printed table and the JSON results.

const MB = 1024 * 1024;

/**
 * The targets, each checked against one figure of the results. `value` picks the figure (or
 * undefined when it was not measured), `ok` says whether it meets the target.
 */
export const TARGETS = [
  {
    id: 'listVsCeiling',
    scenario: 'list',
    text: 'list read >= 0.5x pgbench',
    value: (r) => r.scenarios.list?.ratio,
    ok: (v) => v >= 0.5,
    show: (v) => `${v.toFixed(2)}x`,
    why: (r) => {
      const tps = r.scenarios.list?.ceiling?.tps;
      const hw = r.handwritten?.list?.handwritten?.rps;
      if (!tps || !hw) return undefined;
      const below = hw / tps < 0.5 ? ', below the target too: on this machine the ceiling (PostgreSQL alone with 32 clients of its own) is out of reach of a server with a pool of 5 in front of it' : '';
      return `the hand-written server answered the same list at ${(hw / tps).toFixed(2)}x of that pgbench ceiling in this run (${Math.round(hw)} req/s against ${Math.round(tps)} tps)${below}`;
    },
  },
  {
    id: 'listVsHandwritten',
    scenario: null,
    text: 'list read >= 0.9x hand-written',
    value: (r) => r.handwritten?.list?.ratio,
    ok: (v) => v >= 0.9,
    show: (v) => `${v.toFixed(2)}x`,
    why: (r) => {
      const c = r.handwritten?.list?.statementMs;
      if (!c) return undefined;
      return `PostgreSQL alone runs Dictum's statements of a list read in ${c.dictum.toFixed(2)} ms against ${c.handwritten.toFixed(2)} ms for the hand-written server's (pgbench, one client; Dictum's page builds the full record: every value of the record, the identifiers of its lookups)`;
    },
  },
  { id: 'byIdVsHandwritten', scenario: null, text: 'read by id >= 0.9x hand-written', value: (r) => r.handwritten?.byId?.ratio, ok: (v) => v >= 0.9, show: (v) => `${v.toFixed(2)}x` },
  {
    id: 'rss',
    scenario: null,
    text: 'peak RSS, reads <= 150 MB',
    value: (r) => r.memory?.readsPeakMB,
    ok: (v) => v <= 150,
    show: (v) => `${v.toFixed(0)} MB`,
    why: (r) => {
      const hw = r.handwritten?.handwrittenPeakRssMB;
      return typeof hw === 'number' ? `the hand-written server, started with the same Node flags and allocator settings, peaked at ${hw.toFixed(0)} MB under the same reads` : undefined;
    },
  },
  {
    id: 'listScalingEstimated',
    scenario: null,
    text: 'list cost full/10k <= 1.5x',
    value: (r) => r.scaling?.costRatioEstimated,
    ok: (v) => v <= 1.5,
    show: (v) => `${v.toFixed(2)}x`,
    why: (r) => {
      const full = r.scaling?.fullEstimated;
      if (full?.rowCountKind !== 'exact') return undefined;
      return `the service gave no estimate at the full size: its ${fmtInt(full.rowCount)} matches are below the estimate's threshold (REST_COUNT_ESTIMATE_THRESHOLD), so both sizes were counted exactly after asking the planner; the comparison the target is set for is 1,000,000 against 10,000 partners (--rows 1000000), where the estimate is given`;
    },
  },
  { id: 'orderCompleteVsReplay', scenario: 'createCompleteOrder', text: '>= 0.5x pgbench replay', value: (r) => r.scenarios.createCompleteOrder?.ratio, ok: (v) => v >= 0.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'orderCompleteStatements', scenario: 'createCompleteOrder', text: '<= 30 statements', value: (r) => r.scenarios.createCompleteOrder?.statementsPerOrder, ok: (v) => v <= 30, show: (v) => String(v) },
  // The books scenarios, held like the order: to their pgbench replay and to the statement counts of test/http/documents/books-statement-count.test.ts.
  { id: 'allocationVsReplay', scenario: 'createCompleteAllocation', text: '>= 0.5x pgbench replay', value: (r) => r.scenarios.createCompleteAllocation?.ratio, ok: (v) => v >= 0.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'allocationStatements', scenario: 'createCompleteAllocation', text: '<= 29 statements', value: (r) => r.scenarios.createCompleteAllocation?.statementsPerRequest, ok: (v) => v <= 29, show: (v) => String(v) },
  { id: 'matchedInvoiceVsReplay', scenario: 'createCompleteMatchedInvoice', text: '>= 0.5x pgbench replay', value: (r) => r.scenarios.createCompleteMatchedInvoice?.ratio, ok: (v) => v >= 0.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'matchedInvoiceStatements', scenario: 'createCompleteMatchedInvoice', text: '<= 44 statements', value: (r) => r.scenarios.createCompleteMatchedInvoice?.statementsPerRequest, ok: (v) => v <= 44, show: (v) => String(v) },
  { id: 'noErrors', scenario: null, text: 'no failed requests', value: (r) => totalErrors(r), ok: (v) => v === 0, show: (v) => String(v) },
];

/** The memory phase of a scenario's warm-up. */
export const warmupPhase = (key) => `${key} warm-up`;

/**
 * The peak RSS under the reads, the load the memory target speaks of: the read scenarios, their
 * warm-ups and the hand-written comparison (Dictum's rounds of it). {bytes, phase}, or null when
 * no read ran. Writes, batches and logins set the whole run's peak, printed beside it.
 */
export function readsPeak(phases, readKeys) {
  const names = new Set([...readKeys, ...readKeys.map(warmupPhase), 'hand-written']);
  let best = null;
  for (const [phase, bytes] of Object.entries(phases ?? {})) {
    if (names.has(phase) && bytes > (best?.bytes ?? 0)) best = { bytes, phase };
  }
  return best;
}

/** Figures shown beside the targets for information only (absolute figures depend on the machine). */
export const INFO = [
  { id: 'listScaling', text: 'list cost full/10k, exact count', value: (r) => r.scaling?.costRatio, show: (v) => `${v.toFixed(2)}x` },
];

export function totalErrors(r) {
  const list = Object.values(r.scenarios ?? {});
  if (!list.length) return undefined;
  const hw = Object.values(r.handwritten ?? {}).reduce((n, h) => n + (h?.dictum?.errors ?? 0) + (h?.handwritten?.errors ?? 0), 0);
  return list.reduce((n, s) => n + (s.errors ?? 0) + (s.skipped ? 1 : 0), 0) + (r.scaling?.small?.errors ?? 0) + (r.scaling?.smallEstimated?.errors ?? 0) + hw;
}

/** Evaluates every target: [{id, text, value, shown, met, why?}] (met null when not measured; why: what this run measured that explains a miss). */
export function evaluateTargets(results) {
  return TARGETS.map((t) => {
    const v = t.value(results);
    const measured = typeof v === 'number' && Number.isFinite(v);
    const met = measured ? t.ok(v) : null;
    const why = met === false ? t.why?.(results) : undefined;
    return { id: t.id, scenario: t.scenario, target: t.text, value: measured ? round(v) : null, shown: measured ? t.show(v) : 'not measured', met, ...(why ? { why } : {}) };
  });
}

export function round(v, digits = 2) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

const fmtInt = (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-');
const fmtMs = (v) => (typeof v === 'number' && Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) : '-');
const fmtRatio = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(2)}x` : '-');
const verdict = (met) => (met === true ? 'yes' : met === false ? 'NO' : '-');

/** Lays rows of cells out as a table; numeric-looking cells are right-aligned. */
export function layout(rows) {
  const widths = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, String(c).length)));
  const numeric = (c) => /^[-+]?[\d,.]+(x| ms| MB|\/s)?$|^-$/.test(String(c));
  return rows
    .map((r, ri) =>
      r
        .map((c, i) => {
          const s = String(c);
          return ri > 0 && i > 0 && numeric(s) ? s.padStart(widths[i]) : s.padEnd(widths[i]);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * Cost at the small size over cost at the full size of each statement that pgbench ran alone at
 * both: [{label, ratio}] (1.0 = flat), from the byStatement lists of the two list ceilings.
 */
export function statementCostRatios(small = [], full = []) {
  const fullByLabel = new Map(full.map((f) => [f.label, f]));
  return small.filter((s) => s.tps > 0 && fullByLabel.get(s.label)?.tps > 0).map((s) => ({ label: s.label, ratio: round(s.tps / fullByLabel.get(s.label).tps) }));
}

/** The one table of figures: scenarios with their ceilings and targets, then memory and scaling. */
export function formatTable(results) {
  const targets = results.targets ?? evaluateTargets(results);
  const byScenario = new Map();
  for (const t of targets) if (t.scenario) byScenario.set(t.scenario, [...(byScenario.get(t.scenario) ?? []), t]);
  const head = ['scenario', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'pgbench tps', 'pgb p50', 'ratio', 'target', 'value', 'met'];
  const rows = [head];
  for (const [key, s] of Object.entries(results.scenarios ?? {})) {
    const ts = byScenario.get(key) ?? [];
    const c = s.ceiling;
    const first = ts[0];
    const errors = s.skipped ? 'FAILED' : fmtInt(s.errors);
    const title = typeof s.rowCount === 'number' ? `${s.title}, ${fmtInt(s.rowCount)} rows` : s.title;
    rows.push([title, s.connections ?? '', fmtInt(s.rps), fmtMs(s.p50Ms), fmtMs(s.p99Ms), errors, c ? fmtInt(c.tps) : '', c ? fmtMs(c.p50Ms) : '', c ? fmtRatio(s.ratio) : '', first?.target ?? '', first?.shown ?? '', first ? verdict(first.met) : '']);
    for (const t of ts.slice(1)) rows.push(['', '', '', '', '', '', '', '', '', t.target, t.shown, verdict(t.met)]);
  }
  const sc = results.scaling;
  if (sc?.small && sc?.full) {
    const matches = (x) => (typeof x?.rowCount === 'number' ? `, ${fmtInt(x.rowCount)} rows` : '');
    rows.push([`list read at ${fmtInt(sc.smallRows)} partners${matches(sc.small)}`, sc.small.connections, fmtInt(sc.small.rps), fmtMs(sc.small.p50Ms), fmtMs(sc.small.p99Ms), fmtInt(sc.small.errors), sc.small.ceiling ? fmtInt(sc.small.ceiling.tps) : '', sc.small.ceiling ? fmtMs(sc.small.ceiling.p50Ms) : '', sc.small.ratio ? fmtRatio(sc.small.ratio) : '', '', '', '']);
  }
  const hw = results.handwritten;
  for (const key of ['list', 'byId']) {
    const h = hw?.[key];
    if (!h) continue;
    rows.push([`${h.title}: Dictum, alternated`, h.connections, fmtInt(h.dictum.rps), fmtMs(h.dictum.p50Ms), fmtMs(h.dictum.p99Ms), fmtInt(h.dictum.errors), '', '', '', '', '', '']);
    rows.push([`${h.title}: hand-written Fastify + pg`, h.connections, fmtInt(h.handwritten.rps), fmtMs(h.handwritten.p50Ms), fmtMs(h.handwritten.p99Ms), fmtInt(h.handwritten.errors), '', '', '', '', '', '']);
  }
  if (sc?.smallEstimated) {
    const e = sc.smallEstimated;
    rows.push([`list read at ${fmtInt(sc.smallRows)} partners, estimated count`, e.connections, fmtInt(e.rps), fmtMs(e.p50Ms), fmtMs(e.p99Ms), fmtInt(e.errors), '', '', '', '', '', '']);
  }
  const scalingLabel = (mode) => (sc?.fullRows ? `list cost, ${fmtInt(sc.fullRows)} vs ${fmtInt(sc.smallRows)} partners, ${mode} count` : `list cost, full vs 10k partners, ${mode} count`);
  const m = results.memory;
  for (const t of targets.filter((x) => !x.scenario)) {
    const label = { rss: `server memory under the reads (peak RSS${m?.readsPeakPhase ? `, phase ${m.readsPeakPhase}` : ''})`, listScalingEstimated: scalingLabel('estimated'), listVsHandwritten: 'list read, Dictum / hand-written', byIdVsHandwritten: 'read by id, Dictum / hand-written' }[t.id] ?? 'all scenarios';
    rows.push([label, '', '', '', '', '', '', '', '', t.target, t.shown, verdict(t.met)]);
  }
  if (m?.peakMB) rows.push([`server memory, whole run (peak in phase ${m.peakPhase ?? '?'})`, '', '', '', '', '', '', '', '', 'information', `${m.peakMB.toFixed(0)} MB`, '']);
  for (const i of INFO) {
    const v = i.value(results);
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const pgb = i.id === 'listScaling' && sc?.ceilingCostRatio ? ` (pgbench ${fmtRatio(sc.ceilingCostRatio)})` : '';
    rows.push([`${scalingLabel('exact')}${pgb}`, '', '', '', '', '', '', '', '', 'information', i.show(v), '']);
    if (i.id === 'listScaling' && sc?.statementCostRatios?.length) {
      rows.push([`  pgbench, each statement alone: ${sc.statementCostRatios.map((x) => `${x.label} ${fmtRatio(x.ratio)}`).join(', ')}`, '', '', '', '', '', '', '', '', '', '', '']);
    }
  }
  return layout(rows);
}

/** Loud lines for scenarios that failed requests. */
export function errorLines(results) {
  const out = [];
  for (const [key, s] of Object.entries(results.scenarios ?? {})) {
    if (s.skipped) out.push(`!! ${key}: not run: ${s.skipped}`);
    else if (s.errors) out.push(`!! ${key}: ${s.errors} failed requests (${s.non2xx} non-2xx, ${s.socketErrors} socket errors)${s.sampleError ? `; e.g. ${s.sampleError}` : ''}`);
  }
  if (results.scaling?.small?.errors) out.push(`!! list read at ${results.scaling.smallRows} rows: ${results.scaling.small.errors} failed requests`);
  return out;
}
