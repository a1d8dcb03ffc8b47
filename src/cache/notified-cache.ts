import { LruMap } from './lru-map.js';

/**
 * A cache that change notifications empty. A value read from the database is stored only when
 * no clear came between the start of its read and its store: a read that was under way when the
 * change was notified may have seen the old data, and storing it would keep the old data until
 * the next change.
 */
export class NotifiedCache<K, V> {
  readonly #map: LruMap<K, V>;
  #clears = 0;

  /** @param maxEntries beyond it, the entry used longest ago goes. */
  constructor(maxEntries = Infinity) {
    this.#map = new LruMap(maxEntries);
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  get size(): number {
    return this.#map.size;
  }

  /** Size and read counters, for the cache registry. */
  stats(): { size: number; maxSize: number; hits: number; misses: number } {
    return { size: this.#map.size, maxSize: this.#map.max, hits: this.#map.hits, misses: this.#map.misses };
  }

  /** Taken before a read whose result is to be stored: give it back to `set`. */
  readStarted(): number {
    return this.#clears;
  }

  /** Stores a value read since `readStarted` returned `started`; false when a clear came meanwhile. */
  set(key: K, value: V, started: number): boolean {
    if (started !== this.#clears) return false;
    this.#map.set(key, value);
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#clears++;
  }
}
