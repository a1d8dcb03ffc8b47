import { badRequest } from '../../errors.js';
import type { Column, Table } from '../../dictionary/model.js';

/** A column named in a query option: `id` and `uid` stand for the key and UUID columns. */
export function resolveQueryColumn(table: Table, name: string, title: string, what = 'Invalid column for filter'): Column {
  const col = findQueryColumn(table, name);
  if (!col) throw badRequest(title, `${what}: ${name}`);
  return col;
}

/** The column a query option may name, or undefined (unknown, secure or encrypted). */
export function findQueryColumn(table: Table, name: string): Column | undefined {
  const lower = name.toLowerCase();
  const col = lower === 'id' ? table.keyColumn : lower === 'uid' ? table.uuColumn : table.byName.get(lower);
  return !col || col.isSecure || col.isEncrypted ? undefined : col;
}
