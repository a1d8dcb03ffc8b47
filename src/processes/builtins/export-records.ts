import { csvBytes, csvSafe } from '../../reports/render-csv.js';
import { assertTableAccess } from '../../access/access.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import { parseFilter } from '../../records/query/filter-parser.js';
import { projection, statementText } from '../../records/read/projection.js';
import { queryPacked } from '../../records/read/packed-row.js';
import { whereClause } from '../../records/read/where.js';
import { serializeRecord, type Json } from '../../records/serialize.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

/** Rows one export may hold. */
export const MAX_EXPORT_ROWS = 100_000;

/** A cell of a record: a reference by its identifier, a Yes-No as Y or N, anything else as text. */
export function cellText(v: Json | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'Y' : 'N';
  if (typeof v === 'object' && !Array.isArray(v)) return String(v.identifier ?? v.id ?? '');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Export Records: the records of a table (AD_Table_ID) that the caller may read, optionally
 * narrowed by a `$filter` expression (parameter Filter), as a CSV export file with one column per
 * visible column (the records' JSON names) and the id first.
 */
export async function exportRecords(c: ProcessCall): Promise<ProcessOutcome> {
  const dict = c.s.dictionary.current;
  const tableId = c.param('AD_Table_ID')?.value;
  const table = typeof tableId === 'number' ? dict.byId.get(tableId) : undefined;
  if (!table || !table.isActive) throw badRequest('Invalid parameter', 'AD_Table_ID does not name a table');
  assertTableAccess(c.auth, table);
  const filterText = c.param('Filter')?.value;
  const filter = typeof filterText === 'string' && filterText.trim() ? parseFilter(filterText) : undefined;
  const alias = table.dbName;
  const proj = projection(dict, table, undefined, alias);
  const sql = new SqlBuilder();
  const where = whereClause({ dict, auth: c.auth, q: c.tx }, table, alias, sql, { activeOnly: true, filter }).join(' AND ');
  const key = table.keyColumn ? `${ident(alias)}.${ident(table.keyColumn.dbName)}` : '1';
  const text = statementText(proj, `FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where} ORDER BY ${key} LIMIT ${MAX_EXPORT_ROWS + 1}`);
  const rows = await queryPacked(c.tx, text, sql.values, proj.items);
  if (rows.length > MAX_EXPORT_ROWS) throw badRequest('Invalid parameter', `More than ${MAX_EXPORT_ROWS} records match; narrow the filter`);
  const columns = proj.output;
  const header = ['id', ...columns.map((col) => col.name)];
  const body = rows.map((r) => {
    const rec = serializeRecord(dict, table, r, { columns });
    return [cellText(rec.id), ...columns.map((col) => csvSafe(cellText(rec[col.name])))];
  });
  const data = await csvBytes([header, ...body]);
  c.log({ msg: `${table.name}: ${rows.length} records`, number: rows.length });
  return { summary: `Exported ${rows.length} ${table.name} records`, export: { name: `${table.name}_${c.instanceId}.csv`, contentType: 'text/csv', data } };
}
