import type { Column, Dictionary, Table } from '../dictionary/model.js';
import { toBuffer } from '../db/type-parsers.js';
import { hasTextKey } from './reference-key.js';
import { formatDate, formatDateTime, formatInstant, formatTime } from './format.js';
import { DATA_SUFFIX, IDENT_SUFFIX } from './read/select-list.js';
import { decodeValue, type SelectItem } from './read/packed-row.js';
import { imageDataText, listReferenceOf, lookupModelName, visibleColumns, type SerializeOptions } from './serialize.js';

type Values = readonly unknown[];

/**
 * Writes a record's JSON text from the values of its packed row, as pieces appended to `out`;
 * joining the pieces of a whole page copies each one once.
 */
export type RecordWriter = (values: Values, out: string[]) => void;

/** One value's text: `v` is the decoded stored value (never null), `extra` the identifier or image data. */
type ValueWriter = (v: unknown, extra: unknown) => string;

/** Appends one member as one piece (its key, after a comma unless first, and its value); false when the record leaves it out. */
type Member = (values: Values, out: string[], first: boolean) => boolean;

const text = (s: string): string => JSON.stringify(s);

/** A number as JSON.stringify writes it (NaN and infinities as null). */
const numberText = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** A member that writes `value` under `name` when `at`'s value is present (`present` decides). */
function member(name: string, at: number, extraAt: number, write: ValueWriter, present: (v: unknown) => boolean = (v) => v !== null && v !== undefined): Member {
  const key = `${text(name)}:`;
  const nextKey = `,${key}`;
  return (values, out, first) => {
    const v = values[at];
    if (!present(v)) return false;
    // One piece per member, not one per part: a page's join then walks about 40% of the pieces
    // and the writing costs about a fifth less.
    out.push((first ? key : nextKey) + write(v, extraAt >= 0 ? values[extraAt] : undefined));
    return true;
  };
}

/**
 * The writer of one column's value, giving exactly the text of `JSON.stringify(columnValue(...))`
 * (serialize.ts holds the rules; a test compares both over every seeded table).
 */
function valueWriterOf(dict: Dictionary, column: Column): ValueWriter {
  switch (column.kind) {
    case 'boolean':
      return (v) => (v === 'Y' || v === true ? 'true' : 'false');
    case 'integer':
    case 'record-id':
    case 'number':
      return (v) => numberText(Number(v));
    case 'date':
      return (v) => text(formatDate(String(v)));
    case 'datetime':
      return (v) => text(formatDateTime(String(v)));
    case 'time':
      return (v) => text(formatTime(String(v)));
    case 'timestamptz':
      return (v) => text(formatInstant(String(v)));
    case 'binary':
      return (v) => text(toBuffer(v)!.toString('base64'));
    case 'json':
      return (v) => JSON.stringify(typeof v === 'string' ? JSON.parse(v) : v);
    case 'image': {
      const head = `{"propertyLabel":${text(column.label)},"id":`;
      return (v, data) => `${head}${numberText(Number(v))}${data ? `,"data":${text(imageDataText(data))}` : ''},"model-name":"ad_image"}`;
    }
    case 'foreign-key': {
      const head = `{"propertyLabel":${text(column.label)},"id":`;
      const tail = `,"model-name":${text(lookupModelName(column))}}`;
      const textKey = hasTextKey(dict, column);
      return (v, identifier) =>
        `${head}${textKey ? text(String(v).trim()) : numberText(Number(v))}${identifier !== null && identifier !== undefined ? `,"identifier":${text(String(identifier))}` : ''}${tail}`;
    }
    case 'list':
    case 'button': {
      const ref = listReferenceOf(dict, column);
      if (!ref || ref.validationType !== 'L') return (v) => text(String(v));
      const head = `{"propertyLabel":${text(column.label)},"id":`;
      // A list has few codes: each code's whole text is made once.
      const byCode = new Map<string, string>();
      return (v) => {
        const code = String(v);
        let whole = byCode.get(code);
        if (whole === undefined) {
          const item = ref.listByValue.get(code) ?? ref.listByValue.get(code.trim());
          whole = `${head}${text(code)}${item ? `,"identifier":${text(item.name)}` : ''},"model-name":"ad_ref_list"}`;
          if (byCode.size < 1000) byCode.set(code, whole);
        }
        return whole;
      };
    }
    default:
      return (v) => text(String(v));
  }
}

/** The member of one column, when the read fetches it. */
function columnMember(dict: Dictionary, column: Column, items: readonly SelectItem[], index: Map<string, number>): Member | null {
  const at = index.get(column.dbName);
  if (at === undefined) return null;
  const write = valueWriterOf(dict, column);
  const item = items[at];
  const extraAt = index.get(column.dbName + (column.kind === 'image' ? DATA_SUFFIX : IDENT_SUFFIX)) ?? -1;
  return member(column.name, at, extraAt, item?.decode === 'binary' ? (v, extra) => write(decodeValue(item, v), extra) : write);
}

/**
 * A writer of records as JSON text, straight from packed rows: the same text that building the
 * record object (serializeRecord) and stringifying it gives, without making either object. A
 * page of wide records then costs a fraction of the allocations. Null when the record's members
 * could not be written in order (two with one name, or a name an object treats specially); the
 * caller then builds objects.
 */
export function recordWriter(dict: Dictionary, table: Table, items: readonly SelectItem[], o: SerializeOptions = {}): RecordWriter | null {
  const index = new Map<string, number>();
  items.forEach((it, i) => index.set(it.name, i));
  const columns = (o.columns ?? visibleColumns(table)).filter((c) => c !== o.omit);
  const names = [...(table.keyColumn ? ['id'] : []), ...(table.uuColumn ? ['uid'] : []), ...columns.map((c) => c.name), ...(o.modelName !== false ? ['model-name'] : [])];
  if (new Set(names).size !== names.length || names.includes('__proto__')) return null;

  const members: Member[] = [];
  const keyAt = table.keyColumn ? index.get(table.keyColumn.dbName) : undefined;
  if (keyAt !== undefined) members.push(member('id', keyAt, -1, (v) => numberText(Number(v))));
  const uuAt = table.uuColumn ? index.get(table.uuColumn.dbName) : undefined;
  if (uuAt !== undefined) members.push(member('uid', uuAt, -1, (v) => text(String(v)), (v) => !!v));
  for (const c of columns) {
    const m = columnMember(dict, c, items, index);
    if (m) members.push(m);
  }
  if (o.modelName !== false) {
    const modelName = text(table.modelName);
    members.push(member('model-name', -1, -1, () => modelName, () => true));
  }
  return (values, out) => {
    out.push('{');
    let first = true;
    for (let i = 0; i < members.length; i++) if (members[i]!(values, out, first)) first = false;
    out.push('}');
  };
}

/** One record's JSON text. */
export function recordText(writer: RecordWriter, values: Values): string {
  const out: string[] = [];
  writer(values, out);
  return out.join('');
}
