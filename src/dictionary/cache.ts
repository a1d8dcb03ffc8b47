import type { Db } from '../db/types.js';
import { dictionaryCodeKey, readDictionaryFile, writeDictionaryFile } from './file-cache.js';
import { dictionaryFromSource, loadDictionary, readDictionarySource } from './load.js';
import type { Dictionary } from './model.js';
import { readStamp } from './stamp.js';

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

  private constructor(
    private readonly db: Db,
    initial: Dictionary,
    private readonly onLoad: (dict: Dictionary) => void,
  ) {
    this.#current = initial;
  }

  /**
   * Listens before the first load, so that a change committed while it reads is not missed. With
   * a cache directory the first load reads the file kept under the database's dictionary stamp when
   * there is one, and keeps what it read from the database otherwise. `onLoad` is handed every
   * dictionary loaded, before it becomes current (caches derived from it start over).
   */
  static async open(db: Db, options: { cacheDir?: string; onLoad?: (dict: Dictionary) => void } = {}): Promise<DictionaryCache> {
    const onLoad = options.onLoad ?? (() => undefined);
    let cache: DictionaryCache | null = null;
    let changedWhileLoading = false;
    const unlisten = await db.listen(DICTIONARY_CHANNEL, () => {
      if (cache) void cache.reload();
      else changedWhileLoading = true;
    });
    try {
      const first = await firstLoad(db, options.cacheDir);
      onLoad(first);
      cache = new DictionaryCache(db, first, onLoad);
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
        const next = await loadDictionary(this.db, this.#current.version + 1);
        this.onLoad(next);
        this.#current = next;
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

async function firstLoad(db: Db, cacheDir: string | undefined): Promise<Dictionary> {
  if (!cacheDir) return loadDictionary(db, 1);
  const stamp = await readStamp(db);
  const code = dictionaryCodeKey();
  const kept = stamp && code ? readDictionaryFile(cacheDir, stamp, code) : null;
  if (kept) return { ...kept, version: 1 };
  const src = await readDictionarySource(db, stamp !== null);
  const dictionary = dictionaryFromSource(src, 1);
  if (src.stamp && code) writeDictionaryFile(cacheDir, src.stamp, code, dictionary);
  return dictionary;
}
