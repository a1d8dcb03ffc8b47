/**
 * Statistics for comparing answer times of two kinds of request sent in interleaved pairs: the
 * paired differences' trimmed mean with a bootstrap confidence interval (an equivalence test: the
 * whole interval must lie within a margin), and the Mann-Whitney U test of the two samples.
 */

/** A small seeded generator (mulberry32), so a bootstrap is reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mean of the values left after cutting `fraction` of them off each end (robust to a busy machine's outliers). */
export function trimmedMean(values: readonly number[], fraction = 0.25): number {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length * fraction);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((s, v) => s + v, 0) / kept.length;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Percentile bootstrap interval of the trimmed mean, at the given confidence. */
export function bootstrapInterval(values: readonly number[], seed: number, rounds = 2000, confidence = 0.95): [number, number] {
  const random = seededRandom(seed);
  const means: number[] = [];
  const sample = new Array<number>(values.length);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)]!;
    means.push(trimmedMean(sample));
  }
  means.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return [means[Math.floor(tail * rounds)]!, means[Math.ceil((1 - tail) * rounds) - 1]!];
}

/** Two-sided p-value of the Mann-Whitney U test (normal approximation with ties corrected). */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((s, x, i) => (x.g === 0 ? s + ranks[i]! : s), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = (Math.abs(u - (n1 * n2) / 2) - 0.5) / sd;
  return 2 * (1 - normalCdf(Math.max(0, z)));
}

/** Standard normal distribution function (Abramowitz and Stegun 7.1.26). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (z / Math.SQRT2));
  const erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-(z * z) / 2);
  return 0.5 * (1 + erf);
}

export interface Comparison {
  pairs: number;
  medianA: number;
  medianB: number;
  /** Trimmed mean of the paired differences a - b, in ms, and its 95% bootstrap interval. */
  difference: number;
  interval: [number, number];
  mannWhitneyP: number;
  /** The margin the interval had to stay within. */
  margin: number;
  indistinguishable: boolean;
}

/**
 * Whether two kinds of answer take the same time: the 95% interval of the paired differences'
 * trimmed mean lies within ±margin ms (margin: `floorMs` or `share` of the median, the larger).
 * The margin is below what a client resolves with a few hundred tries over a network, whose own
 * jitter is larger, and well below one password hash (the cost of the classic leak).
 */
export function compareTimes(a: readonly number[], b: readonly number[], seed: number, floorMs = 5, share = 0.1): Comparison {
  const diffs = a.map((v, i) => v - b[i]!);
  const interval = bootstrapInterval(diffs, seed);
  const margin = Math.max(floorMs, share * median([...a, ...b]));
  return {
    pairs: diffs.length,
    medianA: median(a),
    medianB: median(b),
    difference: trimmedMean(diffs),
    interval,
    mannWhitneyP: mannWhitneyP(a, b),
    margin,
    indistinguishable: interval[0] > -margin && interval[1] < margin,
  };
}
