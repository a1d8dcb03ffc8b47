/** The records of one table: a $filter, an order, paging, and the columns that identify a record. */
import { h, fill, table } from './dom.js';
import { href, type ViewContext } from './context.js';
import { type ColumnInfo, isStandard } from './dictionary.js';
import { pager } from './pager.js';
import { showValue } from './show-value.js';

const PAGE = 10;
const MAX_COLUMNS = 7;

/** The identifier and selection columns, else the first columns of the table. */
export function listColumns(columns: ColumnInfo[]): ColumnInfo[] {
  const plain = columns.filter((c) => !c.key && !isStandard(c) && c.name !== 'AD_Org_ID' && c.reference !== 28);
  const chosen = plain.filter((c) => c.identifier || c.selection);
  // Few identifying columns (a line's number): the mandatory ones say more (product, quantity).
  if (chosen.length < 3) chosen.push(...plain.filter((c) => c.mandatory && !c.virtual && !chosen.includes(c) && c.reference !== 20));
  return (chosen.length ? chosen : plain).slice(0, MAX_COLUMNS);
}

export async function recordsView(ctx: ViewContext, model: string): Promise<void> {
  const { api, dict, main, params } = ctx;
  const info = await dict.table(model);
  const filter = params.get('filter') ?? '';
  const orderby = params.get('orderby') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const filterBox = h('input', { id: 'record-filter', type: 'search', placeholder: "$filter, e.g. contains(tolower(Name),'garden')", value: filter, size: 50 });
  const orderBox = h('input', { id: 'record-order', placeholder: '$orderby, e.g. Name desc', value: orderby });
  const form = h('form', { class: 'toolbar' }, filterBox, orderBox, h('button', { type: 'submit', id: 'record-search' }, 'Apply'), h('a', { class: 'button', id: 'record-new', href: href(`/tables/${model}/new`) }, 'New'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (filterBox.value) q.set('filter', filterBox.value);
    if (orderBox.value) q.set('orderby', orderBox.value);
    ctx.go(`/tables/${model}?${q}`);
  });
  const body = h('div', {});
  fill(main, h('h1', {}, `${info.name} (${info.tableName})`), form, body);
  const q = new URLSearchParams({ $top: String(PAGE), $skip: String((page - 1) * PAGE) });
  if (filter) q.set('$filter', filter);
  if (orderby) q.set('$orderby', orderby);
  const answer = await api.call('GET', `/models/${model}?${q}`);
  const columns = listColumns(info.columns);
  fill(
    body,
    table(['', ...columns.map((c) => c.label)], answer.records ?? [], (r: any) => [recordLink(model, r), ...columns.map((c) => showValue(r[c.name]))], 'No records'),
    pager(ctx, `/tables/${model}`, page, answer['page-count'] ?? 1, answer['row-count'] ?? 0, { filter, orderby }),
  );
}

/** A link to a record's form; records without a single key (tax lines) have none. */
export function recordLink(model: string, r: { id?: unknown }): HTMLElement | string {
  return r.id === undefined ? '' : h('a', { href: href(`/tables/${model}/${r.id}`), class: 'open' }, String(r.id));
}
