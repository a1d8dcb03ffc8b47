import { assertTableAccess, readPredicate } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import { ident, SqlBuilder } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { forbidden, notFound } from '../errors.js';
import { keyCondition } from '../records/read/reader.js';

/**
 * The key and row of the record a path names (id or UUID) that the caller may read: 400 for a
 * malformed id, 404 when there is none, 403 when it is not the caller's, as a record read answers.
 */
export async function readableRecord(q: Queryable, auth: AuthContext, table: Table, idText: string): Promise<{ id: number; row: Record<string, unknown> }> {
  assertTableAccess(auth, table);
  if (!table.keyColumn) throw notFound('Record not found', `${table.name} records have no single key`);
  const sql = new SqlBuilder();
  const cond = keyCondition(table, idText, 'r', sql);
  const values = [...sql.values];
  const { rows } = await q.query<Record<string, unknown>>(`SELECT r.* FROM ${ident(table.dbName)} r WHERE ${cond} AND ${readPredicate(auth, table, 'r', sql)}`, sql.values);
  if (rows[0]) return { id: Number(rows[0][table.keyColumn.dbName]), row: rows[0] };
  const exists = await q.query(`SELECT 1 FROM ${ident(table.dbName)} r WHERE ${cond}`, values);
  if (exists.rows.length) throw forbidden('Access denied', `Access denied for record with id: ${idText}`);
  throw notFound('Record not found', `No record found matching id: ${idText}`);
}
