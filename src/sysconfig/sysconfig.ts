import type { Db, Queryable } from '../db/types.js';
import { NotifiedCache } from '../cache/notified-cache.js';

export const SYSCONFIG_CHANNEL = 'dictum_sysconfig';

/**
 * AD_SysConfig lookup with the original's precedence: the most specific active row among
 * (client 0 or the given client) and (org 0 or the given org). Values are cached per key and
 * dropped on NOTIFY when AD_SysConfig changes on any instance.
 */
export class SysConfig {
  #cache = new NotifiedCache<string, string | null>();
  #unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly db: Queryable) {}

  async listen(db: Db): Promise<void> {
    this.#unlisten = await db.listen(SYSCONFIG_CHANNEL, () => this.#cache.clear());
  }

  clear(): void {
    this.#cache.clear();
  }

  cacheStats(): { size: number; maxSize: number; hits: number; misses: number } {
    return this.#cache.stats();
  }

  async get(name: string, clientId = 0, orgId = 0, q: Queryable = this.db): Promise<string | null> {
    const key = `${name}|${clientId}|${orgId}`;
    const hit = q === this.db ? this.#cache.get(key) : undefined;
    if (hit !== undefined) return hit;
    const started = this.#cache.readStarted();
    const { rows } = await q.query<{ value: string | null }>(
      `SELECT value FROM ad_sysconfig WHERE name = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2) AND ad_org_id IN (0, $3)
       ORDER BY ad_client_id DESC, ad_org_id DESC LIMIT 1`,
      [name, clientId, orgId],
    );
    const value = rows.length ? rows[0]!.value : null;
    if (q === this.db) this.#cache.set(key, value, started);
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
