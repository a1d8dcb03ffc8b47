import { ident } from '../db/sql.js';
import { DisplayType } from './display-type.js';
import type { Column, Table } from './model.js';

/** PostgreSQL type of a stored column, derived from its display type, name and length. */
export function sqlType(col: Column): string {
  const ref = col.referenceId;
  const len = col.fieldLength > 0 ? col.fieldLength : 0;
  const varchar = len > 0 ? `varchar(${len})` : 'text';
  switch (col.kind) {
    case 'boolean':
      return 'char(1)';
    case 'foreign-key':
      // Lookups keyed by a code (EntityType, AD_Language) store the code itself.
      return /(_ID|tedBy|_Acct)$/i.test(col.name) ? 'bigint' : varchar;
    case 'integer':
    case 'record-id':
      return 'bigint';
    case 'number':
      return 'numeric';
    case 'date':
    case 'datetime':
    case 'time':
      return 'timestamp';
    case 'timestamptz':
      return 'timestamptz';
    case 'binary':
      return 'bytea';
    case 'image':
      return 'bigint';
    case 'json':
      return 'jsonb';
    case 'list':
      return len === 1 ? 'char(1)' : varchar;
    case 'button':
      return len > 0 ? `varchar(${len})` : 'varchar(1)';
    default:
      if (ref === DisplayType.TextLong) return 'text';
      if (ref === DisplayType.Text && (len === 0 || len >= 4000)) return 'text';
      return varchar;
  }
}

export const isStored = (col: Column): boolean => !col.columnSql;

/** Name of the database sequence that hands out ids of a table. */
export const idSequenceName = (table: Table): string => `${table.dbName}_sq`;

export function createTableStatements(table: Table, idStart = 1_000_000): string[] {
  const cols = table.columns.filter(isStored).map((c) => `${ident(c.dbName)} ${sqlType(c)}${c.isKey && table.keyColumn === c ? ' NOT NULL PRIMARY KEY' : ''}`);
  const stmts = [`CREATE TABLE IF NOT EXISTS ${ident(table.dbName)} (${cols.join(', ')})`];
  stmts.push(...indexStatements(table));
  if (table.keyColumn) stmts.push(`CREATE SEQUENCE IF NOT EXISTS ${ident(idSequenceName(table))} START ${idStart}`);
  return stmts;
}

/** Indexes every table gets: unique UUID, parent links (for detail reads) and client + identifier. */
export function indexStatements(table: Table): string[] {
  const out: string[] = [];
  const t = table.dbName;
  if (table.uuColumn) out.push(`CREATE UNIQUE INDEX IF NOT EXISTS ${ident(`${t}_uu_idx`)} ON ${ident(t)} (${ident(table.uuColumn.dbName)})`);
  for (const p of table.parentColumns) {
    if (p.columnSql) continue;
    out.push(`CREATE INDEX IF NOT EXISTS ${ident(`${t}_${p.dbName}_idx`.slice(0, 63))} ON ${ident(t)} (${ident(p.dbName)})`);
  }
  const client = table.byName.get('ad_client_id');
  const firstIdentifier = table.identifiers.find((c) => !c.columnSql);
  if (client && firstIdentifier) {
    out.push(
      `CREATE INDEX IF NOT EXISTS ${ident(`${t}_client_ident_idx`.slice(0, 63))} ON ${ident(t)} (${ident(client.dbName)}, ${ident(firstIdentifier.dbName)})`,
    );
  }
  return out;
}

export function addColumnStatement(table: Table, col: Column): string {
  return `ALTER TABLE ${ident(table.dbName)} ADD COLUMN IF NOT EXISTS ${ident(col.dbName)} ${sqlType(col)}`;
}
