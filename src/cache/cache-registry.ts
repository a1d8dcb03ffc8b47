import type { Db } from '../db/types.js';

/** NOTIFY channel that resets caches on every instance; its payload is a table name, or empty for all. */
export const CACHE_RESET_CHANNEL = 'dictum_cache_reset';

/** One cache of this instance as GET /caches shows it, and how to empty it. */
export interface CacheSource {
  name: string;
  /** Tables whose rows the cache holds (lower case): a reset for one of them empties it. */
  tables: readonly string[];
  /** Minutes an entry lives; 0 when it lives until a change notification or a reset drops it. */
  expireMinutes: number;
  stats(): { size: number; maxSize: number; hits: number; misses: number };
  reset(): void;
}

export interface CacheInfo {
  name: string;
  size: number;
  maxSize: number | null;
  hits: number;
  misses: number;
  expireMinutes: number;
}

/** The caches of this instance: their figures, and their reset on every instance through NOTIFY. */
export class CacheRegistry {
  readonly #sources: CacheSource[] = [];
  #unlisten: (() => Promise<void>) | null = null;

  add(source: CacheSource): void {
    this.#sources.push(source);
  }

  list(): CacheInfo[] {
    return this.#sources.map((c) => {
      const s = c.stats();
      return { name: c.name, size: s.size, maxSize: Number.isFinite(s.maxSize) ? s.maxSize : null, hits: s.hits, misses: s.misses, expireMinutes: c.expireMinutes };
    });
  }

  /** The caches a reset for `table` (all when null) empties. */
  matching(table: string | null): CacheSource[] {
    return table === null ? [...this.#sources] : this.#sources.filter((c) => c.tables.includes(table));
  }

  /** Empties the caches of this instance that hold `table` (all when null or empty); answers the entries dropped. */
  resetLocal(table: string | null): number {
    let dropped = 0;
    for (const c of this.matching(table || null)) {
      dropped += c.stats().size;
      c.reset();
    }
    return dropped;
  }

  async listen(db: Db): Promise<void> {
    this.#unlisten = await db.listen(CACHE_RESET_CHANNEL, (payload) => this.resetLocal(payload || null));
  }

  async close(): Promise<void> {
    if (this.#unlisten) await this.#unlisten();
    this.#unlisten = null;
  }
}
