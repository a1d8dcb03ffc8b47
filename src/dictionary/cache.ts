import type { Db } from '../db/types.js';
import { loadDictionary } from './load.js';
import type { Dictionary } from './model.js';

export const DICTIONARY_CHANNEL = 'dictum_dictionary';

/** Tables whose changes make the cached dictionary stale. */
export const DICTIONARY_TABLES = new Set(['ad_table', 'ad_column', 'ad_reference', 'ad_ref_list', 'ad_ref_table', 'ad_val_rule', 'ad_tableindex', 'ad_indexcolumn']);

/**
 * The dictionary held in memory. A write to a dictionary table sends NOTIFY on commit; every
 * instance listening on the database (PGlite in-process, or all nodes sharing a server)
 * reloads, so no request plans against stale metadata for longer than one reload.
 */
export class DictionaryCache {
  #current: Dictionary;
  #reloading: Promise<void> | null = null;
  #again = false;
  #unlisten: (() => Promise<void>) | null = null;
  /** Reads of the held dictionary and loads after the first (GET /caches shows them as hits and misses). */
  reads = 0;
  reloads = 0;

  private constructor(private readonly db: Db, initial: Dictionary) {
    this.#current = initial;
  }

  /** Listens before the first load, so that a change committed while it reads is not missed. */
  static async open(db: Db): Promise<DictionaryCache> {
    let cache: DictionaryCache | null = null;
    let changedWhileLoading = false;
    const unlisten = await db.listen(DICTIONARY_CHANNEL, () => {
      if (cache) void cache.reload();
      else changedWhileLoading = true;
    });
    try {
      cache = new DictionaryCache(db, await loadDictionary(db, 1));
    } catch (err) {
      await unlisten();
      throw err;
    }
    cache.#unlisten = unlisten;
    if (changedWhileLoading) await cache.reload();
    return cache;
  }

  /** Tables held, without counting as a read. */
  get size(): number {
    return this.#current.tables.length;
  }

  get current(): Dictionary {
    this.reads++;
    return this.#current;
  }

  /** Reloads now; concurrent calls coalesce into one more reload after the running one. */
  reload(): Promise<void> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      do {
        this.#again = false;
        this.reloads++;
        this.#current = await loadDictionary(this.db, this.#current.version + 1);
      } while (this.#again);
    })().finally(() => {
      this.#reloading = null;
    });
    return this.#reloading;
  }

  async close(): Promise<void> {
    if (this.#unlisten) await this.#unlisten();
  }
}
