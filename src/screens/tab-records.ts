import type { Column } from '../dictionary/model.js';
import { badRequest } from '../errors.js';
import type { FilterNode } from '../records/query/filter-ast.js';
import { parseFilter } from '../records/query/filter-parser.js';
import type { OrderItem } from '../records/query/orderby-parser.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { ReadOptions } from '../records/read/read-options.js';
import { getRecord, listRecords, type ReadScope } from '../records/read/reader.js';
import { visibleColumns, type JsonObject } from '../records/serialize.js';
import { detailLink } from '../records/write/persist.js';
import { readDictionaryRows } from './dictionary-rows.js';
import { propertyName } from './property-name.js';
import { childTabs, type ScreenTab } from './window-model.js';

/** Rows per page of window and tab record lists (the original's fixed page size). */
export const TAB_PAGE_SIZE = 100;

/**
 * The query options of a tab's record list: $filter, $sort_column (`!` first for descending) and
 * $page_no, which counts from 0 as the original's paging does (0, its default, is the first page).
 */
export interface TabListOptions {
  filter?: FilterNode;
  sortColumn?: { column: string; direction: 'asc' | 'desc' };
  pageNo: number;
}

/** Parses the query options of a tab record list (pure). */
export function parseTabListOptions(query: Record<string, unknown>): TabListOptions {
  const get = (k: string): string | undefined => {
    const v = query[k];
    if (Array.isArray(v)) throw badRequest('Invalid query', `Query option ${k} is given more than once`);
    return v === undefined || v === null ? undefined : String(v);
  };
  const o: TabListOptions = { pageNo: 0 };
  const filter = get('$filter');
  if (filter !== undefined && filter.trim() !== '') o.filter = parseFilter(filter);
  const sort = get('$sort_column')?.trim();
  if (sort) {
    const desc = sort.startsWith('!');
    const column = desc ? sort.slice(1) : sort;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(column)) throw badRequest('Invalid $sort_column', `${sort} is not a column name`);
    o.sortColumn = { column, direction: desc ? 'desc' : 'asc' };
  }
  const page = get('$page_no')?.trim();
  if (page !== undefined && page !== '') {
    if (!/^-?\d{1,9}$/.test(page)) throw badRequest('Invalid $page_no', `${page} is not a page number (0 is the first page)`);
    // A negative page is the first one, as the original reads it.
    o.pageNo = Math.max(0, Number(page));
  }
  return o;
}

/**
 * A tab's default order from AD_Tab.OrderByClause when it is a plain list of its own columns
 * (`C_OrderLine.Line`, `Name DESC`); anything else is left to the key order.
 */
