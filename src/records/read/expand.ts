import { tableReadable } from '../../access/access.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import { badRequest, forbidden } from '../../errors.js';
import type { Column, Table } from '../../dictionary/model.js';
import type { ExpandItem } from '../query/expand-parser.js';
import { serializeRecord, type JsonObject } from '../serialize.js';
import { hasTextKey } from '../reference-key.js';
import { fetchedColumns, outputColumns } from './output-columns.js';
import type { ReadContext } from './read-context.js';
import { selectItems } from './select-list.js';
import { orderClause, whereClause } from './where.js';
import { packedSelect, queryPacked, queryPackedValues, rowsOfValues } from './packed-row.js';
import { LINK, projection, projectionWriter, type Projection } from './projection.js';

type Row = Record<string, unknown>;

/** sql-command-<name> entries collected while expanding, for showsql. */
export type SqlCommands = Map<string, string>;

/**
 * Applies $expand items to a page of records: one query per expanded table for the whole page
 * (never one per record). `rows` are the raw rows behind `records`, in the same order.
 */
export async function expandRecords(rc: ReadContext, table: Table, rows: Row[], records: JsonObject[], items: ExpandItem[], commands: SqlCommands, depth = 0): Promise<void> {
  for (const item of items) {
    const masterColumn = item.column ? undefined : table.byName.get(item.name.toLowerCase());
    if (masterColumn && masterColumn.kind === 'foreign-key') {
      if (depth > 0) throw badRequest('Invalid $expand', `Expanding a master (${item.name}) is allowed only on the first level`);
      await expandMaster(rc, masterColumn, rows, records, item, commands);
    } else if (masterColumn && !rc.dict.byName.has(item.name.toLowerCase())) {
      throw badRequest('Invalid $expand', `Column ${masterColumn.name} cannot be expanded`);
    } else {
      await expandDetail(rc, table, rows, records, item, commands, depth);
    }
  }
}

async function expandMaster(rc: ReadContext, column: Column, rows: Row[], records: JsonObject[], item: ExpandItem, commands: SqlCommands): Promise<void> {
  const o = item.options;
  if (o.filter || o.orderby || o.top !== undefined || o.skip !== undefined || o.expand || o.label) {
    throw badRequest('Invalid $expand', 'Expanding a master only support the $select query operator');
  }
  const target = column.lookup && rc.dict.byName.get(column.lookup.tableName.toLowerCase());
  if (!target) throw badRequest('Invalid $expand', `Column ${column.name} cannot be expanded`);
  if (!tableReadable(rc.auth, target)) throw forbidden('Access denied', `Access denied for table: ${target.name}`);
  const key = target.byName.get(column.lookup!.keyColumn.toLowerCase());
  if (!key) throw badRequest('Invalid $expand', `Column ${column.name} cannot be expanded`);
  const textKey = hasTextKey(rc.dict, column);
  const norm = (v: unknown): string | number => (textKey ? String(v).trim() : Number(v));
  const ids = [...new Set(rows.map((r) => r[column.dbName]).filter((v) => v !== null && v !== undefined).map(norm))];
  const output = outputColumns(target, o.select);
  const sql = new SqlBuilder();
  const where = whereClause(rc, target, 'm', sql, { activeOnly: false });
  const items = selectItems(rc.dict, target, fetchedColumns(target, output).concat(output.includes(key) || key === target.keyColumn ? [] : [key]), 'm');
  const text = `SELECT ${packedSelect(items)} FROM ${ident(target.dbName)} m WHERE m.${ident(key.dbName)} = ANY(${sql.param(ids)}::${textKey ? 'text' : 'bigint'}[]) AND ${where.join(' AND ')}`;
  commands.set(`sql-command-${item.name}`, text);
  const found = ids.length ? await queryPacked(rc.q, text, sql.values, items) : [];
  const byId = new Map(found.map((r) => [norm(r[key.dbName]), r]));
  rows.forEach((row, i) => {
    const v = row[column.dbName];
    const master = v === null || v === undefined ? undefined : byId.get(norm(v));
    if (master) records[i]![column.name] = serializeRecord(rc.dict, target, master, { columns: output });
  });
}

/** The child column that links a detail table to its parent. */
function linkColumn(parent: Table, child: Table, item: ExpandItem): Column {
  if (item.column) {
    const c = child.byName.get(item.column.toLowerCase());
    if (!c) throw badRequest('Invalid $expand', `${item.column} is not a column of ${child.name}`);
    return c;
  }
  const candidates = child.columns.filter((c) => c.kind === 'foreign-key' && c.lookup?.tableName.toLowerCase() === parent.dbName);
  const best = candidates.find((c) => c.isParent) ?? candidates.find((c) => parent.keyColumn && c.dbName === parent.keyColumn.dbName) ?? candidates[0];
  if (!best) throw badRequest('Wrong detail', `${child.name} has no column linking it to ${parent.name}`);
  return best;
}

/** The rows of one detail expansion for a page of parents: fetched values in order of parent, then of the item's order. */
interface DetailRows {
  child: Table;
  link: Column;
  proj: Projection;
  values: unknown[][];
}

