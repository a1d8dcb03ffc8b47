/** A small least-recently-used map with a size bound. */
export class LruMap<K, V> {
  #map = new Map<K, V>();
  /** Reads that found, and did not find, their key (GET /caches shows them). */
  hits = 0;
  misses = 0;
  constructor(readonly max: number) {}
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.hits++;
      this.#map.delete(key);
      this.#map.set(key, v);
    } else this.misses++;
    return v;
  }
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
  }
  delete(key: K): void {
    this.#map.delete(key);
  }
  clear(): void {
    this.#map.clear();
  }
  get size(): number {
    return this.#map.size;
  }
}
