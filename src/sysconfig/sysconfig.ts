import type { Db, Queryable } from '../db/types.js';
import { NotifiedCache } from '../cache/notified-cache.js';
import type { ModelEvents } from '../events/model-events.js';

export const SYSCONFIG_CHANNEL = 'dictum_sysconfig';

/**
 * AD_SysConfig lookup with the original's precedence: the most specific active row among
 * (client 0 or the given client) and (org 0 or the given org). Values are cached per key and
 * dropped on NOTIFY when AD_SysConfig changes on any instance. Reads inside a transaction use the
 * cache too (the hot paths read switches in the write's transaction), except in a transaction that
 * wrote AD_SysConfig itself: it reads its own rows, and what it reads is not kept.
 */
export class SysConfig {
  #cache = new NotifiedCache<string, string | null>();
  #unlisten: (() => Promise<void>) | null = null;
  readonly #changedIn = new WeakSet<object>();

  constructor(private readonly db: Queryable) {}

  async listen(db: Db): Promise<void> {
    this.#unlisten = await db.listen(SYSCONFIG_CHANNEL, () => this.#cache.clear());
  }

  /** Marks the transactions that write AD_SysConfig (and empties this instance's cache at once). */
  watch(events: ModelEvents): void {
    for (const type of ['after-new', 'after-change', 'after-delete'] as const) {
      events.on(type, 'ad_sysconfig', async (e) => {
        this.#changedIn.add(e.tx);
        this.#cache.clear();
      });
    }
  }

  clear(): void {
    this.#cache.clear();
  }

  cacheStats(): { size: number; maxSize: number; hits: number; misses: number } {
    return this.#cache.stats();
  }

  async get(name: string, clientId = 0, orgId = 0, q: Queryable = this.db): Promise<string | null> {
    const key = `${name}|${clientId}|${orgId}`;
    const cacheable = !this.#changedIn.has(q);
    const hit = cacheable ? this.#cache.get(key) : undefined;
    if (hit !== undefined) return hit;
    const started = this.#cache.readStarted();
    const { rows } = await q.query<{ value: string | null }>(
      `SELECT value FROM ad_sysconfig WHERE name = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2) AND ad_org_id IN (0, $3)
       ORDER BY ad_client_id DESC, ad_org_id DESC LIMIT 1`,
      [name, clientId, orgId],
    );
    const value = rows.length ? rows[0]!.value : null;
    if (cacheable) this.#cache.set(key, value, started);
    return value;
  }

  /** Pass the transaction as `q` when calling inside one: on PGlite another query would wait for it. */
  async getInt(name: string, def: number, clientId = 0, orgId = 0, q: Queryable = this.db): Promise<number> {
    const v = await this.get(name, clientId, orgId, q);
    const n = v === null ? NaN : Number(v.trim());
    return Number.isFinite(n) ? n : def;
  }

  async getBool(name: string, def: boolean, clientId = 0, orgId = 0, q: Queryable = this.db): Promise<boolean> {
    const v = (await this.get(name, clientId, orgId, q))?.trim().toUpperCase();
    if (v === undefined || v === '') return def;
    return v === 'Y' || v === 'YES' || v === 'TRUE';
  }

  async close(): Promise<void> {
    if (this.#unlisten) await this.#unlisten();
  }
}
