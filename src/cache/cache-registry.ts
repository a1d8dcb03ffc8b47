import type { Db } from '../db/types.js';

/** NOTIFY channel that resets caches on every instance; its payload is a table name, or empty for all. */
export const CACHE_RESET_CHANNEL = 'dictum_cache_reset';

/** One cache of this instance as GET /caches shows it, and how to empty it. */
export interface CacheSource {
  name: string;
  /** Tables whose rows the cache holds (lower case): a reset for one of them empties it. */
  tables: readonly string[];
  /** The table GET /caches names for it; by default its first table, or its name when it holds none. */
  tableName?: string;
  /** Minutes an entry lives; 0 when it lives until a change notification or a reset drops it. */
  expireMinutes: number;
  stats(): { size: number; maxSize: number; hits: number; misses: number };
  reset(): void;
}

/** A cache as GET /caches shows it: the original's properties, then its hits and misses. */
export interface CacheInfo {
  name: string;
  tableName: string;
  size: number;
  expireMinutes: number;
  /** 0 when the cache has no bound, as the original writes it. */
  maxSize: number;
  /** Each instance keeps its own entries; only resets travel between instances. */
  distributed: boolean;
  nodeId: string;
  hits: number;
  misses: number;
}

/** The caches of this instance: their figures, and their reset on every instance through NOTIFY. */
export class CacheRegistry {
  readonly #sources: CacheSource[] = [];
  #unlisten: (() => Promise<void>) | null = null;

  add(source: CacheSource): void {
    this.#sources.push(source);
  }

  /** The caches of this instance; `tableLabel` gives a held table (lower case) its dictionary name. */
  list(nodeId = '', tableLabel: (dbName: string) => string = (t) => t): CacheInfo[] {
    return this.#sources.map((c) => {
      const s = c.stats();
      const first = c.tables[0];
      return {
        name: c.name,
        tableName: c.tableName ?? (first ? tableLabel(first) : c.name),
        size: s.size,
        expireMinutes: c.expireMinutes,
        maxSize: Number.isFinite(s.maxSize) ? s.maxSize : 0,
        distributed: false,
        nodeId,
        hits: s.hits,
        misses: s.misses,
      };
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
