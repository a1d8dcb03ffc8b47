import { h } from './dom.js';
import type { ViewContext } from './context.js';

/** Previous and next page links for a list whose answer gave page and row counts. */
export function pager(ctx: ViewContext, path: string, page: number, pages: number, rows: number, keep: Record<string, string>): HTMLElement {
  const to = (p: number) => {
    const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(keep).filter(([, v]) => v !== '')), page: String(p) });
    return () => ctx.go(`${path}?${q}`);
  };
  return h(
    'div',
    { class: 'pager' },
    h('button', { type: 'button', id: 'page-prev', disabled: page <= 1, onclick: to(page - 1) }, 'Previous'),
    h('span', { id: 'page-info' }, `Page ${page} of ${Math.max(1, pages)} (${rows} records)`),
    h('button', { type: 'button', id: 'page-next', disabled: page >= pages, onclick: to(page + 1) }, 'Next'),
  );
}
