import type { Dictionary } from '../dictionary/model.js';
import { badRequest } from '../errors.js';
import { outputColumns } from '../records/read/output-columns.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { JsonObject } from '../records/serialize.js';
import { readDictionaryRows } from './dictionary-rows.js';
import type { ScreenAccess } from './screen-access.js';
import { FIELD_COLUMNS, TAB_COLUMNS, WINDOW_COLUMNS, tabRecord, windowRecord, windowTabs, type ScreenWindow } from './window-model.js';

/**
 * The options of the window list, as the original reads them: `$expand` naming AD_Tab adds each
 * window's tabs, naming AD_Field too adds each tab's displayed fields; `$select` chooses the
 * columns shown, `Name` for the window and `AD_Tab/Name` or `AD_Field/Name` for an expanded table.
 */
export interface WindowListOptions {
  tabs: boolean;
  fields: boolean;
  windowColumns: readonly string[];
  tabColumns: readonly string[];
  fieldColumns: readonly string[];
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw badRequest('Invalid query', `Query option ${name} is given more than once`);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

const names = (text: string) => new Set(text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));

/** Parses and checks `$expand` and `$select` of `GET /windows` (pure but for the dictionary's column names). */
export function parseWindowListOptions(dict: Dictionary, query: Record<string, unknown>): WindowListOptions {
  const expand = single(query, '$expand');
  const expanded = expand ? names(expand) : new Set<string>();
  const tabs = expanded.has('ad_tab');
  const fields = tabs && expanded.has('ad_field');
  const chosen: Record<'ad_window' | 'ad_tab' | 'ad_field', string[]> = { ad_window: [], ad_tab: [], ad_field: [] };
  const select = single(query, '$select');
  for (const item of select ? select.split(',').map((s) => s.trim()).filter(Boolean) : []) {
    const slash = item.indexOf('/');
    const table = slash < 0 ? 'ad_window' : item.slice(0, slash).trim().toLowerCase();
    const column = slash < 0 ? item : item.slice(slash + 1).trim();
    if (table !== 'ad_window' && !((table === 'ad_tab' && tabs) || (table === 'ad_field' && fields))) {
      throw badRequest('Invalid $select', `${item.slice(0, slash).trim()} is not a table that $expand adds to the windows (AD_Tab, AD_Field)`);
    }
    chosen[table as keyof typeof chosen].push(column);
  }
  for (const [table, columns] of Object.entries(chosen)) if (columns.length) outputColumns(dict.byName.get(table)!, columns);
  return {
    tabs,
    fields,
    windowColumns: chosen.ad_window.length ? chosen.ad_window : WINDOW_COLUMNS,
    tabColumns: chosen.ad_tab.length ? chosen.ad_tab : TAB_COLUMNS,
    fieldColumns: chosen.ad_field.length ? chosen.ad_field : FIELD_COLUMNS,
  };
}

/** The displayed, active fields of some tabs, by tab, in field order. */
async function fieldsByTab(rc: ReadContext, tabIds: number[], columns: readonly string[]): Promise<Map<number, JsonObject[]>> {
  const out = new Map<number, JsonObject[]>();
  if (!tabIds.length) return out;
  const keepTab = columns.some((c) => c.toLowerCase() === 'ad_tab_id');
  const { rows, records } = await readDictionaryRows(rc, 'AD_Field', {
    select: keepTab ? [...columns] : [...columns, 'AD_Tab_ID'],
    where: (sql) => [`d."ad_tab_id" = ANY(${sql.param(tabIds)}::bigint[])`, `d."isdisplayed" = 'Y'`],
    orderBy: 'd."ad_tab_id", d."seqno", d."ad_field_id"',
  });
  records.forEach((record, i) => {
    const tabId = Number(rows[i]!.ad_tab_id);
    if (!keepTab) delete record.AD_Tab_ID;
    out.set(tabId, [...(out.get(tabId) ?? []), record]);
  });
  return out;
}

/** The window list's records: each window with its slug and, when expanded, its tabs and their fields. */
export async function windowList(rc: ReadContext, access: ScreenAccess, windows: ScreenWindow[], o: WindowListOptions): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for (const w of windows) {
    const record = windowRecord(rc, w, o.windowColumns);
    if (o.tabs) {
      const tabs = await windowTabs(rc, access, w);
      const fields = o.fields ? await fieldsByTab(rc, tabs.map((t) => t.id), o.fieldColumns) : null;
      record.tabs = tabs.map((t) => ({ ...tabRecord(rc, t, o.tabColumns), ...(fields ? { fields: fields.get(t.id) ?? [] } : {}) }));
    }
    out.push(record);
  }
  return out;
}
