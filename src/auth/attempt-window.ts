import type { Queryable } from '../db/types.js';
import { sha256 } from './util.js';

/**
 * The attempts table: failed logins and password reset requests of every instance on the database,
 * so that N instances allow the same number of attempts as one. Infrastructure (like the queue), it
 * lives in the `dictum` schema; keys are stored as SHA-256 hashes, so user names and addresses are not.
 */
export const ATTEMPT_SCHEMA: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS dictum',
  `CREATE TABLE IF NOT EXISTS dictum.auth_attempt (
    key_hash text NOT NULL,
    at_ms bigint NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS auth_attempt_key ON dictum.auth_attempt (key_hash, at_ms)',
  'CREATE INDEX IF NOT EXISTS auth_attempt_age ON dictum.auth_attempt (at_ms)',
];

/** Counts attempts per key in a sliding time window, in the database shared by all instances. */
export class AttemptWindow {
  constructor(
    private readonly db: Queryable,
    /** Tells the kinds of attempts apart in the one table. */
    private readonly kind: string,
  ) {}

  #hash = (key: string): string => sha256(`${this.kind}:${key}`);

  async count(key: string, windowMs: number, now = Date.now()): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dictum.auth_attempt WHERE key_hash = $1 AND at_ms > $2`, [this.#hash(key), now - windowMs]);
    return Number(rows[0]!.n);
  }

  /** Records attempts under several keys (a login failure counts for its user name and its address) in one statement. */
  async add(keys: string[], now = Date.now()): Promise<void> {
    await this.db.query(`INSERT INTO dictum.auth_attempt (key_hash, at_ms) SELECT k, $2 FROM unnest($1::text[]) AS k`, [keys.map(this.#hash), now]);
  }

  async reset(key: string): Promise<void> {
    await this.db.query(`DELETE FROM dictum.auth_attempt WHERE key_hash = $1`, [this.#hash(key)]);
  }

  /** Removes attempts older than any window counts (the housekeeping of the session cleaner); returns how many. */
  async purge(olderThanMs: number, now = Date.now()): Promise<number> {
    const r = await this.db.query(`DELETE FROM dictum.auth_attempt WHERE at_ms <= $1`, [now - olderThanMs]);
    return r.rowCount;
  }
}
