// A short reading of a V8 CPU profile (node --cpu-prof): where the server's own time went,
// by function and by area (service code, fastify, pg, JSON, garbage collection, idle).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Self time (ms) per profile node, from the samples and their time deltas; with `window`
 * ({from, to}, µs of the monotonic clock, as process.hrtime and the profile's startTime), only
 * the samples taken within it.
 */
function selfTimes(profile, window) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  let at = profile.startTime ?? 0;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (window && (at < window.from || at > window.to)) continue;
    const dt = (timeDeltas[i + 1] ?? timeDeltas[i] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  return self;
}

/** The area a function belongs to, from its script URL and name. */
export function areaOf(callFrame) {
  const url = callFrame.url ?? '';
  const fn = callFrame.functionName ?? '';
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8/native (program)';
  if (url.includes('/node_modules/')) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return m ? `npm: ${m[1]}` : 'npm';
  }
  if (url.includes('/dist/src/')) {
    const m = /\/dist\/src\/([^/]+)/.exec(url);
    return `service: ${m ? m[1].replace(/\.js$/, '') : 'src'}`;
  }
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  if (!url) return fn ? `native: ${fn}` : 'native';
  return 'other';
}

/**
 * Summary of one .cpuprofile: sampled and busy ms (idle excluded), top areas and top functions
 * by self time, each with its share of the busy time.
 */
export function summarizeProfile(profile, top = 15, window = undefined) {
  const self = selfTimes(profile, window);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map();
  const fns = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    total += ms;
    const cf = node.callFrame;
    const area = areaOf(cf);
    if (area === 'idle') {
      idle += ms;
      continue;
    }
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const file = cf.url ? cf.url.replace(/^file:\/\//, '').split('/').slice(-2).join('/') : '';
    const key = `${cf.functionName || '(anonymous)'} ${file ? `${file}:${cf.lineNumber + 1}` : ''}`.trim();
    fns.set(key, (fns.get(key) ?? 0) + ms);
  }
  const busy = total - idle;
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms: Math.round(ms), share: busy ? ms / busy : 0 }));
  return { totalMs: Math.round(total), busyMs: Math.round(busy), areas: sorted(areas), functions: sorted(fns) };
}

/** Reads every .cpuprofile in a directory and summarizes the newest (within `window`, see selfTimes). */
export function summarizeNewestProfile(dir, window = undefined) {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (!files.length) return null;
  const newest = files.map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  return { file: newest, ...summarizeProfile(JSON.parse(fs.readFileSync(newest, 'utf8')), 15, window) };
}

export function formatProfile(summary) {
  const pct = (s) => `${(s * 100).toFixed(1).padStart(5)}%`;
  const lines = [`CPU profile ${summary.file}: ${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(summary.busyMs / 1000).toFixed(1)} s busy; shares of the busy time`, '  by area (self time):'];
  for (const a of summary.areas) lines.push(`    ${pct(a.share)}  ${a.name}`);
  lines.push('  top functions (self time):');
  for (const f of summary.functions) lines.push(`    ${pct(f.share)}  ${f.name}`);
  return lines.join('\n');
}
