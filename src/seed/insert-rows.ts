import { ident } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { Column, Table } from '../dictionary/model.js';
import { isStored } from '../dictionary/ddl.js';
import { deterministicUuid } from './deterministic-uuid.js';

const SEED_USER = 100;
const MAX_PARAMS = 30000;

/**
 * The value a seed row gets for a column it leaves out: the literal part of the dictionary
 * default (quoted or not), now() for SYSDATE, and the row's own client/org for their context
 * variables. Defaults that need a session or a query do not apply to seed data.
 */
export function seedDefault(col: Column, row: Record<string, unknown>, now: string): unknown {
  const n = col.dbName;
  if (n === 'created' || n === 'updated') return now;
  if (n === 'createdby' || n === 'updatedby') return SEED_USER;
  if (n === 'isactive') return 'Y';
  const d = col.defaultValue?.trim();
  if (!d) return col.kind === 'boolean' && col.isMandatory ? 'N' : null;
  if (/^sysdate$/i.test(d) || d === '@#Date@') return now;
  const ctx = /^@#?(\w+)@$/.exec(d);
  if (ctx) return row[ctx[1]!.toLowerCase()] ?? null;
  if (d.startsWith('@')) return null;
  const unquoted = /^'(.*)'$/.exec(d)?.[1] ?? d;
  if (col.kind === 'integer' || col.kind === 'number' || col.kind === 'foreign-key') {
    const v = Number(unquoted);
    return Number.isFinite(v) ? v : null;
  }
  return unquoted;
}

export interface InsertSeedOptions {
  /** Leaves out rows whose key or UUID is already taken (seed rows that a later migration adds). */
  skipExisting?: boolean;
}

/** Inserts seed rows (keys are column names in any case) filling dictionary defaults and UUIDs. */
export async function insertSeedRows(db: Queryable, table: Table, rows: Record<string, unknown>[], now: string, options: InsertSeedOptions = {}): Promise<void> {
  if (rows.length === 0) return;
  const cols = table.columns.filter(isStored);
  const prepared = rows.map((raw, index) => {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      const lk = k.toLowerCase();
      if (!table.byName.has(lk)) throw new Error(`Seed row for ${table.name} names unknown column ${k}`);
      row[lk] = v;
    }
    const out: unknown[] = [];
    for (const c of cols) {
      let v = row[c.dbName];
      if (v === undefined) {
        v = c === table.uuColumn ? deterministicUuid(`${table.name}:${table.keyColumn ? row[table.keyColumn.dbName] : index}`) : seedDefault(c, row, now);
      }
      if (v !== null && c.kind === 'boolean' && typeof v === 'boolean') v = v ? 'Y' : 'N';
      if (v !== null && c.kind === 'json' && typeof v !== 'string') v = JSON.stringify(v);
      out.push(v);
    }
    return out;
  });
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  const colList = cols.map((c) => ident(c.dbName)).join(', ');
  const onConflict = options.skipExisting ? ' ON CONFLICT DO NOTHING' : '';
  for (let i = 0; i < prepared.length; i += perStatement) {
    const chunk = prepared.slice(i, i + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((r) => `(${r.map((v) => {
      values.push(v);
      return `$${values.length}`;
    }).join(', ')})`);
    try {
      await db.query(`INSERT INTO ${ident(table.dbName)} (${colList}) VALUES ${tuples.join(', ')}${onConflict}`, values);
    } catch (e) {
      throw new Error(`Seeding ${table.name} failed: ${e instanceof Error ? e.message : String(e)}${describeOffender(cols, chunk)}`);
    }
  }
}

/** Names the columns whose values exceed their declared length: the usual cause of a failed seed. */
function describeOffender(cols: Column[], rows: unknown[][]): string {
  const found = new Set<string>();
  for (const r of rows) {
    cols.forEach((c, i) => {
      const v = r[i];
      if (typeof v === 'string' && c.fieldLength > 0 && (c.kind === 'string' || c.kind === 'list' || c.kind === 'button' || c.kind === 'boolean') && v.length > c.fieldLength) {
        found.add(`${c.name} (max ${c.fieldLength}): '${v.slice(0, 40)}'`);
      }
    });
  }
  return found.size ? ` — too long: ${[...found].join(', ')}` : '';
}
