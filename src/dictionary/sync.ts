import { ident } from '../db/sql.js';
import type { Db, Queryable, Tx } from '../db/types.js';
import { addColumnStatement, createTableStatements, isStored, sqlType, tableIndexes, type IndexDefinition } from './ddl.js';
import type { Dictionary, Table } from './model.js';

export interface SchemaDifference {
  table: string;
  column?: string;
  index?: string;
  problem: 'missing table' | 'missing column' | 'extra column' | 'type differs' | 'missing index' | 'index differs';
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

/** The shape of a physical index, in the terms of IndexDefinition. */
export interface PhysicalIndex {
  unique: boolean;
  /** Key columns by name; null where the key is an expression. */
  keys: (string | null)[];
  include: string[];
  /** Whether the index has a WHERE clause (the dictionary describes none). */
  partial: boolean;
}

/** The physical indexes of each table, by table and index name. */
async function physicalIndexes(q: Queryable): Promise<Map<string, Map<string, PhysicalIndex>>> {
  // indkey is 0-based and holds 0 for an expression; its first indnkeyatts entries are the keys.
  const { rows } = await q.query<{ tablename: string; indexname: string; isunique: boolean; nkeys: number; columns: (string | null)[]; partial: boolean }>(
    `SELECT t.relname AS tablename, i.relname AS indexname, x.indisunique AS isunique, x.indnkeyatts::int AS nkeys,
            ARRAY(SELECT a.attname::text FROM generate_series(0, x.indnatts - 1) k
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[k] AND x.indkey[k] <> 0
                   ORDER BY k) AS columns,
            x.indpred IS NOT NULL AS partial
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema()`,
  );
  const out = new Map<string, Map<string, PhysicalIndex>>();
  for (const r of rows) {
    let t = out.get(r.tablename);
    if (!t) out.set(r.tablename, (t = new Map()));
    t.set(r.indexname, { unique: r.isunique, keys: r.columns.slice(0, r.nkeys), include: r.columns.slice(r.nkeys) as string[], partial: r.partial });
  }
  return out;
}

/**
 * Whether a physical index has the shape of its definition. Expression keys are compared by
 * position only: PostgreSQL keeps an expression in its own spelling, not as the dictionary wrote it.
 */
export function indexMatches(expected: IndexDefinition, actual: PhysicalIndex): boolean {
  if (expected.unique !== actual.unique || actual.partial) return false;
  if (expected.keys.length !== actual.keys.length || expected.include.length !== actual.include.length) return false;
  const keysMatch = expected.keys.every((k, i) => ('column' in k ? actual.keys[i] === k.column : actual.keys[i] === null));
  return keysMatch && expected.include.every((c, i) => actual.include[i] === c);
}

/** An index's shape in one line, for reports: "UNIQUE (a, <expression>) INCLUDE (b)". */
export function describeIndex(index: { unique: boolean; keys: (string | null)[]; include: string[]; partial?: boolean }): string {
  const keys = index.keys.map((k) => k ?? '<expression>').join(', ');
  const include = index.include.length ? ` INCLUDE (${index.include.join(', ')})` : '';
  return `${index.unique ? 'UNIQUE ' : ''}(${keys})${include}${index.partial ? ' WHERE …' : ''}`;
}

const expectedShape = (i: IndexDefinition) => ({ unique: i.unique, keys: i.keys.map((k) => ('column' in k ? k.column : null)), include: i.include });

/** format_type spells types its own way; bring the generator's spelling to the same form. */
export function normaliseType(t: string): string {
  return t
    .replace(/^varchar\(/, 'character varying(')
    .replace(/^char\(/, 'character(')
    .replace(/^timestamp$/, 'timestamp without time zone')
    .replace(/^timestamptz$/, 'timestamp with time zone');
}

/** Compares the dictionary with the physical schema: tables, their columns and their indexes. */
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
      const actual = present?.get(index.name);
      if (!actual) diffs.push({ table: table.name, index: index.name, problem: 'missing index' });
      else if (!indexMatches(index, actual)) {
        diffs.push({ table: table.name, index: index.name, problem: 'index differs', expected: describeIndex(expectedShape(index)), actual: describeIndex(actual) });
      }
    }
  }
  return diffs;
}

/**
 * Brings the physical schema up to the dictionary: creates missing tables, adds missing columns,
 * creates missing indexes and rebuilds indexes whose shape differs. It never drops columns or
 * retypes them (data would be lost); such differences are reported, and so is a unique index the
 * existing rows do not allow.
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
    } else if ((d.problem === 'missing index' || d.problem === 'index differs') && (await createIndex(q, table, d.index!, d.problem === 'index differs'))) {
      applied.push(d);
    }
  }
  return applied;
}

const isTx = (q: Queryable): q is Tx => 'savepoint' in q;
const isDb = (q: Queryable): q is Db => 'tx' in q;

/** Runs the work so that a failure undoes all of it: in a savepoint, or in a transaction of its own. */
function atomically(q: Queryable, work: (q: Queryable) => Promise<void>): Promise<void> {
  if (isTx(q)) return q.savepoint(work);
  if (isDb(q)) return q.tx(work);
  return work(q);
}

/**
 * Creates one index of a table, or drops and creates it again (`rebuild`) when its shape differs.
 * Duplicate rows make a unique index fail; it is then left out, or the old index kept
 * (compareSchema goes on reporting it), rather than failing the whole synchronisation, which
 * may be a migration that a start waits for.
 */
async function createIndex(q: Queryable, table: Table, name: string, rebuild: boolean): Promise<boolean> {
  const statement = tableIndexes(table).find((i) => i.name === name)!.statement;
  try {
    await atomically(q, async (w) => {
      if (rebuild) await w.query(`DROP INDEX IF EXISTS ${ident(name)}`);
      await w.query(statement);
    });
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '23505') return false;
    throw e;
  }
}
