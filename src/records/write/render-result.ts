import { ident, SqlBuilder } from '../../db/sql.js';
import type { Table } from '../../dictionary/model.js';
import { projection, statementText } from '../read/projection.js';
import type { ReadContext } from '../read/read-context.js';
import { queryPacked } from '../read/packed-row.js';
import { serializeRecord, type JsonObject } from '../serialize.js';
import type { WriteResult } from './persist.js';

type Row = Record<string, unknown>;

/** Reads rows of one table by key (inside the write's transaction) with lookup identifiers. */
async function readByKeys(rc: ReadContext, table: Table, rows: Row[]): Promise<Map<unknown, Row>> {
  const key = table.keyColumn ?? table.uuColumn;
  if (!key || rows.length === 0) return new Map();
  const sql = new SqlBuilder();
  const ids = rows.map((r) => r[key.dbName]);
  const cast = key === table.keyColumn ? 'bigint' : 'text';
  // One key is compared with =, so that the prepared statement settles on a generic plan
  // instead of planning its identifier subqueries again on every write.
  const match = ids.length === 1 ? `= ${sql.param(ids[0])}::${cast}` : `= ANY(${sql.param(ids)}::${cast}[])`;
  const proj = projection(rc.dict, table, undefined, 't');
  const text = statementText(proj, `FROM ${ident(table.dbName)} t WHERE t.${ident(key.dbName)} ${match}`);
  const found = await queryPacked(rc.q, text, sql.values, proj.items);
  return new Map(found.map((r) => [String(r[key.dbName]), r]));
}

/**
 * The response of a write: the saved record as a read would show it, with the details the
 * request wrote under the keys it used (nested to any depth).
 */
export async function renderWriteResults(rc: ReadContext, results: WriteResult[], nested: boolean): Promise<JsonObject[]> {
  if (results.length === 0) return [];
  const table = results[0]!.table;
  const key = table.keyColumn ?? table.uuColumn;
  const byKey = await readByKeys(rc, table, results.map((r) => r.row));
  const out: JsonObject[] = [];
  for (const r of results) {
    const fresh = key ? byKey.get(String(r.row[key.dbName])) : undefined;
    const rec = serializeRecord(rc.dict, table, fresh ?? r.row, { modelName: !nested });
    for (const [k, list] of r.details) rec[k] = await renderWriteResults(rc, list, true);
    out.push(rec);
  }
  return out;
}
