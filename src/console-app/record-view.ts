/**
 * One record as a form of its table's columns (or a new one, with values given in the address
 * prefilled), saved with only the changed columns; the document action of a document; the records
 * of its detail tables; and the accounting facts of a posted document.
 */
import { h, fill, notice } from './dom.js';
import { href, type ViewContext } from './context.js';
import { type ColumnInfo, isStandard, type TableInfo } from './dictionary.js';
import { fieldInput, type FieldInput } from './field-inputs.js';
import { detailsPanel } from './details-panel.js';
import { factsPanel } from './facts-panel.js';
import { errorText } from './error-text.js';

const DOCUMENT_ACTIONS = 135;

export async function recordView(ctx: ViewContext, model: string, id: string): Promise<void> {
  const { api, dict, main } = ctx;
  const info = await dict.table(model);
  const creating = id === 'new';
  const record: Record<string, unknown> = creating ? prefilled(info, ctx.params) : await api.call('GET', `/models/${model}/${encodeURIComponent(id)}`);
  const status = h('div', { id: 'record-status' });
  const candidates = info.columns.filter((c) => !c.key && !(creating && (isStandard(c) || c.virtual)) && c.name !== 'DocAction');
  // The record's own columns first, the standard ones (created, updated, tenant) after them.
  const shown = [...candidates.filter((c) => !isStandard(c)), ...candidates.filter(isStandard)];
  const inputs: FieldInput[] = shown.map((c) => fieldInput(dict, c, record[c.name], !editable(c, creating)));
  const form = h('form', { id: 'record-form', class: 'record' }, h('div', { class: 'fields' }, ...inputs.map((i) => i.element)), h('button', { type: 'submit', id: 'record-save' }, creating ? 'Create' : 'Save'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    fill(status);
    const body: Record<string, unknown> = {};
    // Only what the user changed (and, for a new record, the values the address gave): the
    // service fills in the dictionary's defaults for the rest.
    for (const i of inputs) {
      if (i.element.querySelector(':disabled')) continue;
      if (i.changed() || (creating && i.column.name in record)) body[i.column.name] = i.value() ?? null;
    }
    try {
      if (creating) {
        const created = await api.call('POST', `/models/${model}`, body);
        ctx.go(`/tables/${model}/${created.id}`);
      } else {
        await api.call('PUT', `/models/${model}/${record.id}`, body);
        await recordView(ctx, model, id);
        document.getElementById('record-status')?.append(notice('Saved', 'ok'));
      }
    } catch (err) {
      status.append(notice(errorText(err)));
    }
  });

  const title = creating ? `New ${info.name}` : `${info.name} ${String(record.DocumentNo ?? record.Name ?? record.Value ?? record.id)}`;
  fill(main, h('p', {}, h('a', { href: href(`/tables/${model}`) }, `« ${info.name} list`)), h('h1', {}, title), status);
  if (!creating && info.columns.some((c) => c.name === 'DocAction')) main.append(await documentActionBar(ctx, model, record, status));
  main.append(form);
  if (creating) return;
  main.append(await detailsPanel(ctx, info, Number(record.id)));
  if (info.columns.some((c) => c.name === 'Posted')) main.append(await factsPanel(ctx, info, Number(record.id)));
}

function editable(c: ColumnInfo, creating: boolean): boolean {
  if (c.virtual || c.reference === 28 || isStandard(c)) return false;
  return creating || c.updateable;
}

/** Column values given in the address (?set=C_Order_ID:123) for a new record, e.g. a line of an order. */
function prefilled(info: TableInfo, params: URLSearchParams): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const pair of params.getAll('set')) {
    const at = pair.indexOf(':');
    const column = info.columns.find((c) => c.name === pair.slice(0, at));
    const v = pair.slice(at + 1);
    if (column && at > 0) record[column.name] = /^\d+$/.test(v) ? { id: Number(v) } : v;
  }
  return record;
}

async function documentActionBar(ctx: ViewContext, model: string, record: Record<string, unknown>, status: HTMLElement): Promise<HTMLElement> {
  const actions = await ctx.dict.listValues(DOCUMENT_ACTIONS);
  const next = (record.DocAction as { id?: string } | undefined)?.id;
  const select = h('select', { id: 'doc-action' }, ...actions.filter((a) => a.value !== '--').map((a) => h('option', { value: a.value, selected: a.value === next }, a.name)));
  const docStatus = (record.DocStatus as { identifier?: string } | undefined)?.identifier ?? '';
  const run = async () => {
    fill(status);
    try {
      const answer = await ctx.api.call('PUT', `/models/${model}/${record.id}`, { 'doc-action': select.value });
      await recordView(ctx, model, String(record.id));
      document.getElementById('record-status')?.append(notice(answer['doc-processmsg'] || `Status: ${answer.DocStatus?.identifier ?? ''}`, 'ok'));
    } catch (err) {
      status.append(notice(errorText(err)));
    }
  };
  return h('div', { class: 'toolbar doc-actions' }, h('span', { id: 'doc-status' }, `Status: ${docStatus}`), h('label', {}, 'Document action ', select), h('button', { type: 'button', id: 'doc-action-run', onclick: run }, 'Run'));
}
