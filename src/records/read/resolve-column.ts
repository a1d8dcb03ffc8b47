import { badRequest } from '../../errors.js';
import type { Column, Table } from '../../dictionary/model.js';

/** A column named in a query option: `id` and `uid` stand for the key and UUID columns. */
export function resolveQueryColumn(table: Table, name: string, title: string, what = 'Invalid column for filter'): Column {
  const lower = name.toLowerCase();
  const col = lower === 'id' ? table.keyColumn : lower === 'uid' ? table.uuColumn : table.byName.get(lower);
  if (!col || col.isSecure || col.isEncrypted) throw badRequest(title, `${what}: ${name}`);
  return col;
}
