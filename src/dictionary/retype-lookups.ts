import { ident } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { Dictionary } from './model.js';
import { compareSchema } from './sync.js';

/**
 * Lookups of ids whose column name does not end in _ID (C_Conversion_Rate.C_Currency_ID_To,
 * AD_Ref_Table.AD_Key and AD_Display) were once stored as text, which a filter comparing them
 * with a number could not use. This retypes every such column the dictionary now stores as a
 * number: digits become the id, anything else (which named no record) becomes null. Returns
 * the columns retyped, as Table.Column.
 */
export async function retypeIdLookups(q: Queryable, dict: Dictionary): Promise<string[]> {
  const retyped: string[] = [];
  for (const d of await compareSchema(q, dict)) {
    if (d.problem !== 'type differs' || d.expected !== 'bigint' || !d.column) continue;
    if (!/^(character varying|text)/.test(String(d.actual))) continue;
    const table = dict.byName.get(d.table.toLowerCase());
    const column = table?.byName.get(d.column.toLowerCase());
    if (!table || column?.kind !== 'foreign-key') continue;
    const c = ident(column.dbName);
    await q.query(
      `ALTER TABLE ${ident(table.dbName)} ALTER COLUMN ${c} TYPE bigint USING (CASE WHEN btrim(${c}) ~ '^[0-9]{1,18}$' THEN btrim(${c})::bigint END)`,
    );
    retyped.push(`${table.name}.${column.name}`);
  }
  return retyped;
}
