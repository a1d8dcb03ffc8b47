import { tableAccessAllowed } from '../access/access.js';
import type { Table } from '../dictionary/model.js';
import { forbidden, notFound } from '../errors.js';
import type { ReadContext } from '../records/read/read-context.js';
import { serializeRecord, type JsonObject } from '../records/serialize.js';
import { dictionaryTable, readDictionaryRows, type Row } from './dictionary-rows.js';
import type { ScreenAccess } from './screen-access.js';
import { slugify } from '../dictionary/slug.js';

/** The columns the original shows of a window, a tab and a field. */
export const WINDOW_COLUMNS = ['AD_Window_ID', 'AD_Window_UU', 'Name', 'Description', 'Help', 'WindowType', 'EntityType'];
export const TAB_COLUMNS = ['AD_Tab_ID', 'AD_Tab_UU', 'Name', 'Description', 'Help', 'EntityType', 'SeqNo', 'TabLevel'];
export const FIELD_COLUMNS = ['AD_Field_ID', 'AD_Field_UU', 'Name', 'Description', 'Help', 'EntityType', 'AD_Reference_ID', 'AD_Column_ID', 'MandatoryLogic'];

export interface ScreenWindow {
  id: number;
  name: string;
  slug: string;
  isSOTrx: boolean;
  /** The role may write through it (AD_Window_Access.IsReadWrite). */
  writable: boolean;
  row: Row;
}

export interface ScreenTab {
  id: number;
  name: string;
  slug: string;
  level: number;
  table: Table;
  readOnly: boolean;
  insertable: boolean;
  /** SQL of the dictionary (AD_Tab.WhereClause) that limits the tab's records. */
  whereClause: string | null;
  orderByClause: string | null;
  /** AD_Tab.AD_Column_ID: the column linking the tab to its parent tab's record. */
  linkColumnId: number | null;
  /** The tab above it (one level up), null for a header tab. */
  parent: ScreenTab | null;
  row: Row;
}

const yes = (v: unknown) => v === 'Y' || v === true;
const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/** The columns of a dictionary table a record shows, by name (unknown names are checked by the caller). */
const shownColumns = (table: Table, select: readonly string[]) =>
  select.map((c) => table.byName.get(c.toLowerCase())!).filter((c) => c && c !== table.keyColumn && c !== table.uuColumn);

/** A window's record as the original shows it: its chosen columns and its slug. */
export function windowRecord(rc: ReadContext, w: ScreenWindow, select: readonly string[] = WINDOW_COLUMNS): JsonObject {
  const table = dictionaryTable(rc, 'AD_Window');
  const out = serializeRecord(rc.dict, table, w.row, { columns: shownColumns(table, select) });
  out.slug = w.slug;
  return out;
}

/** A tab's record as the original shows it: its chosen columns and its slug. */
export function tabRecord(rc: ReadContext, t: ScreenTab, select: readonly string[] = TAB_COLUMNS): JsonObject {
  const table = dictionaryTable(rc, 'AD_Tab');
  const out = serializeRecord(rc.dict, table, t.row, { columns: shownColumns(table, select) });
  out.slug = t.slug;
  return out;
}

function toWindow(row: Row, access: ScreenAccess): ScreenWindow {
  const id = Number(row.ad_window_id);
  const name = String(row.name);
  return { id, name, slug: slugify(name), isSOTrx: yes(row.issotrx), writable: access.windows.get(id) === true, row };
}

/** The active windows the role may open, by name, with an optional $filter. */
export async function accessibleWindows(rc: ReadContext, access: ScreenAccess, filter?: Parameters<typeof readDictionaryRows>[2]['filter']): Promise<ScreenWindow[]> {
  const { rows } = await readDictionaryRows(rc, 'AD_Window', { ...(filter ? { filter } : {}), orderBy: 'd."name", d."ad_window_id"' });
  return rows.filter((r) => access.windows.has(Number(r.ad_window_id))).map((r) => toWindow(r, access));
}

/** The window a slug names: 404 when none does, 403 when the role may not open it. */
export async function windowBySlug(rc: ReadContext, access: ScreenAccess, slug: string): Promise<ScreenWindow> {
  const { rows } = await readDictionaryRows(rc, 'AD_Window', { orderBy: 'd."ad_window_id"' });
  const row = rows.find((r) => slugify(String(r.name)) === slug);
  if (!row) throw notFound('Invalid window name', `No match found for window name: ${slug}`);
  if (!access.windows.has(Number(row.ad_window_id))) throw forbidden('Access denied', `Access denied for window: ${slug}`);
  return toWindow(row, access);
}

/**
 * The tabs of a window the role sees, in order: active tabs on active tables its user level
 * reaches, advanced tabs only for roles with advanced access. A hidden tab hides the tabs below it.
 */
export async function windowTabs(rc: ReadContext, access: ScreenAccess, w: ScreenWindow): Promise<ScreenTab[]> {
  const { rows } = await readDictionaryRows(rc, 'AD_Tab', { where: (sql) => [`d."ad_window_id" = ${sql.param(w.id)}`], orderBy: 'd."seqno", d."ad_tab_id"' });
  const out: ScreenTab[] = [];
  const stack: ScreenTab[] = [];
  let hiddenBelow: number | null = null;
  for (const row of rows) {
    const level = Number(row.tablevel ?? 0);
    if (hiddenBelow !== null && level > hiddenBelow) continue;
    hiddenBelow = null;
    const table = rc.dict.byId.get(Number(row.ad_table_id));
    const visible = table && table.isActive && tableAccessAllowed(rc.auth.userLevel, table.accessLevel) && (access.advanced || !yes(row.isadvancedtab));
    if (!visible || !table) {
      hiddenBelow = level;
      continue;
    }
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    const name = String(row.name);
    const tab: ScreenTab = {
      id: Number(row.ad_tab_id),
      name,
      slug: slugify(name),
      level,
      table,
      readOnly: yes(row.isreadonly),
      insertable: row.isinsertrecord === undefined ? true : yes(row.isinsertrecord),
      whereClause: text(row.whereclause),
      orderByClause: text(row.orderbyclause),
      linkColumnId: row.ad_column_id === null || row.ad_column_id === undefined ? null : Number(row.ad_column_id),
      parent: level > 0 ? (stack[stack.length - 1] ?? null) : null,
      row,
    };
    stack.push(tab);
    out.push(tab);
  }
  return out;
}

/** The tab a slug names among the visible ones (404 with the original's title otherwise). */
export function tabBySlug(tabs: ScreenTab[], slug: string): ScreenTab {
  const tab = tabs.find((t) => t.slug === slug);
  if (!tab) throw notFound('Invalid tab name', `No match found for tab name: ${slug}`);
  return tab;
}

/** The window's header tab (the first of level 0). */
export function headerTab(tabs: ScreenTab[], slug: string): ScreenTab {
  const tab = tabs.find((t) => t.level === 0);
  if (!tab) throw notFound('Invalid window name', `No match found for window name: ${slug}`);
  return tab;
}

/** The tabs directly below a tab. */
export const childTabs = (tabs: ScreenTab[], parent: ScreenTab): ScreenTab[] => tabs.filter((t) => t.parent === parent);
