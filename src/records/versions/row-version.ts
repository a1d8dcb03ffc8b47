import { ident, SqlBuilder } from '../../db/sql.js';
import type { Table } from '../../dictionary/model.js';
import type { Queryable } from '../../db/types.js';
import { ApiError } from '../../errors.js';

/**
 * The version of a stored row, as an entity tag's opaque text: the row's xmin (the transaction
 * that wrote this version of it; every UPDATE makes a new one, even one that leaves Updated as
 * it was) and its Updated in milliseconds (which keeps two versions apart should xmin, a 32-bit
 * counter, ever come round to the same number). Views have no row versions: null.
 */
export function versionExpr(table: Table, alias: string): string | null {
  if (table.isView) return null;
  const a = ident(alias);
  const updated = table.byName.has('updated') ? ` || '.' || COALESCE(floor(extract(epoch FROM ${a}.updated) * 1000)::bigint::text, '')` : '';
  return `(${a}.xmin::text${updated})`;
}

/** The column name a read gives the version under. */
export const VERSION = '$version';

/**
 * The ETag of a version. Weak, because it names the version of the row, not the bytes of one
 * representation: $select and $expand shape the record differently, and the identifiers of
 * the records it references are not part of it.
 */
export const entityTag = (version: string): string => `W/"${version}"`;

/**
 * Whether an If-Match / If-None-Match value names the version: `*` names any, else one of its
 * comma-separated tags, compared weakly (a W/ prefix or none, the same opaque text).
 */
export function tagsName(header: string, version: string | null): boolean {
  const text = header.trim();
  if (text === '*') return version !== null;
  if (version === null) return false;
  for (const part of text.split(',')) {
    const tag = part.trim().replace(/^W\//, '');
    if (tag === `"${version}"`) return true;
  }
  return false;
}

/** The one If-Match value of a request, if it sent one. */
export function ifMatchOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers['if-match'];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The stored version of a row by id or UUID, null when there is no such row (or it is a view's). */
export async function rowVersion(q: Queryable, table: Table, keyCondition: (sql: SqlBuilder, alias: string) => string): Promise<string | null> {
  const expr = versionExpr(table, 't');
  if (!expr) return null;
  const sql = new SqlBuilder();
  const cond = keyCondition(sql, 't');
  const { rows } = await q.query<{ v: string }>(`SELECT ${expr} AS v FROM ${ident(table.dbName)} t WHERE ${cond}`, sql.values);
  return rows[0]?.v ?? null;
}

/** 412 unless If-Match names the row's current version. */
export function assertIfMatch(table: Table, idText: string, ifMatch: string, version: string | null): void {
  if (tagsName(ifMatch, version)) return;
  throw new ApiError(412, 'Precondition Failed', `${table.name} ${idText} has changed since the version If-Match names (now ${version === null ? 'none' : entityTag(version)}); read it again`);
}