export function tabOrder(tab: Pick<ScreenTab, 'orderByClause' | 'table'>): OrderItem[] | undefined {
  if (!tab.orderByClause) return undefined;
  const items: OrderItem[] = [];
  for (const part of tab.orderByClause.split(',')) {
    const m = /^\s*(?:([A-Za-z_][A-Za-z0-9_]*)\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!m || (m[1] && m[1].toLowerCase() !== tab.table.dbName) || !tab.table.byName.has(m[2]!.toLowerCase())) return undefined;
    items.push({ column: m[2]!, direction: (m[3]?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc' });
  }
  return items;
}

/** The column that links a tab's records to its parent tab's record. */
export function linkColumn(tab: ScreenTab): Column {
  const parent = tab.parent!;
  if (tab.linkColumnId !== null) {
    const col = tab.table.columns.find((c) => c.id === tab.linkColumnId);
    if (col) return col;
  }
  return detailLink(parent.table, tab.table);
}

/**
 * What narrows a read to a tab: its dictionary where clause (written against the table name,
 * which is the read's alias) and, for a detail tab read under a parent record, the link to it.
 * Where clauses holding context variables (`@...@`) need a window context the API has not and are left out.
 */
export function tabScope(tab: ScreenTab, parentId?: number): ReadScope {
  return (sql, alias) => {
    const parts: string[] = [];
    if (tab.whereClause && !tab.whereClause.includes('@')) parts.push(`(${tab.whereClause})`);
    if (parentId !== undefined) parts.push(`"${alias}"."${linkColumn(tab).dbName}" = ${sql.param(parentId)}`);
    return parts.length ? parts.join(' AND ') : 'TRUE';
  };
}

/**
 * The columns a tab shows (its active, displayed fields), in field order; a tab without any
 * field rows shows every visible column of its table.
 */
export async function tabColumns(rc: ReadContext, tab: ScreenTab): Promise<Column[]> {
  const { rows } = await readDictionaryRows(rc, 'AD_Field', {
    select: ['AD_Column_ID', 'IsDisplayed'],
    where: (sql) => [`d."ad_tab_id" = ${sql.param(tab.id)}`],
    orderBy: 'd."seqno", d."ad_field_id"',
  });
  if (rows.length === 0) return visibleColumns(tab.table).filter((c) => c !== tab.table.keyColumn && c !== tab.table.uuColumn);
  const out: Column[] = [];
  for (const r of rows) {
    if (r.isdisplayed !== 'Y') continue;
    const col = tab.table.columns.find((c) => c.id === Number(r.ad_column_id));
    if (col && col !== tab.table.keyColumn && col !== tab.table.uuColumn && !col.isSecure && !col.isEncrypted && !out.includes(col)) out.push(col);
  }
  return out;
}

/** A record as a window shows it: id, uid, then its fields under their property names (no model-name). */
export function gridRecord(record: JsonObject, slug?: string): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(record)) {
    if (k === 'model-name') continue;
    out[k === 'id' || k === 'uid' ? k : propertyName(k)] = v;
  }
  if (slug !== undefined) out.slug = slug;
  return out;
}

const readOptions = (select: string[], o: Partial<ReadOptions>): ReadOptions => ({ top: TAB_PAGE_SIZE, skip: 0, context: new Map(), showSql: false, select, ...o, ignored: o.ignored ?? [] });

export interface TabPage {
  pageCount: number;
  pageSize: number;
  pageNo: number;
  rowCount: number;
  records: JsonObject[];
}

/** A page of a tab's records (under a parent record for a detail tab), through the generic reader. */
export async function tabRecordsPage(rc: ReadContext, tab: ScreenTab, o: TabListOptions, parentId?: number): Promise<TabPage> {
  const columns = await tabColumns(rc, tab);
  const orderby = o.sortColumn ? [o.sortColumn] : tabOrder(tab);
  const ro = readOptions(columns.map((c) => c.name), { skip: o.pageNo * TAB_PAGE_SIZE, ...(o.filter ? { filter: o.filter } : {}), ...(orderby ? { orderby } : {}) });
  const result = await listRecords(rc, tab.table, ro, tabScope(tab, parentId));
  const records = result.json ? (JSON.parse(`[${result.json.pieces.join('')}]`) as JsonObject[]) : result.records;
  return {
    // At least one page, empty or not, as the original counts them.
    pageCount: Math.max(1, Math.ceil(result.rowCount / TAB_PAGE_SIZE)),
    pageSize: TAB_PAGE_SIZE,
    pageNo: o.pageNo,
    rowCount: result.rowCount,
    records: records.map((r) => gridRecord(r, tab.slug)),
  };
}

/** One record of a tab, with the records of the child tabs named in `expand` under their slugs. */
export async function tabRecord(rc: ReadContext, tabs: ScreenTab[], tab: ScreenTab, idText: string, expand: string[] = [], scoped = true): Promise<JsonObject> {
  const columns = await tabColumns(rc, tab);
  const { record, row } = await getRecord(rc, tab.table, idText, { select: columns.map((c) => c.name), showSql: false }, scoped ? tabScope(tab) : undefined);
  const out = gridRecord(record);
  const children = childTabs(tabs, tab);
  for (const slug of expand) {
    const child = children.find((c) => c.slug === slug);
    if (!child) throw badRequest('Invalid $expand', `${slug} is not a child tab of ${tab.slug}`);
  }
  const id = Number(row[tab.table.keyColumn?.dbName ?? '']);
  for (const child of children) {
    if (!expand.includes(child.slug)) continue;
    const all: JsonObject[] = [];
    // Every page of the child's records, as the original loads the whole child tab.
    for (let pageNo = 0; ; pageNo++) {
      const page = await tabRecordsPage(rc, child, { pageNo }, id);
      all.push(...page.records.map(({ slug: _slug, ...r }) => r));
      if (pageNo + 1 >= page.pageCount) break;
    }
    out[child.slug] = all;
  }
  return out;
}

/** The $expand of a window record: a comma list of child tab slugs. */
export function parseTabExpand(query: Record<string, unknown>): string[] {
  const v = query.$expand;
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) throw badRequest('Invalid query', 'Query option $expand is given more than once');
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
