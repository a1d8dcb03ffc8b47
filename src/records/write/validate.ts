import { ident } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { validationError } from './write-errors.js';

type Row = Record<string, unknown>;

/** Mandatory columns left empty, named together as the original does. */
export function checkMandatory(table: Table, row: Row): void {
  const missing = table.columns.filter((c) => isStored(c) && c.isMandatory && c !== table.keyColumn && (row[c.dbName] === null || row[c.dbName] === undefined || row[c.dbName] === ''));
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
    if ((c.kind === 'foreign-key' || c.kind === 'image') && c.lookup) await checkReference(q, dict, c, Number(v), clientId);
  }
}

/** A referenced record must exist in the caller's client or in System. */
async function checkReference(q: Queryable, dict: Dictionary, c: Column, id: number, clientId: number): Promise<void> {
  const target = dict.byName.get(c.lookup!.tableName.toLowerCase());
  const key = target?.byName.get(c.lookup!.keyColumn.toLowerCase());
  if (!target || !key) return;
  const hasClient = target.byName.has('ad_client_id');
  const { rows } = await q.query<{ c: number | null }>(
    `SELECT ${hasClient ? 't."ad_client_id"' : 'NULL'} AS c FROM ${ident(target.dbName)} t WHERE t.${ident(key.dbName)} = $1 LIMIT 1`,
    [id],
  );
  const owner = rows[0]?.c;
  if (!rows.length || (hasClient && owner !== 0 && Number(owner) !== clientId)) {
    throw validationError(`Foreign ID ${id} not found in ${c.name}`);
  }
}
