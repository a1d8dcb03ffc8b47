import { readPredicate } from '../../access/access.js';
import { ident, type SqlBuilder } from '../../db/sql.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { FilterNode } from '../query/filter-ast.js';
import type { OrderItem } from '../query/orderby-parser.js';
import { filterToSql, mentionsColumn } from './filter-sql.js';
import type { ReadContext } from './read-context.js';
import { findQueryColumn, resolveQueryColumn } from './resolve-column.js';

export interface WhereOptions {
  filter?: FilterNode;
  label?: FilterNode;
  /** Lists show active records only, unless their filter names IsActive. */
  activeOnly: boolean;
  /** An extra condition already rendered against the same builder (validation rule). */
  extra?: string;
}

/** The conditions of a read of one table alias: access first, then the caller's options. */
export function whereClause(rc: ReadContext, table: Table, alias: string, sql: SqlBuilder, o: WhereOptions): string[] {
  const parts = [readPredicate(rc.auth, table, alias, sql)];
  if (o.activeOnly && table.byName.has('isactive') && !mentionsColumn(o.filter, 'isactive')) parts.push(`${ident(alias)}."isactive" = 'Y'`);
  if (o.filter) parts.push(filterToSql(o.filter, table, alias, sql, { prefixRange: rc.prefixRange ?? false, dict: rc.dict }));
  if (o.extra) parts.push(o.extra);
  if (o.label) parts.push(labelCondition(rc, table, alias, o.label, sql));
  return parts;
}

/** Records carrying a label that matches the label filter (over AD_Label columns). */
function labelCondition(rc: ReadContext, table: Table, alias: string, label: FilterNode, sql: SqlBuilder): string {
  const labelTable = rc.dict.byName.get('ad_label');
  if (!labelTable || !table.keyColumn) throw badRequest('Invalid label', `Records of ${table.name} cannot carry labels`);
  const cond = filterToSql(label, labelTable, 'lbl', sql, { title: 'Invalid label', prefixRange: rc.prefixRange ?? false, dict: rc.dict });
  return `EXISTS (SELECT 1 FROM "ad_labelassignment" la JOIN "ad_label" lbl ON lbl."ad_label_id" = la."ad_label_id"
    WHERE la."ad_table_id" = ${sql.param(table.id)} AND la."record_id" = ${ident(alias)}.${ident(table.keyColumn.dbName)}
      AND la."isactive" = 'Y' AND lbl."isactive" = 'Y' AND lbl."ad_client_id" IN (0, ${sql.param(rc.auth.clientId)}) AND ${cond})`;
}

/**
 * `$orderby` entries split by whether the table has their column. The original leaves out entries
 * it cannot use and still answers 2xx; unknown, secure and encrypted columns are left out alike.
 */
export function splitOrderBy(table: Table, order: OrderItem[] | undefined): { known: OrderItem[] | undefined; ignored: string[] } {
  if (!order) return { known: undefined, ignored: [] };
  const known = order.filter((o) => findQueryColumn(table, o.column));
  const ignored = order.filter((o) => !findQueryColumn(table, o.column)).map((o) => `$orderby=${o.column}`);
  return { known: known.length ? known : undefined, ignored };
}

/** ORDER BY items (validated against the dictionary) with the key as a tie-breaker for stable pages. */
export function orderClause(table: Table, alias: string, order: OrderItem[] | undefined): string {
  const items = (order ?? []).map((o) => {
    const col = resolveQueryColumn(table, o.column, 'Invalid $orderby', 'Invalid column for $orderby');
    if (col.columnSql) return `(${col.columnSql}) ${o.direction.toUpperCase()}`;
    return `${ident(alias)}.${ident(col.dbName)} ${o.direction.toUpperCase()}`;
  });
  const tie = table.keyColumn ?? table.uuColumn;
  if (tie) items.push(`${ident(alias)}.${ident(tie.dbName)}`);
  return items.length ? items.join(', ') : 'NULL';
}
