interface Entry<V> {
  value: V;
  /** The count of moves to the back when this entry last made one (see `get`). */
  movedAt: number;
}

/**
 * A least-recently-used map with a size bound. Entries sit in a Map in the order they last moved
 * to its back; the front one goes when the bound is passed. A hit moves its entry only once it is
 * in the older half (half the bound or more moves have been made since its own): moving costs a
 * delete and an insert, and a delete leaves a hole that makes the Map rebuild its table, which
 * on hot entries (a page of records reads hundreds) would cost more than the read it saves. An
 * entry hit at least once every half bound of moves is therefore never evicted.
 */
export class LruMap<K, V> {
  #map = new Map<K, Entry<V>>();
  #moves = 0;
  readonly #half: number;
  /** Reads that found, and did not find, their key (GET /caches shows them). */
  hits = 0;
  misses = 0;
  constructor(readonly max: number) {
    this.#half = Math.max(1, Math.ceil(max / 2));
  }
  get(key: K): V | undefined {
    const e = this.#map.get(key);
    if (e === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (this.#moves - e.movedAt >= this.#half) {
      this.#map.delete(key);
      this.#append(key, e);
    }
    return e.value;
  }
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#append(key, { value, movedAt: 0 });
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
  #append(key: K, e: Entry<V>): void {
    e.movedAt = ++this.#moves;
    this.#map.set(key, e);
  }
}
