import { ident, SqlBuilder } from '../db/sql.js';
import type { Table } from '../dictionary/model.js';
import { notFound } from '../errors.js';
import type { FilterNode } from '../records/query/filter-ast.js';
import { filterToSql } from '../records/read/filter-sql.js';
import { queryPacked } from '../records/read/packed-row.js';
import { projection, statementText } from '../records/read/projection.js';
import type { ReadContext } from '../records/read/read-context.js';
import { serializeRecord, type JsonObject } from '../records/serialize.js';

export type Row = Record<string, unknown>;

export interface DictionaryRead {
  /** Columns to show (the original's fixed lists); undefined: every visible column. */
  select?: string[];
  /** Conditions on the alias `d`, rendered against the given builder. */
  where?: (sql: SqlBuilder) => string[];
  filter?: FilterNode;
  activeOnly?: boolean;
  orderBy: string;
}

export function dictionaryTable(rc: ReadContext, name: string): Table {
  const t = rc.dict.byName.get(name.toLowerCase());
  if (!t) throw notFound('Invalid table name', `No match found for table name: ${name}`);
  return t;
}

/**
 * Rows of a screen dictionary table (System rows shared by every tenant, plus the tenant's own)
 * read and serialised by the generic record engine. Who may see which row is decided by the
 * caller from the role's screen access, not by the table's access level: a role that may not
 * maintain the dictionary still opens the windows it was given.
 */
export async function readDictionaryRows(rc: ReadContext, tableName: string, o: DictionaryRead): Promise<{ rows: Row[]; records: JsonObject[] }> {
  const table = dictionaryTable(rc, tableName);
  const proj = projection(rc.dict, table, o.select, 'd');
  const sql = new SqlBuilder();
  const parts = [`d."ad_client_id" IN (0, ${sql.param(rc.auth.clientId)})`];
  if (o.activeOnly !== false) parts.push(`d."isactive" = 'Y'`);
  if (o.where) parts.push(...o.where(sql));
  if (o.filter) parts.push(filterToSql(o.filter, table, 'd', sql, { dict: rc.dict }));
  const text = statementText(proj, `FROM ${ident(table.dbName)} d WHERE ${parts.join(' AND ')} ORDER BY ${o.orderBy}`);
  const rows = await queryPacked(rc.q, text, sql.values, proj.items);
  return { rows, records: rows.map((r) => serializeRecord(rc.dict, table, r, { columns: proj.output })) };
}
