/**
 * One input per dictionary column (or process parameter), chosen by its reference: text, number,
 * date, check box, a list of the reference's values, or a lookup that offers the records of the
 * table it points to and shows their identifiers. `value()` gives the JSON the API takes.
 */
import { h } from './dom.js';
import { type ColumnInfo, type Dictionary, isList, isLookup, recordLabel, REF } from './dictionary.js';

export interface FieldInput {
  column: ColumnInfo;
  element: HTMLElement;
  /** The value as the API takes it; undefined when the input is empty. */
  value(): unknown;
  changed(): boolean;
}

const has = (group: readonly number[], ref: number) => group.includes(ref);

/** The id of a lookup or list value as a record shows it ({id, identifier}), else the value. */
const rawOf = (v: unknown): unknown => (v && typeof v === 'object' && 'id' in v ? (v as { id: unknown }).id : v);

export function fieldInput(dict: Dictionary, column: ColumnInfo, current: unknown, readOnly: boolean): FieldInput {
  const id = `f-${column.name}`;
  const raw = rawOf(current);
  const ref = column.reference;
  let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  let read: () => unknown;
  const extra: HTMLElement[] = [];

  if (has(REF.yesNo, ref)) {
    const box = h('input', { id, type: 'checkbox', name: column.name });
    box.checked = raw === true || raw === 'Y';
    control = box;
    read = () => box.checked;
  } else if (isList(column)) {
    const select = h('select', { id, name: column.name }, h('option', { value: '' }, ''));
    if (raw !== null && raw !== undefined) select.append(h('option', { value: String(raw), selected: true }, (current as { identifier?: string })?.identifier ?? String(raw)));
    dict.listValues(column.referenceValue!).then((values) => {
      for (const v of values) if (v.value !== String(raw)) select.append(h('option', { value: v.value }, v.name));
    }, () => undefined);
    control = select;
    read = () => select.value || undefined;
  } else if (isLookup(column)) {
    const select = lookupSelect(dict, column, current, id);
    control = select;
    read = () => (select.value ? Number(select.value) : undefined);
  } else if (has(REF.text, ref)) {
    const area = h('textarea', { id, name: column.name, rows: 2 });
    area.value = raw === null || raw === undefined ? '' : String(raw);
    control = area;
    read = () => area.value || undefined;
  } else {
    const type = has(REF.integer, ref) || has(REF.number, ref) ? 'number' : has(REF.date, ref) ? 'date' : has(REF.dateTime, ref) ? 'datetime-local' : 'text';
    const input = h('input', { id, name: column.name, type });
    if (type === 'number') input.step = has(REF.integer, ref) ? '1' : 'any';
    input.value = raw === null || raw === undefined ? '' : type === 'date' ? String(raw).slice(0, 10) : type === 'datetime-local' ? String(raw).slice(0, 16) : String(raw);
    control = input;
    read = () => {
      if (input.value === '') return undefined;
      if (type === 'number') return Number(input.value);
      if (type === 'datetime-local') return `${input.value.length === 16 ? `${input.value}:00` : input.value}Z`;
      return input.value;
    };
  }
  control.disabled = readOnly;
  if (column.mandatory) control.setAttribute('aria-required', 'true');
  const initial = JSON.stringify(read() ?? null);
  const element = h('div', { class: 'field' }, h('label', { for: id }, column.label, column.mandatory ? h('span', { class: 'mandatory' }, ' *') : null), control, ...extra);
  return { column, element, value: read, changed: () => JSON.stringify(read() ?? null) !== initial };
}

/**
 * A lookup: the current record (shown by its identifier) and, once the user opens it, the records
 * of the table it points to.
 */
function lookupSelect(dict: Dictionary, column: ColumnInfo, current: unknown, id: string): HTMLSelectElement {
  const raw = rawOf(current);
  const select = h('select', { id, name: column.name, 'data-lookup': '' }, h('option', { value: '' }, ''));
  if (raw !== null && raw !== undefined) select.append(h('option', { value: String(raw), selected: true }, (current as { identifier?: string })?.identifier ?? String(raw)));
  let loaded: Promise<void> | null = null;
  const load = () =>
    (loaded ??= dict.lookupRecords(column, current).then((records) => {
      for (const r of records) if (String(r.id) !== String(raw)) select.append(h('option', { value: String(r.id) }, recordLabel(r)));
      select.dataset.loaded = 'true';
    }, () => {
      select.dataset.loaded = 'failed';
    }));
  select.addEventListener('focus', load);
  select.addEventListener('mousedown', load);
  return select;
}
