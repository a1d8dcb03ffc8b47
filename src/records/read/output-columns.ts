import { badRequest } from '../../errors.js';
import type { Column, Table } from '../../dictionary/model.js';
import { visibleColumns } from '../serialize.js';

/** The columns a read returns: all visible ones, or those named in $select (validated). */
export function outputColumns(table: Table, select: string[] | undefined): Column[] {
  if (!select) return visibleColumns(table);
  const visible = new Set(visibleColumns(table));
  const out: Column[] = [];
  for (const name of select) {
    const lower = name.toLowerCase();
    if (lower === 'id' || lower === 'uid' || lower === 'model-name') continue;
    const col = table.byName.get(lower);
    if (col === table.keyColumn || col === table.uuColumn) continue;
    if (!col || !visible.has(col)) throw badRequest('Invalid $select', `${name} is not a valid column of table ${table.name}`);
    if (!out.includes(col)) out.push(col);
  }
  return out;
}

/** What the SELECT must fetch: the output columns plus the key and UUID (for id and uid). */
export function fetchedColumns(table: Table, output: Column[]): Column[] {
  const out = [...output];
  for (const c of [table.keyColumn, table.uuColumn]) if (c && !out.includes(c)) out.unshift(c);
  return out;
}
