import { tableReadable } from '../access/access.js';
import type { Column, Table } from '../dictionary/model.js';
import { notFound } from '../errors.js';
import type { ReadContext } from '../records/read/read-context.js';
import { readDictionaryRows } from '../screens/dictionary-rows.js';

export interface ViewColumn {
  id: number;
  uid: string | null;
  /** The property name; dots nest it (`contact.phone`). */
  name: string;
  column: Column;
  referenceViewId: number | null;
}

export interface ViewRelated {
  id: number;
  uid: string | null;
  name: string;
  viewId: number;
  autoExpand: boolean;
}

export interface RestView {
  id: number;
  uid: string | null;
  name: string;
  table: Table;
  whereClause: string | null;
  columns: ViewColumn[];
  related: ViewRelated[];
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/** Every active REST view of the caller's tenant (and System), with columns and related views. */
export async function loadViews(rc: ReadContext): Promise<RestView[]> {
  const [views, columns, related] = await Promise.all([
    readDictionaryRows(rc, 'REST_View', { orderBy: 'd."name", d."rest_view_id"' }),
    readDictionaryRows(rc, 'REST_ViewColumn', { orderBy: 'd."seqno", d."rest_viewcolumn_id"' }),
    readDictionaryRows(rc, 'REST_ViewRelated', { orderBy: 'd."seqno", d."rest_viewrelated_id"' }),
  ]);
  const out: RestView[] = [];
  for (const v of views.rows) {
    const table = rc.dict.byId.get(Number(v.ad_table_id));
    if (!table || !table.isActive) continue;
    const id = Number(v.rest_view_id);
    const cols: ViewColumn[] = [];
    for (const c of columns.rows) {
      if (Number(c.rest_view_id) !== id) continue;
      const column = table.columns.find((x) => x.id === Number(c.ad_column_id));
      if (!column || column.isSecure || column.isEncrypted) continue;
      cols.push({ id: Number(c.rest_viewcolumn_id), uid: text(c.rest_viewcolumn_uu), name: String(c.name), column, referenceViewId: c.rest_referenceview_id ? Number(c.rest_referenceview_id) : null });
    }
    const rel = related.rows
      .filter((r) => Number(r.rest_view_id) === id)
      .map((r) => ({ id: Number(r.rest_viewrelated_id), uid: text(r.rest_viewrelated_uu), name: String(r.name), viewId: Number(r.rest_relatedrestview_id), autoExpand: r.isrestautoexpand === 'Y' }));
    out.push({ id, uid: text(v.rest_view_uu), name: String(v.name), table, whereClause: text(v.whereclause), columns: cols, related: rel });
  }
  return out;
}

/** The views whose table the role's user level reaches. */
export const visibleViews = (rc: ReadContext, views: RestView[]): RestView[] => views.filter((v) => tableReadable(rc.auth, v.table));

/** The view a path names (404 with the original's title otherwise). */
export function viewByName(views: RestView[], name: string): RestView {
  const view = views.find((v) => v.name === name) ?? views.find((v) => v.name.toLowerCase() === name.toLowerCase());
  if (!view) throw notFound('Invalid view name', `No match found for view name: ${name}`);
  return view;
}
