import { notFound } from '../../errors.js';
import type { Table } from '../../dictionary/model.js';
import type { Services } from '../../services.js';

/** The dictionary table a path names, in any case; 404 with the original's title otherwise. */
export function tableFromPath(s: Services, name: string): Table {
  const table = s.dictionary.current.byName.get(name.toLowerCase());
  if (!table || !table.isActive) throw notFound('Invalid table name', `No match found for table name: ${name}`);
  return table;
}
