import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';

/**
 * Subsets of a table's columns that every new row is checked against, listed once per table
 * (a dictionary snapshot's tables are immutable): a statement of a thousand lines would
 * otherwise walk all columns of its table a few times per line.
 */
function cachedPerTable(pick: (table: Table, c: Column) => boolean): (table: Table) => readonly Column[] {
  const lists = new WeakMap<Table, readonly Column[]>();
  return (table) => {
    let list = lists.get(table);
    if (!list) lists.set(table, (list = table.columns.filter((c) => pick(table, c))));
    return list;
  };
}

/** Stored mandatory columns other than the key: the ones a new row must fill. */
export const mandatoryColumns = cachedPerTable((t, c) => isStored(c) && c.isMandatory && c !== t.keyColumn);

/** Stored mandatory columns, key and UUID aside: those that take a fallback value when left empty. */
export const fallbackColumns = cachedPerTable((t, c) => isStored(c) && c.isMandatory && c !== t.keyColumn && c !== t.uuColumn);

/** Columns whose values have local checks (length, list values) or a reference to verify. */
export const checkedColumns = cachedPerTable(
  (_t, c) => ((c.kind === 'string' || c.kind === 'list' || c.kind === 'button') && c.fieldLength > 0) || (c.kind === 'list' && c.listReferenceId !== null) || ((c.kind === 'foreign-key' || c.kind === 'image') && !!c.lookup),
);
