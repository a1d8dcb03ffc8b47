import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { sqlType } from '../../dictionary/ddl.js';
import { referenceTarget } from '../reference-key.js';
import { identifierColumns } from './select-list.js';

/**
 * Whether the identifiers of a table's records may be kept in memory, by the dictionary alone:
 * a stored table with a numeric key and an identifier. Documents and their lines (they carry
 * Processed) are left out: the document engine writes their numbers with plain statements that
 * raise no model event, so no notification would tell that they changed.
 */
function mayKeepIdentifiers(table: Table): boolean {
  return !table.isView && !!table.keyColumn && sqlType(table.keyColumn) === 'bigint' && !table.byName.has('processed') && identifierColumns(table).length > 0;
}

/**
 * The table whose kept identifiers a lookup column may show, or null when its identifier must be
 * read by the statement: the column must hold the target's own numeric key, as stored.
 */
export function keptIdentifierTarget(dict: Dictionary, column: Column): Table | null {
  if (column.kind !== 'foreign-key' || !column.lookup || column.columnSql) return null;
  if (sqlType(column) !== 'bigint') return null;
  const { target, key } = referenceTarget(dict, column);
  if (!target || !key || key !== target.keyColumn || !mayKeepIdentifiers(target)) return null;
  return target;
}

/** The column a lookup shows instead of its target's identifier, lower case ('' for the identifier). */
export function displayOf(column: Column): string {
  return column.lookup?.displayColumn?.toLowerCase() ?? '';
}

/** The tables an identifier of `table` reads: its own, and the one a lookup inside it shows (see identifierOfRow). */
export function identifierTables(dict: Dictionary, table: Table): string[] {
  return [...identifierSources(dict).entries()].filter(([, s]) => s.shownBy.has(table.dbName)).map(([name]) => name);
}

interface IdentifierSource {
  /** Physical names of the columns whose values go into the identifiers. */
  columns: Set<string>;
  /** Tables whose identifiers show these columns. */
  shownBy: Set<string>;
}

const sourcesByDictionary = new WeakMap<Dictionary, Map<string, IdentifierSource>>();

/**
 * Per table, the columns whose change alters an identifier that may be kept, its own or one that
 * shows it one lookup further. Decided by the dictionary alone, so that every instance notifies
 * the same changes whatever it keeps itself.
 */
export function identifierSources(dict: Dictionary): Map<string, IdentifierSource> {
  let sources = sourcesByDictionary.get(dict);
  if (sources) return sources;
  sources = new Map();
  const add = (table: Table, columns: Column[], shownBy: Table) => {
    let s = sources!.get(table.dbName);
    if (!s) sources!.set(table.dbName, (s = { columns: new Set(), shownBy: new Set() }));
    for (const c of columns) s.columns.add(c.dbName);
    s.shownBy.add(shownBy.dbName);
  };
  const shownAlone = (inner: Table, c: Column): Column[] =>
    c.lookup!.displayColumn ? [inner.byName.get(c.lookup!.displayColumn.toLowerCase())].filter((x): x is Column => !!x) : identifierColumns(inner);
  for (const table of dict.tables) {
    // A lookup that shows a display column of its target shows that column's value.
    for (const c of table.columns) {
      const target = c.lookup?.displayColumn ? keptIdentifierTarget(dict, c) : null;
      if (target) add(target, shownAlone(target, c), target);
    }
    if (!mayKeepIdentifiers(table)) continue;
    const own = identifierColumns(table);
    add(table, own, table);
    for (const c of own) {
      const inner = c.kind === 'foreign-key' && c.lookup ? dict.byName.get(c.lookup.tableName.toLowerCase()) : undefined;
      if (!inner) continue;
      add(inner, shownAlone(inner, c), table);
    }
  }
  sourcesByDictionary.set(dict, sources);
  return sources;
}

const commonByDictionary = new WeakMap<Dictionary, Set<string>>();

/**
 * Whether every stored table has this column (tenant, organisation, created by, updated by):
 * its values are the few tenants, organisations and users that write, so their identifiers are
 * worth keeping however many rows the target holds (a user table also holds every contact).
 */
export function everyTableHas(dict: Dictionary, column: Column): boolean {
  let common = commonByDictionary.get(dict);
  if (!common) {
    const stored = dict.tables.filter((t) => !t.isView);
    common = new Set(stored.length ? stored[0]!.columns.map((c) => c.dbName).filter((name) => stored.every((t) => t.byName.has(name))) : []);
    commonByDictionary.set(dict, common);
  }
  return common.has(column.dbName);
}
