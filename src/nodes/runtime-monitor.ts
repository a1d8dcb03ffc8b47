import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';

/**
 * Figures of this process that the JVM reports through its management beans and Node.js does not
 * keep by itself: garbage collections (counted from the performance timeline) and event-loop delay.
 */
export class RuntimeMonitor {
  #gcCount = 0;
  #gcTimeMs = 0;
  #observer: PerformanceObserver | null = null;
  #delay: IntervalHistogram | null = null;

  start(): void {
    this.#observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.#gcCount++;
        this.#gcTimeMs += e.duration;
      }
    });
    this.#observer.observe({ entryTypes: ['gc'] });
    this.#delay = monitorEventLoopDelay({ resolution: 20 });
    this.#delay.enable();
  }

  stop(): void {
    this.#observer?.disconnect();
    this.#delay?.disable();
    this.#observer = null;
    this.#delay = null;
  }

  get gcCount(): number {
    return this.#gcCount;
  }

  get gcTimeMs(): number {
    return Math.round(this.#gcTimeMs);
  }

  /** Event-loop delay in milliseconds since the monitor started: mean, 99th percentile and maximum. */
  eventLoopDelay(): { meanMs: number; p99Ms: number; maxMs: number } {
    const h = this.#delay;
    if (!h || h.count === 0) return { meanMs: 0, p99Ms: 0, maxMs: 0 };
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    return { meanMs: ms(h.mean), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) };
  }
}
