// Targets of the benchmark issue, their evaluation, the printed table and the JSON results.

const MB = 1024 * 1024;

/**
 * The targets, each checked against one figure of the results. `value` picks the figure (or
 * undefined when it was not measured), `ok` says whether it meets the target.
 */
export const TARGETS = [
  { id: 'listVsCeiling', scenario: 'list', text: 'list read >= 0.5x pgbench', value: (r) => r.scenarios.list?.ratio, ok: (v) => v >= 0.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'byIdP99', scenario: 'byId', text: 'p99 < 10 ms', value: (r) => r.scenarios.byId?.p99Ms, ok: (v) => v < 10, show: (v) => `${v.toFixed(1)} ms` },
  { id: 'byIdRps', scenario: 'byId', text: '>= 3,000 req/s', value: (r) => r.scenarios.byId?.rps, ok: (v) => v >= 3000, show: (v) => `${Math.round(v).toLocaleString('en-US')}/s` },
  { id: 'byUuidP99', scenario: 'byUuid', text: 'p99 < 10 ms', value: (r) => r.scenarios.byUuid?.p99Ms, ok: (v) => v < 10, show: (v) => `${v.toFixed(1)} ms` },
  { id: 'byUuidRps', scenario: 'byUuid', text: '>= 3,000 req/s', value: (r) => r.scenarios.byUuid?.rps, ok: (v) => v >= 3000, show: (v) => `${Math.round(v).toLocaleString('en-US')}/s` },
  { id: 'orderRps', scenario: 'createOrder', text: '>= 200 orders/s', value: (r) => r.scenarios.createOrder?.rps, ok: (v) => v >= 200, show: (v) => `${Math.round(v).toLocaleString('en-US')}/s` },
  { id: 'orderCompleteVsReplay', scenario: 'createCompleteOrder', text: '>= 0.5x pgbench replay', value: (r) => r.scenarios.createCompleteOrder?.ratio, ok: (v) => v >= 0.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'orderCompleteStatements', scenario: 'createCompleteOrder', text: '<= 30 statements', value: (r) => r.scenarios.createCompleteOrder?.statementsPerOrder, ok: (v) => v <= 30, show: (v) => String(v) },
  { id: 'batchLatency', scenario: 'batchSerial', text: 'p50 < 300 ms', value: (r) => r.scenarios.batchSerial?.p50Ms, ok: (v) => v < 300, show: (v) => `${v.toFixed(0)} ms` },
  { id: 'rss', scenario: null, text: 'peak RSS < 200 MB', value: (r) => (r.memory?.peakBytes ? r.memory.peakBytes / MB : undefined), ok: (v) => v < 200, show: (v) => `${v.toFixed(0)} MB` },
  { id: 'listScaling', scenario: null, text: 'list cost full/10k <= 1.5x', value: (r) => r.scaling?.costRatio, ok: (v) => v <= 1.5, show: (v) => `${v.toFixed(2)}x` },
  { id: 'noErrors', scenario: null, text: 'no failed requests', value: (r) => totalErrors(r), ok: (v) => v === 0, show: (v) => String(v) },
];

export function totalErrors(r) {
  const list = Object.values(r.scenarios ?? {});
  if (!list.length) return undefined;
  return list.reduce((n, s) => n + (s.errors ?? 0) + (s.skipped ? 1 : 0), 0) + (r.scaling?.small?.errors ?? 0);
}

/** Evaluates every target: [{id, text, value, shown, met}] (met null when not measured). */
export function evaluateTargets(results) {
  return TARGETS.map((t) => {
    const v = t.value(results);
    const measured = typeof v === 'number' && Number.isFinite(v);
    return { id: t.id, scenario: t.scenario, target: t.text, value: measured ? round(v) : null, shown: measured ? t.show(v) : 'not measured', met: measured ? t.ok(v) : null };
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
  for (const t of targets.filter((x) => !x.scenario)) {
    const pgb = sc?.ceilingCostRatio ? ` (pgbench ${fmtRatio(sc.ceilingCostRatio)})` : '';
    const label = t.id === 'rss' ? 'server memory (peak RSS)' : t.id === 'listScaling' ? (sc?.fullRows ? `list cost, ${fmtInt(sc.fullRows)} vs ${fmtInt(sc.smallRows)} partners${pgb}` : 'list cost, full vs 10k partners') : 'all scenarios';
    rows.push([label, '', '', '', '', '', '', '', '', t.target, t.shown, verdict(t.met)]);
    if (t.id === 'listScaling' && sc?.statementCostRatios?.length) {
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
