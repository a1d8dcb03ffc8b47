import type { Queryable, Tx } from '../db/types.js';
import { addColumnStatement, createTableStatements, isStored, sqlType, tableIndexes } from './ddl.js';
import type { Dictionary, Table } from './model.js';

export interface SchemaDifference {
  table: string;
  column?: string;
  index?: string;
  problem: 'missing table' | 'missing column' | 'extra column' | 'type differs' | 'missing index';
  expected?: string;
  actual?: string;
}

interface PhysicalColumn {
  table_name: string;
  column_name: string;
  type: string;
}

/** The physical columns of the current schema with their declared types. */
export async function physicalColumns(q: Queryable): Promise<Map<string, Map<string, string>>> {
  const { rows } = await q.query<PhysicalColumn>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let t = out.get(r.table_name);
    if (!t) out.set(r.table_name, (t = new Map()));
    t.set(r.column_name, r.type);
  }
  return out;
}

/** The names of the physical indexes of each table. */
async function physicalIndexes(q: Queryable): Promise<Map<string, Set<string>>> {
  const { rows } = await q.query<{ tablename: string; indexname: string }>(
    'SELECT tablename, indexname FROM pg_indexes WHERE schemaname = current_schema()',
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    let t = out.get(r.tablename);
    if (!t) out.set(r.tablename, (t = new Set()));
    t.add(r.indexname);
  }
  return out;
}

/** format_type spells types its own way; bring the generator's spelling to the same form. */
export function normaliseType(t: string): string {
  return t
    .replace(/^varchar\(/, 'character varying(')
    .replace(/^char\(/, 'character(')
    .replace(/^timestamp$/, 'timestamp without time zone')
    .replace(/^timestamptz$/, 'timestamp with time zone');
}

/** Compares the dictionary with the physical schema: tables, their columns and their indexes (by name). */
export async function compareSchema(q: Queryable, dict: Dictionary): Promise<SchemaDifference[]> {
  const physical = await physicalColumns(q);
  const indexes = await physicalIndexes(q);
  const diffs: SchemaDifference[] = [];
  for (const table of dict.tables) {
    if (table.isView) continue;
    const cols = physical.get(table.dbName);
    if (!cols) {
      diffs.push({ table: table.name, problem: 'missing table' });
      continue;
    }
    const stored = table.columns.filter(isStored);
    for (const c of stored) {
      const actual = cols.get(c.dbName);
      const expected = normaliseType(sqlType(c));
      if (actual === undefined) diffs.push({ table: table.name, column: c.name, problem: 'missing column', expected });
      else if (actual !== expected) diffs.push({ table: table.name, column: c.name, problem: 'type differs', expected, actual });
    }
    const known = new Set(stored.map((c) => c.dbName));
    for (const name of cols.keys()) if (!known.has(name)) diffs.push({ table: table.name, column: name, problem: 'extra column' });
    const present = indexes.get(table.dbName);
    for (const index of tableIndexes(table)) {
      if (!present?.has(index.name)) diffs.push({ table: table.name, index: index.name, problem: 'missing index' });
    }
  }
  return diffs;
}

/**
 * Brings the physical schema up to the dictionary: creates missing tables, adds missing columns
 * and creates missing indexes. It never drops or retypes (data would be lost); such differences
 * are reported, and so is a unique index the existing rows do not allow.
 */
export async function synchroniseSchema(q: Queryable, dict: Dictionary): Promise<SchemaDifference[]> {
  const diffs = await compareSchema(q, dict);
  const applied: SchemaDifference[] = [];
  for (const d of diffs) {
    const table = dict.byName.get(d.table.toLowerCase())!;
    if (d.problem === 'missing table') {
      for (const stmt of createTableStatements(table)) await q.query(stmt);
      applied.push(d);
    } else if (d.problem === 'missing column') {
      await q.query(addColumnStatement(table, table.byName.get(d.column!.toLowerCase())!));
      applied.push(d);
    } else if (d.problem === 'missing index' && (await createIndex(q, table, d.index!))) {
      applied.push(d);
    }
  }
  return applied;
}

const isTx = (q: Queryable): q is Tx => 'savepoint' in q;

/**
 * Creates one index of a table. Duplicate rows make a unique index fail; it is then left out
 * (compareSchema goes on reporting it) rather than failing the whole synchronisation, which
 * may be a migration that a start waits for. In a transaction a savepoint contains the failure.
 */
async function createIndex(q: Queryable, table: Table, name: string): Promise<boolean> {
  const statement = tableIndexes(table).find((i) => i.name === name)!.statement;
  try {
    if (isTx(q)) await q.savepoint((sp) => sp.query(statement));
    else await q.query(statement);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '23505') return false;
    throw e;
  }
}
