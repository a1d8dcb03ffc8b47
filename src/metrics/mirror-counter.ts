import type { Counter } from 'prom-client';

/** A counter kept elsewhere (a running total of this instance), shown as it stands at each scrape. */
export function mirrorCounter(counter: Counter<string>, values: Array<[Record<string, string>, number]>): void {
  counter.reset();
  for (const [labels, value] of values) counter.inc(labels, value);
}