async function readDetails(rc: ReadContext, parent: Table, parentIds: number[], item: ExpandItem, commands: SqlCommands): Promise<DetailRows> {
  const child = rc.dict.byName.get(item.name.toLowerCase());
  if (!child) throw badRequest('Invalid $expand', `No table or column matches: ${item.name}`);
  if (!tableReadable(rc.auth, child)) throw forbidden('Access denied', `Access denied for table: ${child.name}`);
  if (!parent.keyColumn) throw badRequest('Wrong detail', `${parent.name} has no single key to link details to`);
  const link = linkColumn(parent, child, item);
  const isRecordLink = link.kind === 'record-id' || link.dbName === 'record_id';
  if (!isRecordLink && link.kind !== 'foreign-key' && link.kind !== 'integer') throw badRequest('Wrong detail', `${link.name} cannot link ${child.name} to ${parent.name}`);
  const o = item.options;
  const proj = projection(rc.dict, child, o.select, 'd', link);
  const sql = new SqlBuilder();
  const conds = whereClause(rc, child, 'd', sql, { activeOnly: true, filter: o.filter, label: o.label });
  conds.unshift(`d.${ident(link.dbName)} = ANY(${sql.param(parentIds)}::bigint[])`);
  if (isRecordLink && child.byName.has('ad_table_id')) conds.push(`d."ad_table_id" = ${sql.param(parent.id)}`);
  const order = orderClause(child, 'd', o.orderby);
  const skip = o.skip ?? 0;
  const limit = o.top !== undefined ? ` AND x."$rn" <= ${sql.param(skip + o.top)}` : '';
  const text = `SELECT x."$row" FROM (SELECT ${proj.list}, d.${ident(link.dbName)} AS "$link", row_number() OVER (PARTITION BY d.${ident(link.dbName)} ORDER BY ${order}) AS "$rn" FROM ${ident(child.dbName)} d WHERE ${conds.join(' AND ')}) x WHERE x."$rn" > ${sql.param(skip)}${limit} ORDER BY x."$link", x."$rn"`;
  commands.set(`sql-command-${item.name}`, text);
  const values = parentIds.length ? await queryPackedValues(rc.q, text, sql.values, proj.items) : [];
  return { child, link, proj, values };
}

async function expandDetail(rc: ReadContext, parent: Table, rows: Row[], records: JsonObject[], item: ExpandItem, commands: SqlCommands, depth: number): Promise<void> {
  const parentIds = [...new Set(rows.map((r) => Number(r[parent.keyColumn?.dbName ?? ''])))];
  const { child, link, proj, values } = await readDetails(rc, parent, parentIds, item, commands);
  const found = rowsOfValues(proj.items, values);
  const children = found.map((r) => serializeRecord(rc.dict, child, r, { columns: proj.output, omit: link, modelName: false }));
  if (item.options.expand?.length) await expandRecords(rc, child, found, children, item.options.expand, commands, depth + 1);
  const byParent = new Map<number, JsonObject[]>();
  found.forEach((r, i) => {
    const k = Number(r[LINK]);
    let list = byParent.get(k);
    if (!list) byParent.set(k, (list = []));
    list.push(children[i]!);
  });
  rows.forEach((row, i) => {
    const list = byParent.get(Number(row[parent.keyColumn!.dbName]));
    if (list?.length) records[i]![item.name] = list;
  });
}

/**
 * Whether a read's $expand can be written as text: only details (no master columns), none with
 * an $expand of its own, under names that no member of the parent record has (an object would
 * put such a detail in that member's place). Checks no more than that; the reads check the rest.
 */
export function expandsAsText(table: Table, items: ExpandItem[], memberNames: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    if (item.options.expand?.length || memberNames.has(item.name) || seen.has(item.name)) return false;
    if (!item.column && table.byName.has(item.name.toLowerCase())) return false;
    seen.add(item.name);
  }
  return true;
}

/** The details of a page of parents written as text: per expand item, the pieces of each parent's list. */
export type DetailTexts = { key: string; byParent: Map<number, string[]> }[];

/**
 * Reads the details of a page of parents (one query per item, as expandRecords) and writes them
 * as JSON text; null when a detail's records cannot be written as text (then build objects).
 */
export async function expandTexts(rc: ReadContext, parent: Table, parentIds: number[], items: ExpandItem[], commands: SqlCommands): Promise<DetailTexts | null> {
  const out: DetailTexts = [];
  for (const item of items) {
    const { child, proj, values } = await readDetails(rc, parent, parentIds, item, commands);
    const writer = projectionWriter(rc.dict, child, proj);
    if (!writer) return null;
    const linkAt = proj.items.length - 1;
    const byParent = new Map<number, string[]>();
    for (const v of values) {
      const k = Number(v[linkAt]);
      let pieces = byParent.get(k);
      if (!pieces) byParent.set(k, (pieces = []));
      else pieces.push(',');
      writer(v, pieces);
    }
    out.push({ key: `,${JSON.stringify(item.name)}:[`, byParent });
  }
  return out;
}
