import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/types.js';

/**
 * Names of prepared statements, derived from their text, so that one name always means one text
 * on every connection. A set is bounded: past its limit, statements of unusual shapes run
 * unnamed instead of filling every connection's statement cache. Reads and inserts keep sets of
 * their own, so that many insert shapes cannot take the names the reads need.
 */
export class StatementNames {
  #names = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    private readonly limit: number,
  ) {}

  of(text: string): string | undefined {
    const hit = this.#names.get(text);
    if (hit) return hit;
    if (this.#names.size >= this.limit) return undefined;
    const name = `${this.prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.#names.set(text, name);
    return name;
  }
}

const readNames = new StatementNames('rec', 500);

export function statementName(text: string): string | undefined {
  return readNames.of(text);
}

/** Runs a read statement, prepared under its name when it has one. */
export function runNamed<R>(q: Queryable, text: string, values: readonly unknown[]) {
  const name = statementName(text);
  return q.query<R>(text, values, name ? { name } : undefined);
}

const collationCache = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the database orders text byte-wise (C or POSIX collation): then a prefix match can be
 * written as a range that a plain b-tree index serves. Asked once per database handle.
 */
export function comparesTextBytewise(q: Queryable): Promise<boolean> {
  let hit = collationCache.get(q);
  if (!hit) {
    hit = q
      .query<{ c: string }>('SELECT datcollate AS c FROM pg_database WHERE datname = current_database()')
      .then((r) => /^(C|POSIX|C\.UTF-?8|ucs_basic)$/i.test(String(r.rows[0]?.c ?? '')))
      .catch(() => false);
    collationCache.set(q, hit);
  }
  return hit;
}
