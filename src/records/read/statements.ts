import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/types.js';

/**
 * Names of prepared statements for the read paths. A statement's name is derived from its text,
 * so one name always means one text on every connection. The set is bounded: past the limit,
 * statements of unusual shapes run unnamed instead of filling every connection's statement
 * cache.
 */
const MAX_NAMED = 500;
const names = new Map<string, string>();

export function statementName(text: string): string | undefined {
  const hit = names.get(text);
  if (hit) return hit;
  if (names.size >= MAX_NAMED) return undefined;
  const name = `rec_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
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
