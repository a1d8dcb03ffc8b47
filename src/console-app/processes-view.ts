/**
 * Processes and reports the role may run: a list, and one process as a form of its parameters,
 * run at once (its summary, log and the report or export file it produced, opened from the
 * browser's memory) or as a background job.
 */
import { h, fill, notice, table } from './dom.js';
import { href, type ViewContext } from './context.js';
import type { ColumnInfo } from './dictionary.js';
import { fieldInput, type FieldInput } from './field-inputs.js';
import { errorText } from './error-text.js';

export async function processesView(ctx: ViewContext): Promise<void> {
  const answer = await ctx.api.call('GET', '/processes');
  fill(
    ctx.main,
    h('h1', {}, 'Processes and reports'),
    table(['Process', 'Search key', 'Report', 'Description'], answer.processes ?? [], (p: any) => [h('a', { href: href(`/processes/${p.slug}`) }, p.Name), p.Value, p.IsReport ? 'Yes' : '', p.Description ?? '']),
  );
}

const idOf = (v: unknown): number | null => (v && typeof v === 'object' && 'id' in v ? Number((v as { id: unknown }).id) : null);

/** A process parameter seen as a column, so that it gets the input its reference calls for. */
function parameterColumn(p: any, name: string, label: string): ColumnInfo {
  return { name, label, reference: idOf(p.AD_Reference_ID) ?? 10, referenceValue: idOf(p.AD_Reference_Value_ID), mandatory: p.IsMandatory === true, updateable: true, key: false, parent: false, identifier: false, selection: false, virtual: false };
}

export async function processView(ctx: ViewContext, slug: string): Promise<void> {
  const { api, dict, main } = ctx;
  const process = await api.call('GET', `/processes/${encodeURIComponent(slug)}`);
  const inputs: FieldInput[] = [];
  for (const p of process.parameters ?? []) {
    const defaultValue = typeof p.DefaultValue === 'string' && !p.DefaultValue.includes('@') ? p.DefaultValue : undefined;
    inputs.push(fieldInput(dict, parameterColumn(p, p.parameterName, p.Name), defaultValue, false));
    if (p.IsRange) inputs.push(fieldInput(dict, parameterColumn(p, `${p.parameterName}_To`, `${p.Name} (to)`), undefined, false));
  }
  const reportType = h('select', { id: 'report-type', name: 'report-type' }, ...['HTML', 'PDF', 'CSV', 'XLS'].map((t) => h('option', { value: t }, t)));
  const result = h('section', { id: 'process-result' });
  const body = () => {
    const b: Record<string, unknown> = {};
    for (const i of inputs) {
      const v = i.value();
      if (v !== undefined) b[i.column.name] = v;
    }
    if (process.IsReport) b['report-type'] = reportType.value;
    return b;
  };
  const run = async (e: Event) => {
    e.preventDefault();
    fill(result, h('p', { class: 'busy' }, 'Running…'));
    try {
      showResult(result, await api.call('POST', `/processes/${encodeURIComponent(slug)}`, body()));
    } catch (err) {
      fill(result, notice(errorText(err)));
    }
  };
  const background = async () => {
    try {
      await api.call('POST', `/processes/jobs/${encodeURIComponent(slug)}`, { ...body(), 'notification-type': 'N' });
      ctx.go('/jobs');
    } catch (err) {
      fill(result, notice(errorText(err)));
    }
  };
  const form = h(
    'form',
    { id: 'process-form', class: 'record' },
    h('div', { class: 'fields' }, ...inputs.map((i) => i.element), process.IsReport ? h('div', { class: 'field' }, h('label', { for: 'report-type' }, 'Report type'), reportType) : null),
    h('button', { type: 'submit', id: 'process-run' }, 'Run'),
    h('button', { type: 'button', id: 'process-background', onclick: background }, 'Run in background'),
  );
  form.addEventListener('submit', run);
  fill(main, h('p', {}, h('a', { href: href('/processes') }, '« Processes')), h('h1', {}, process.Name), process.Description ? h('p', {}, process.Description) : null, form, result);
}

const TYPES: Record<string, string> = { html: 'text/html', pdf: 'application/pdf', csv: 'text/csv', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xls: 'application/vnd.ms-excel', txt: 'text/plain' };

/** A base64 file of the answer as an address the browser can open (it stays in the tab's memory). */
function fileAddress(base64: string, name: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const type = TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
  return URL.createObjectURL(new Blob([bytes], { type }));
}

function showResult(result: HTMLElement, answer: any): void {
  fill(result, notice(answer.summary || (answer.isError ? 'The process failed' : 'Done'), answer.isError ? 'error' : 'ok'));
  const logs = (answer.logs ?? []) as unknown[];
  if (logs.length) result.append(h('ul', { class: 'logs' }, ...logs.map((l) => h('li', {}, typeof l === 'string' ? l : JSON.stringify(l)))));
  for (const [file, name] of [['reportFile', 'reportFileName'], ['exportFile', 'exportFileName']] as const) {
    if (!answer[file]) continue;
    const address = fileAddress(answer[file], answer[name] ?? 'report');
    result.append(h('p', {}, h('a', { href: address, target: '_blank', id: `open-${file}`, download: answer[name] }, `Open ${answer[name]}`)));
    if (/\.(html|pdf)$/i.test(answer[name] ?? '')) result.append(h('iframe', { src: address, class: 'report', id: 'report-frame', title: answer[name] }));
  }
}
