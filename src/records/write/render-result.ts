import { ident, SqlBuilder } from '../../db/sql.js';
import type { Table } from '../../dictionary/model.js';
import { projection, statementText } from '../read/projection.js';
import type { ReadContext } from '../read/read-context.js';
import { queryPacked } from '../read/packed-row.js';
import { serializeRecord, type JsonObject } from '../serialize.js';
import type { WriteResult } from './persist.js';
import { VERSION, versionExpr } from '../versions/row-version.js';

type Row = Record<string, unknown>;

/**
 * Reads rows of one table by key (inside the write's transaction) with lookup identifiers, and
 * each row's version into `versions` when asked (in the same statement).
 */
async function readByKeys(rc: ReadContext, table: Table, rows: Row[], versions?: Map<string, string | null>): Promise<Map<unknown, Row>> {
  const key = table.keyColumn ?? table.uuColumn;
  if (!key || rows.length === 0) return new Map();
  const sql = new SqlBuilder();
  const ids = rows.map((r) => r[key.dbName]);
  const cast = key === table.keyColumn ? 'bigint' : 'text';
  // One key is compared with =, so that the prepared statement settles on a generic plan
  // instead of planning its identifier subqueries again on every write.
  const match = ids.length === 1 ? `= ${sql.param(ids[0])}::${cast}` : `= ANY(${sql.param(ids)}::${cast}[])`;
  const proj = projection(rc.dict, table, undefined, 't');
  const version = versions ? versionExpr(table, 't') : null;
  const text = statementText(proj, `${version ? `, ${version} AS "${VERSION}" ` : ''}FROM ${ident(table.dbName)} t WHERE t.${ident(key.dbName)} ${match}`);
  const seen: (string | null)[] = [];
  const found = await queryPacked(rc.q, text, sql.values, proj.items, version ? { name: VERSION, out: seen } : undefined);
  if (versions) found.forEach((r, i) => versions.set(String(r[key.dbName]), seen[i] ?? null));
  return new Map(found.map((r) => [String(r[key.dbName]), r]));
}

/**
 * The response of a write: the saved record as a read would show it, with the details the
 * request wrote under the keys it used (nested to any depth). `versions` receives the version of
 * each top-level record as it is at the end of the write (keyed by its key's text).
 */
export async function renderWriteResults(rc: ReadContext, results: WriteResult[], nested: boolean, versions?: Map<string, string | null>): Promise<JsonObject[]> {
  if (results.length === 0) return [];
  const table = results[0]!.table;
  const key = table.keyColumn ?? table.uuColumn;
  const byKey = await readByKeys(rc, table, results.map((r) => r.row), versions);
  const out: JsonObject[] = [];
  for (const r of results) {
    const fresh = key ? byKey.get(String(r.row[key.dbName])) : undefined;
    const rec = serializeRecord(rc.dict, table, fresh ?? r.row, { modelName: !nested });
    for (const [k, list] of r.details) rec[k] = await renderWriteResults(rc, list, true);
    out.push(rec);
  }
  return out;
}
