import { ident } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { DisplayType } from '../../dictionary/display-type.js';
import { hasTextKey, referenceTarget } from '../reference-key.js';
import { validationError } from './write-errors.js';
import { runNamed } from '../read/statements.js';
import { mandatoryColumns } from './table-columns.js';

type Row = Record<string, unknown>;

/**
 * Mandatory columns left empty, named together as the original does. `only` limits the check
 * to the columns an update changes (a stored record is not re-judged for columns left alone).
 */
export function checkMandatory(table: Table, row: Row, only?: Set<string>): void {
  const missing = mandatoryColumns(table).filter((c) => (!only || only.has(c.dbName)) && (row[c.dbName] === null || row[c.dbName] === undefined || row[c.dbName] === ''));
  if (missing.length) throw validationError(`Fill mandatory fields: ${missing.map((c) => c.name).join(', ')}`);
}

/** Length, list values and references of the columns a write sets. */
export async function checkValues(q: Queryable, dict: Dictionary, table: Table, row: Row, columns: Iterable<Column>, clientId: number): Promise<void> {
  const references = checkLocalValues(dict, table, row, columns);
  if (references.length) await verifyReferences(q, [{ row, clientId, references }]);
}

/**
 * The checks a row's values pass without the database (length, list values); returns the
 * references still to be verified, which verifyReferences does for many rows at once.
 */
export function checkLocalValues(dict: Dictionary, table: Table, row: Row, columns: Iterable<Column>): ReferenceCheck[] {
  const references: ReferenceCheck[] = [];
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
      const check = referenceCheck(dict, c, hasTextKey(dict, c) ? String(v) : Number(v));
      if (check) references.push(check);
    }
  }
  return references;
}

/** The references of some rows, each to be found in the row's client or System. */
export interface RowReferences {
  row: Row;
  clientId: number;
  references: ReferenceCheck[];
}

/**
 * Verifies the references of several rows in one statement (a record referenced by many rows,
 * like the order all lines point at, is looked up once). An id of 0 for an optional reference
 * whose table has no record 0 means "none" and becomes null.
 */
export async function verifyReferences(q: Queryable, rows: RowReferences[]): Promise<void> {
  const distinct = new Map<string, ReferenceCheck>();
  const keyOf = referenceKeys();
  // Each reference's key is made once: a statement of a thousand lines has some thousands, most naming the same few records.
  const keys: string[][] = [];
  for (const r of rows) {
    const ofRow: string[] = [];
    for (const c of r.references) {
      const key = keyOf(c);
      ofRow.push(key);
      if (!distinct.has(key)) distinct.set(key, c);
    }
    keys.push(ofRow);
  }
  if (!distinct.size) return;
  const owners = await referenceOwners(q, [...distinct.values()]);
  const ownerOf = new Map([...distinct.keys()].map((k, i) => [k, owners[i]]));
  for (let i = 0; i < rows.length; i++) {
    const { row, clientId, references } = rows[i]!;
    for (let j = 0; j < references.length; j++) {
      const r = references[j]!;
      const owner = ownerOf.get(keys[i]![j]!);
      const found = owner !== null && owner !== undefined && (owner === NO_CLIENT || owner === 0 || owner === clientId);
      if (!found && Number(r.id) === 0 && !r.column.isMandatory) row[r.column.dbName] = null;
      else if (!found) throw validationError(`Foreign ID ${String(r.id)} not found in ${r.column.name}`);
    }
  }
}

/** The text naming a referenced record (table, key column, id), made once per record for one verification. */
function referenceKeys(): (r: ReferenceCheck) => string {
  const byKeyColumn = new Map<Column, Map<number | string, string>>();
  return (r) => {
    let ids = byKeyColumn.get(r.key);
    if (!ids) byKeyColumn.set(r.key, (ids = new Map()));
    let key = ids.get(r.id);
    if (key === undefined) ids.set(r.id, (key = `${r.target.dbName}.${r.key.dbName}:${String(r.id)}`));
    return key;
  };
}

export interface ReferenceCheck {
  column: Column;
  target: Table;
  key: Column;
  id: number | string;
}

/** Marks a referenced record of a table without a client column. */
const NO_CLIENT = -1;

function referenceCheck(dict: Dictionary, c: Column, id: number | string): ReferenceCheck | null {
  const { target, key } = referenceTarget(dict, c);
  return target && key ? { column: c, target, key, id } : null;
}

/**
 * The client owning each referenced record (NO_CLIENT for tables without one, null when there is
 * no such record), for all references of a row in one statement: a row of an order line names
 * a dozen other records, and one round trip per reference would dominate the write.
 */
async function referenceOwners(q: Queryable, checks: ReferenceCheck[]): Promise<(number | null)[]> {
  const values: unknown[] = [];
  const items = checks.map((r, i) => {
    values.push(r.id);
    const owner = r.target.byName.has('ad_client_id') ? 'coalesce(t."ad_client_id", 0)' : String(NO_CLIENT);
    return `(SELECT ${owner} FROM ${ident(r.target.dbName)} t WHERE t.${ident(r.key.dbName)} = $${values.length} ORDER BY 1 DESC LIMIT 1) AS c${i}`;
  });
  const { rows } = await runNamed<Row>(q, `SELECT ${items.join(', ')}`, values);
  return checks.map((_, i) => {
    const v = rows[0]?.[`c${i}`];
    return v === null || v === undefined ? null : Number(v);
  });
}
