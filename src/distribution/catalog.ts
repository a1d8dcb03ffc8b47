import type { Queryable } from '../db/types.js';

/** A physical table as the catalog shows it, with its unique indexes and foreign keys. */
export interface CatalogTable {
  schema: string;
  name: string;
  columns: string[];
  uniqueIndexes: CatalogIndex[];
  foreignKeys: CatalogForeignKey[];
}

export interface CatalogIndex {
  name: string;
  primary: boolean;
  partial: boolean;
  /** Key columns in order; an expression shows as "(expression)". */
  columns: string[];
}

export interface CatalogForeignKey {
  name: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
}

/** The schemas a Dictum database uses: the service's (current_schema) and its internal one. */
const SCHEMAS = `(current_schema(), 'dictum')`;

/** Reads tables, unique indexes (primary keys included) and foreign keys of the service's schemas from pg_catalog. */
export async function readCatalog(db: Queryable): Promise<CatalogTable[]> {
  const tables = await db.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            ARRAY(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname IN ${SCHEMAS}
      ORDER BY n.nspname, c.relname`,
  );
  const indexes = await db.query<{ schema: string; table: string; name: string; primary: boolean; partial: boolean; columns: string[] }>(
    `SELECT n.nspname AS schema, t.relname AS table, i.relname AS name, x.indisprimary AS primary, x.indpred IS NOT NULL AS partial,
            ARRAY(SELECT COALESCE(a.attname::text, '(expression)')
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum AND k.attnum > 0
                   WHERE k.ord <= x.indnkeyatts ORDER BY k.ord) AS columns
       FROM pg_index x
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE x.indisunique AND n.nspname IN ${SCHEMAS}
      ORDER BY n.nspname, t.relname, i.relname`,
  );
  const keys = await db.query<{ schema: string; table: string; name: string; ref_schema: string; ref_table: string; columns: string[]; ref_columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS table, con.conname AS name, fn.nspname AS ref_schema, f.relname AS ref_table,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS ref_columns
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class f ON f.oid = con.confrelid JOIN pg_namespace fn ON fn.oid = f.relnamespace
      WHERE con.contype = 'f' AND n.nspname IN ${SCHEMAS}
      ORDER BY n.nspname, c.relname, con.conname`,
  );
  const key = (schema: string, table: string): string => `${schema}.${table}`;
  const byName = new Map<string, CatalogTable>();
  for (const t of tables.rows) byName.set(key(t.schema, t.name), { schema: t.schema, name: t.name, columns: t.columns, uniqueIndexes: [], foreignKeys: [] });
  for (const i of indexes.rows) byName.get(key(i.schema, i.table))?.uniqueIndexes.push({ name: i.name, primary: i.primary, partial: i.partial, columns: i.columns });
  for (const k of keys.rows) {
    byName.get(key(k.schema, k.table))?.foreignKeys.push({ name: k.name, columns: k.columns, refSchema: k.ref_schema, refTable: k.ref_table, refColumns: k.ref_columns });
  }
  return [...byName.values()];
}
