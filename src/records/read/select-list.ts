import { ident } from '../../db/sql.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import type { SelectItem } from './packed-row.js';
import { sqlType } from '../../dictionary/ddl.js';
import { hasTextKey } from '../reference-key.js';
import { keptIdentifiersOf } from './identifier-cache.js';

/** Suffixes of the extra result columns that carry a lookup's identifier and an image's data. */
export const IDENT_SUFFIX = '$i';
export const DATA_SUFFIX = '$d';

/** Hands out the aliases of one statement's identifier subqueries: the same columns give the same text. */
export class AliasSource {
  #n = 0;
  next(): string {
    return `r${++this.#n}`;
  }
}

/** The columns that make up a table's identifier (display text), best first. */
export function identifierColumns(table: Table): Column[] {
  if (table.identifiers.length) return table.identifiers;
  const fallback = table.byName.get('name') ?? table.byName.get('value') ?? table.byName.get('documentno') ?? table.keyColumn;
  return fallback ? [fallback] : [];
}

/**
 * SQL for the identifier of the record that `fkExpr` points at in `target`: its identifier
 * columns joined by '_', following a lookup inside the identifier one level further (an order
 * line is shown by its order's document number).
 */
export function identifierSql(dict: Dictionary, target: Table, keyColumn: string, fkExpr: string, displayColumn: string | null, aliases: AliasSource = new AliasSource(), depth = 0): string | null {
  const key = target.byName.get(keyColumn.toLowerCase());
  if (!key) return null;
  const a = aliases.next();
  const expr = identifierOfRow(dict, target, a, displayColumn, aliases, depth);
  if (!expr) return null;
  return whenNotNull(fkExpr, `(SELECT ${expr} FROM ${ident(target.dbName)} ${a} WHERE ${a}.${ident(key.dbName)} = ${fkExpr} LIMIT 1)`);
}

/** The identifier of the row of `target` under alias `a`, as identifierSql reads it. */
export function identifierOfRow(dict: Dictionary, target: Table, a: string, displayColumn: string | null, aliases: AliasSource, depth = 0): string | null {
  const cols = displayColumn ? [target.byName.get(displayColumn.toLowerCase())].filter((c): c is Column => !!c) : identifierColumns(target);
  if (!cols.length) return null;
  const parts = cols.map((c) => {
    const colExpr = `${a}.${ident(c.dbName)}`;
    if (c.kind === 'foreign-key' && c.lookup && depth < 1) {
      const inner = dict.byName.get(c.lookup.tableName.toLowerCase());
      const nested = inner && identifierSql(dict, inner, c.lookup.keyColumn, colExpr, c.lookup.displayColumn, aliases, depth + 1);
      if (nested) return nested;
    }
    return `${colExpr}::text`;
  });
  return parts.length === 1 ? parts[0]! : `concat_ws('_', ${parts.join(', ')})`;
}

/**
 * A lookup by a key that may be null, run only when it is not: most optional keys of a row are
 * empty, and a subquery that cannot match still costs its executor start (about a quarter of a
 * list page's database time for business partners). The answer is the same: null.
 */
function whenNotNull(keyExpr: string, lookup: string): string {
  return `CASE WHEN ${keyExpr} IS NOT NULL THEN ${lookup} END`;
}

/**
 * A lookup column's value as its target key's type. Lookups of ids are stored as numbers (see
 * sqlType); one stored as text that points at a numeric key not named *_ID has its digits
 * compared as a number, anything else matching nothing.
 */
export function lookupKeyExpr(dict: Dictionary, c: Column, valueExpr: string): string {
  if (c.columnSql || hasTextKey(dict, c) || sqlType(c) === 'bigint') return valueExpr;
  return `CASE WHEN ${valueExpr} ~ '^[0-9]{1,18}$' THEN (${valueExpr})::bigint END`;
}

/**
 * How a column's text in a packed row becomes the value its plain column gives: by the type it
 * is stored as; a computed column by the type its kind would be stored as, and a boolean one as
 * the t/f of an SQL boolean too.
 */
export function decodeOf(c: Column): SelectItem['decode'] {
  if (c.columnSql && c.kind === 'boolean') return 'boolean';
  const type = sqlType(c);
  if (type === 'bigint' || type === 'numeric') return 'number';
  if (type === 'bytea') return 'binary';
  if (type === 'jsonb') return 'json';
  return undefined;
}

/**
 * What a read of a set of output columns of one table alias fetches: the stored values, plus the
 * identifier of every lookup and the data of every image, in the same statement.
 */
export function selectItems(dict: Dictionary, table: Table, columns: Column[], alias: string): SelectItem[] {
  const a = ident(alias);
  const aliases = new AliasSource();
  const out: SelectItem[] = [];
  for (const c of columns) {
    const valueExpr = c.columnSql ? `(${c.columnSql})` : `${a}.${ident(c.dbName)}`;
    out.push({ expr: valueExpr, name: c.dbName, decode: decodeOf(c) });
    const kept = keptIdentifiersOf(dict, c);
    if (kept) {
      // Taken from memory after the statement: no lookup per row.
      out.push({ expr: 'NULL', name: c.dbName + IDENT_SUFFIX, kept: { source: kept, keyAt: out.length - 1 } });
    } else if (c.kind === 'foreign-key' && c.lookup) {
      const target = dict.byName.get(c.lookup.tableName.toLowerCase());
      const sql = target && identifierSql(dict, target, c.lookup.keyColumn, lookupKeyExpr(dict, c, valueExpr), c.lookup.displayColumn, aliases);
      if (sql) out.push({ expr: sql, name: c.dbName + IDENT_SUFFIX });
    } else if (c.kind === 'image') {
      out.push({ expr: whenNotNull(valueExpr, `(SELECT encode(img.binarydata, 'base64') FROM ad_image img WHERE img.ad_image_id = ${valueExpr})`), name: c.dbName + DATA_SUFFIX });
    }
  }
  return out;
}
