/** The records of the tables whose parent column points to this record (an order's lines). */
import { h, table } from './dom.js';
import { href, type ViewContext } from './context.js';
import type { TableInfo } from './dictionary.js';
import { listColumns, recordLink } from './records-view.js';
import { showValue } from './show-value.js';

export async function detailsPanel(ctx: ViewContext, info: TableInfo, id: number): Promise<HTMLElement> {
  const key = `${info.tableName}_ID`;
  const children = await ctx.api.call('GET', `/models/ad_column?$filter=${encodeURIComponent(`ColumnName eq '${key}' and IsParent eq true and IsActive eq true`)}&$select=AD_Table_ID`);
  const panel = h('section', { class: 'details' });
  for (const c of children.records ?? []) {
    const child = String(c.AD_Table_ID?.identifier ?? '').toLowerCase();
    if (!child || child === info.model) continue;
    const childInfo = await ctx.dict.table(child).catch(() => null);
    if (!childInfo) continue;
    const rows = await ctx.api.call('GET', `/models/${child}?$filter=${encodeURIComponent(`${key} eq ${id}`)}&$top=50`).catch(() => null);
    if (!rows) continue;
    const columns = listColumns(childInfo.columns).filter((col) => col.name !== key);
    panel.append(
      h('h2', {}, childInfo.name),
      table(['', ...columns.map((col) => col.label)], rows.records ?? [], (r: any) => [recordLink(child, r), ...columns.map((col) => showValue(r[col.name]))], 'No records'),
      h('a', { class: 'button', href: href(`/tables/${child}/new?set=${key}:${id}`), 'data-detail': child }, `New ${childInfo.name}`),
    );
  }
  return panel;
}
