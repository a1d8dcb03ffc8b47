import type { Table } from '../dictionary/model.js';
import { slugify } from '../dictionary/slug.js';
import { notFound } from '../errors.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { ScreenAccess } from '../screens/screen-access.js';
import { headerTab, tabBySlug, windowBySlug, windowTabs, type ScreenTab } from '../screens/window-model.js';

/** The tab a print goes through and the process it prints with (AD_Tab.AD_Process_ID). */
export interface PrintTab {
  tab: ScreenTab;
  processId: number;
}

/**
 * The print process of a window's header tab, or of one of its tabs: 404 for an unknown window
 * or tab, 403 for a window the role may not open, 404 "No print process" for a tab without one.
 */
export async function printTab(rc: ReadContext, access: ScreenAccess, windowSlug: string, tabSlug: string | null): Promise<PrintTab> {
  const window = await windowBySlug(rc, access, windowSlug);
  const tabs = await windowTabs(rc, access, window);
  const tab = tabSlug === null ? headerTab(tabs, windowSlug) : tabBySlug(tabs, tabSlug);
  const processId = Number(tab.row.ad_process_id ?? 0);
  if (!processId) throw notFound('No print process', `The ${tabSlug === null ? 'window' : 'tab'} ${tabSlug ?? windowSlug} defines no process to print its records`);
  return { tab, processId };
}

interface WindowRow {
  ad_window_id: number;
  name: string;
  issotrx: string | null;
}

/**
 * The slug of the window a record opens in, as the original's zoom finds it: the table's
 * AD_Window_ID, or its PO_Window_ID for a record that is not a sales transaction. A table that
 * names no window (the demo's tables) opens in the window whose header tab shows it, the one whose
 * IsSOTrx matches the record's first. Null when no window shows the table.
 */
export async function zoomWindowSlug(rc: ReadContext, table: Table, row: Record<string, unknown>): Promise<string | null> {
  const soTrx = typeof row.issotrx === 'string' ? row.issotrx !== 'N' : null;
  const { rows: named } = await rc.q.query<{ ad_window_id: number | null; po_window_id: number | null }>(`SELECT ad_window_id, po_window_id FROM ad_table WHERE ad_table_id = $1`, [table.id]);
  const t = named[0];
  if (t?.ad_window_id) {
    const id = t.po_window_id && soTrx === false ? t.po_window_id : t.ad_window_id;
    const { rows } = await rc.q.query<WindowRow>(`SELECT ad_window_id, name, issotrx FROM ad_window WHERE ad_window_id = $1`, [id]);
    return rows[0] ? slugify(rows[0].name) : null;
  }
  const { rows } = await rc.q.query<WindowRow>(
    `SELECT w.ad_window_id, w.name, w.issotrx FROM ad_window w
      WHERE w.isactive = 'Y' AND w.ad_client_id IN (0, $2)
        AND (SELECT t.ad_table_id FROM ad_tab t WHERE t.ad_window_id = w.ad_window_id AND t.isactive = 'Y' AND t.tablevel = 0 ORDER BY t.seqno, t.ad_tab_id LIMIT 1) = $1
      ORDER BY w.ad_window_id`,
    [table.id, rc.auth.clientId],
  );
  const matching = soTrx === null ? undefined : rows.find((w) => (w.issotrx !== 'N') === soTrx);
  const window = matching ?? rows[0];
  return window ? slugify(window.name) : null;
}
