import { SqlBuilder, ident } from '../db/sql.js';
import type { Table } from '../dictionary/model.js';
import { parseFilter } from '../records/query/filter-parser.js';
import { projection, statementText } from '../records/read/projection.js';
import { queryPacked } from '../records/read/packed-row.js';
import type { ReadContext } from '../records/read/read-context.js';
import { whereClause } from '../records/read/where.js';
import { serializeRecord, type JsonObject } from '../records/serialize.js';

type Row = Record<string, unknown>;

export interface DictionaryReadOptions {
  /** A `$filter` expression over the table's columns. */
  filter?: string;
  /** More conditions over the alias `t`, rendered against the same builder. */
  extra?: (sql: SqlBuilder) => string[];
  /** Column names to order by (ascending), before the key. */
  orderBy?: string[];
  /** The columns the records show (all by default; the rows always hold every column). */
  select?: string[];
  /** Active rows only, unless the filter names IsActive (lists); false reads inactive rows too. */
  activeOnly?: boolean;
}

/**
 * Records of a dictionary table (info windows, their columns, status lines, charts) that the
 * caller's client and organisations reach, serialized as /models serializes them, with their rows.
 * Such metadata is readable by every role, as in the original, whatever the table's access level.
 */
export async function readDictionaryRecords(rc: ReadContext, table: Table, o: DictionaryReadOptions = {}): Promise<{ records: JsonObject[]; rows: Row[] }> {
  const proj = projection(rc.dict, table, undefined, 't');
  const sql = new SqlBuilder();
  const filter = o.filter !== undefined && o.filter.trim() !== '' ? parseFilter(o.filter) : undefined;
  const where = whereClause(rc, table, 't', sql, { activeOnly: o.activeOnly ?? true, ...(filter ? { filter } : {}) });
  if (o.extra) where.push(...o.extra(sql));
  const order = [...(o.orderBy ?? []).map((c) => `t.${ident(c.toLowerCase())}`), ...(table.keyColumn ? [`t.${ident(table.keyColumn.dbName)}`] : [])];
  const text = statementText(proj, `FROM ${ident(table.dbName)} t WHERE ${where.join(' AND ')}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}`);
  const rows = await queryPacked(rc.q, text, sql.values, proj.items);
  const shown = o.select ? proj.output.filter((c) => o.select!.some((n) => n.toLowerCase() === c.dbName)) : proj.output;
  return { rows, records: rows.map((r) => serializeRecord(rc.dict, table, r, { columns: shown })) };
}
