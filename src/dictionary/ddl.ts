import { ident } from '../db/sql.js';
import { DisplayType } from './display-type.js';
import { DISTRIBUTION_COLUMN, dictionaryTableDistribution } from './distribution.js';
import type { Column, IndexColumn, Table, TableIndex } from './model.js';

/** PostgreSQL type of a stored column, derived from its display type, name and length. */
export function sqlType(col: Column): string {
  const ref = col.referenceId;
  const len = col.fieldLength > 0 ? col.fieldLength : 0;
  const varchar = len > 0 ? `varchar(${len})` : 'text';
  switch (col.kind) {
    case 'boolean':
      return 'char(1)';
    case 'foreign-key':
      // A lookup stores its target's key: a number when that key is an id, whatever the column's
      // own name (C_Currency_ID_To, CreatedBy, *_Acct, AD_Ref_Table.AD_Key); the code itself when
      // the target is keyed by a code (EntityType, AD_Language).
      return /_ID$/i.test(col.lookup?.keyColumn ?? col.name) ? 'bigint' : varchar;
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

/**
 * AD_Client_ID when the table would be distributed by it (distribution.ts) and stores it, else null.
 * Such a table's primary key and UUID index end with it, as a distributed PostgreSQL (Citus)
 * requires; ids and UUIDs are unique across clients anyway (sequences, generated UUIDs).
 */
export function distributionKeyColumn(table: Table): string | null {
  const column = table.byName.get(DISTRIBUTION_COLUMN);
  return column && isStored(column) && dictionaryTableDistribution(table) === 'distributed' ? column.dbName : null;
}

/** The primary key's columns: the key column, followed by AD_Client_ID on a distributed table. */
export function primaryKeyColumns(table: Table): string[] {
  if (!table.keyColumn || !isStored(table.keyColumn)) return [];
  const shard = distributionKeyColumn(table);
  return shard ? [table.keyColumn.dbName, shard] : [table.keyColumn.dbName];
}

export function createTableStatements(table: Table, idStart = 1_000_000): string[] {
  const cols = table.columns.filter(isStored).map((c) => `${ident(c.dbName)} ${sqlType(c)}${c.isKey && table.keyColumn === c ? ' NOT NULL' : ''}`);
  const key = primaryKeyColumns(table);
  if (key.length) cols.push(`PRIMARY KEY (${key.map(ident).join(', ')})`);
  const stmts = [`CREATE TABLE IF NOT EXISTS ${ident(table.dbName)} (${cols.join(', ')})`];
  stmts.push(...indexStatements(table));
  if (table.keyColumn) stmts.push(`CREATE SEQUENCE IF NOT EXISTS ${ident(idSequenceName(table))} START ${idStart}`);
  return stmts;
}

/**
 * An index of a physical table: its name, its shape (to compare with the index of that name the
 * database holds) and the statement that creates it when it is missing.
 */
export interface IndexDefinition {
  name: string;
  unique: boolean;
  /** Key columns (physical names) or expressions (dictionary SQL), in order. */
  keys: IndexColumn[];
  /** Included (INCLUDE) columns, physical names in order. */
  include: string[];
  statement: string;
}

function indexDefinition(table: Table, name: string, unique: boolean, keys: IndexColumn[], include: string[] = []): IndexDefinition {
  // PostgreSQL cuts longer names to 63 characters; cutting them here keeps the name we look for the one it keeps.
  const n = name.slice(0, 63);
  // An expression is dictionary SQL, used as written; parentheses make any expression valid here.
  const columns = keys.map((k) => ('column' in k ? ident(k.column) : `(${k.expression})`));
  const included = include.length ? ` INCLUDE (${include.map((c) => ident(c)).join(', ')})` : '';
  return {
    name: n,
    unique,
    keys,
    include,
    statement: `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${ident(n)} ON ${ident(table.dbName)} (${columns.join(', ')})${included}`,
  };
}

/** Name of the built-in index on the first identifier of a table. */
export const identifierIndexName = (table: Table): string => `${table.dbName}_ident_idx`.slice(0, 63);

/**
 * The dictionary index whose first key column is the table's first identifier, if any. It returns
 * rows in identifier order as the built-in identifier index would, so that one is not created.
 */
export function identifierIndexReplacement(table: Table): TableIndex | undefined {
  const firstIdentifier = table.identifiers.find((c) => !c.columnSql);
  if (!firstIdentifier) return undefined;
  return table.indexes.find((index) => {
    const lead = index.columns[0];
    return lead !== undefined && 'column' in lead && lead.column === firstIdentifier.dbName;
  });
}

/**
 * The indexes of a table: first those every table gets (unique UUID, parent links for detail
 * reads, first identifier), then the ones its dictionary entry asks for (AD_TableIndex), with
 * their included (INCLUDE) columns.
 */
export function tableIndexes(table: Table): IndexDefinition[] {
  const out: IndexDefinition[] = [];
  const t = table.dbName;
  const shard = distributionKeyColumn(table);
  if (table.uuColumn) out.push(indexDefinition(table, `${t}_uu_idx`, true, [{ column: table.uuColumn.dbName }, ...(shard ? [{ column: shard }] : [])]));
  for (const p of table.parentColumns) {
    if (p.columnSql) continue;
    out.push(indexDefinition(table, `${t}_${p.dbName}_idx`, false, [{ column: p.dbName }]));
  }
  const client = table.byName.get('ad_client_id');
  const firstIdentifier = table.identifiers.find((c) => !c.columnSql);
  // The identifier alone, not behind the client: reads see their client's and System's rows
  // (AD_Client_ID IN (0, n)), and only an index led by the identifier returns those in identifier
  // order, so that a page ordered by name stops after its rows instead of sorting every match.
  // A dictionary index led by the identifier does that too; a second one would only slow writes.
  if (client && firstIdentifier && !identifierIndexReplacement(table)) {
    out.push(indexDefinition(table, identifierIndexName(table), false, [{ column: firstIdentifier.dbName }]));
  }
  for (const index of table.indexes) out.push(indexDefinition(table, index.name, index.unique, index.columns, index.include));
  return out;
}

export const indexStatements = (table: Table): string[] => tableIndexes(table).map((i) => i.statement);

export function addColumnStatement(table: Table, col: Column): string {
  return `ALTER TABLE ${ident(table.dbName)} ADD COLUMN IF NOT EXISTS ${ident(col.dbName)} ${sqlType(col)}`;
}
