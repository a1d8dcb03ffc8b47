/** The start page: the tables the role may read, with a name filter and paging. */
import { h, fill, table } from './dom.js';
import { href, type ViewContext } from './context.js';
import { pager } from './pager.js';

const PAGE = 25;

export async function tablesView(ctx: ViewContext): Promise<void> {
  const { api, main, params } = ctx;
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const box = h('input', { id: 'table-search', type: 'search', placeholder: 'Table or name', value: search });
  const form = h('form', { class: 'toolbar' }, box, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ctx.go(`/?search=${encodeURIComponent(box.value)}`);
  });
  const body = h('div', {});
  fill(main, h('h1', {}, 'Tables'), form, body);
  const text = search.toLowerCase().replace(/'/g, "''");
  const filter = text ? `&$filter=${encodeURIComponent(`contains(tolower(TableName),'${text}') or contains(tolower(Name),'${text}')`)}` : '';
  const answer = await api.call('GET', `/models/ad_table?$select=TableName,Name,Description&$orderby=TableName&$top=${PAGE}&$skip=${(page - 1) * PAGE}${filter}`);
  fill(
    body,
    table(['Table', 'Name', 'Description'], answer.records ?? [], (r: any) => [h('a', { href: href(`/tables/${String(r.TableName).toLowerCase()}`) }, r.TableName), r.Name, r.Description ?? '']),
    pager(ctx, '/', page, answer['page-count'] ?? 1, answer['row-count'] ?? 0, { search }),
  );
}
