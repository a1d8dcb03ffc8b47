import { ident } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { DisplayType } from '../../dictionary/display-type.js';
import { hasTextKey } from '../reference-key.js';
import { validationError } from './write-errors.js';

type Row = Record<string, unknown>;

/**
 * Mandatory columns left empty, named together as the original does. `only` limits the check
 * to the columns an update changes (a stored record is not re-judged for columns left alone).
 */
export function checkMandatory(table: Table, row: Row, only?: Set<string>): void {
  const missing = table.columns.filter(
    (c) => isStored(c) && c.isMandatory && c !== table.keyColumn && (!only || only.has(c.dbName)) && (row[c.dbName] === null || row[c.dbName] === undefined || row[c.dbName] === ''),
  );
  if (missing.length) throw validationError(`Fill mandatory fields: ${missing.map((c) => c.name).join(', ')}`);
}

/** Length, list values and references of the columns a write sets. */
export async function checkValues(q: Queryable, dict: Dictionary, table: Table, row: Row, columns: Iterable<Column>, clientId: number): Promise<void> {
  for (const c of columns) {
    const v = row[c.dbName];
    if (v === null || v === undefined) continue;
    if ((c.kind === 'string' || c.kind === 'list' || c.kind === 'button') && c.fieldLength > 0 && String(v).length > c.fieldLength) {
      throw validationError(`Value too long for column ${c.name}: ${String(v).length} characters, at most ${c.fieldLength}`);
    }
    if (c.kind === 'list' && c.listReferenceId !== null) {
      const ref = dict.references.get(c.listReferenceId);
      if (ref && ref.list.length && !ref.listByValue.has(String(v))) {
        throw validationError(`Invalid value for column ${c.name}: '${String(v)}' is not one of ${ref.list.map((l) => l.value.trim() || `'${l.value}'`).join(', ')}`);
      }
    }
    if ((c.kind === 'foreign-key' || c.kind === 'image') && c.lookup) {
      if (Number(v) === 0 && c.referenceId === DisplayType.PAttribute) continue;
      const found = await checkReference(q, dict, c, hasTextKey(dict, c) ? String(v) : Number(v), clientId);
      // An id of 0 means "none" for an optional reference whose table has no record 0.
      if (!found && Number(v) === 0 && !c.isMandatory) row[c.dbName] = null;
      else if (!found) throw validationError(`Foreign ID ${String(v)} not found in ${c.name}`);
    }
  }
}

/** Whether the referenced record exists in the caller's client or in System. */
async function checkReference(q: Queryable, dict: Dictionary, c: Column, id: number | string, clientId: number): Promise<boolean> {
  const target = dict.byName.get(c.lookup!.tableName.toLowerCase());
  const key = target?.byName.get(c.lookup!.keyColumn.toLowerCase());
  if (!target || !key) return true;
  const hasClient = target.byName.has('ad_client_id');
  const { rows } = await q.query<{ c: number | null }>(
    `SELECT ${hasClient ? 't."ad_client_id"' : 'NULL'} AS c FROM ${ident(target.dbName)} t WHERE t.${ident(key.dbName)} = $1 ORDER BY 1 DESC LIMIT 1`,
    [id],
    { name: `fk_${target.dbName}_${key.dbName}`.slice(0, 60) },
  );
  const owner = rows[0]?.c;
  return rows.length > 0 && (!hasClient || Number(owner) === 0 || Number(owner) === clientId);
}
