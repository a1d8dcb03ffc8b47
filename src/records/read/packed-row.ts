import type { Queryable } from '../../db/types.js';
import { fillKeptIdentifiers, type KeptIdentifiers } from './identifier-cache.js';
import { runNamed } from './statements.js';

type Row = Record<string, unknown>;

/** One value a read fetches: its SQL expression and the name the row gives it. */
export interface SelectItem {
  expr: string;
  name: string;
  /**
   * How the value's text becomes the value a plain column of its type gives (see `textParsers`):
   * numbers as numbers, JSON as its value, a boolean expression's t/f as true/false; text
   * otherwise (dates and timestamps too, as the server writes them). Bytea stays hex text until
   * a consumer asks for its bytes (decodeValue), which most reads never do.
   */
  decode?: 'number' | 'json' | 'boolean' | 'binary';
  /** A lookup's identifier taken from memory after the statement (which reads NULL for it); keyAt: the lookup's value. */
  kept?: { source: KeptIdentifiers; keyAt: number };
}

/** Name of the single column that carries a packed row. */
export const PACKED = '$row';

/**
 * The select list that returns a row as one text: the row value's own text, `(v1,v2,…)`.
 * A driver decodes one field of a packed row far faster than a hundred typed fields (it sets up
 * every field of every result and converts each value), so wide records cost the service much
 * less CPU. The row's text costs the database little more than the values' own texts, which it
 * makes anyway: with a JSON array of the same values, a list read of 50 partners and its count
 * cost it 1.94 ms against 1.72 ms (pgbench, one client; docs/benchmarks.md).
 */
export function packedSelect(items: readonly SelectItem[]): string {
  return `ROW(${items.map((it) => it.expr).join(', ')})::text AS "${PACKED}"`;
}

/** `\x…` hex text (bytea in JSON) as bytes. */
function hexBytes(v: string): Buffer {
  return Buffer.from(v.startsWith('\\x') ? v.slice(2) : v, 'hex');
}

type RowMaker = (values: unknown[]) => Row;

const MAX_MAKERS = 1000;
const makers = new Map<string, RowMaker>();
// A projection's items are one array for its lifetime: its maker is found without joining names.
const makersByItems = new WeakMap<readonly SelectItem[], RowMaker>();

/**
 * A function that makes the row object of a list of names. Its constructor assigns every name in
 * order, so all rows of one shape share one hidden class with the values stored inline: one
 * allocation per row instead of a hash table, which keeps wide pages cheap to build and collect.
 * Names are embedded as JSON string literals, so no name can change the generated code.
 */
function rowMaker(items: readonly SelectItem[]): RowMaker {
  const known = makersByItems.get(items);
  if (known) return known;
  const key = items.map((it) => it.name).join('\u0000');
  let make = makers.get(key);
  if (!make) {
    const body = items.map((it, i) => `this[${JSON.stringify(it.name)}] = v[${i}];`).join('\n');
    const Row = new Function('v', body) as unknown as new (v: unknown[]) => Row;
    // Rows stay plain objects to every consumer (prototype, equality, spreading).
    Row.prototype = Object.prototype;
    make = (v) => new Row(v);
    if (makers.size < MAX_MAKERS) makers.set(key, make);
  }
  makersByItems.set(items, make);
  return make;
}

/** A packed value as the value a plain column gives: bytea as bytes (the others are decoded when the row is read). */
export function decodeValue(item: SelectItem | undefined, v: unknown): unknown {
  return item?.decode === 'binary' && v !== null ? hexBytes(String(v)) : v;
}

type Converter = ((text: string) => unknown) | null;

const CONVERTERS: Record<NonNullable<SelectItem['decode']>, Converter> = {
  number: Number,
  json: (text) => JSON.parse(text) as unknown,
  boolean: (text) => (text === 't' ? true : text === 'f' ? false : text),
  binary: null,
};
/** Each item's converter from text, found once per statement rather than once per row. */
function convertersOf(items: readonly SelectItem[]): Converter[] {
  return items.map((it) => (it.decode ? CONVERTERS[it.decode] : null));
}

/** A quoted field's text from just after its opening quote; `end` receives the index after its closing quote. */
function quotedField(packed: string, from: number, end: { at: number }): string {
  // Inside quotes the row's text doubles every quote and backslash. Each kind is searched for
  // again only once passed, so a long field is scanned once.
  let out = '';
  let i = from;
  let q = packed.indexOf('"', i);
  let b = packed.indexOf('\\', i);
  for (;;) {
    if (q < 0) throw new Error('unterminated field in a packed row');
    if (b >= 0 && b < q) {
      out += packed.slice(i, b + 1);
      i = b + 2;
      b = packed.indexOf('\\', i);
      if (q < i) q = packed.indexOf('"', i);
      continue;
    }
    out += packed.slice(i, q);
    if (packed.charCodeAt(q + 1) !== 34) {
      end.at = q + 1;
      return out;
    }
    out += '"';
    i = q + 2;
    q = packed.indexOf('"', i);
    if (b >= 0 && b < i) b = packed.indexOf('\\', i);
  }
}

/**
 * The values of one packed row, in the order of its items. The row's text is `(f1,f2,…)`: a
 * null is nothing, a field with a comma, quote, backslash, parenthesis or space (or an empty
 * one) is quoted, any other is as it is.
 */
export function packedValues(packed: string, items: readonly SelectItem[]): unknown[] {
  return rowValues(packed, convertersOf(items));
}

/** The values of one packed row, one per converter. */
function rowValues(packed: string, convert: readonly Converter[]): unknown[] {
  const values: unknown[] = new Array(convert.length);
  const last = packed.length - 1; // the closing parenthesis
  const end = { at: 0 };
  let i = 1;
  for (let n = 0; n < convert.length; n++) {
    let text: string | null;
    if (packed.charCodeAt(i) === 34) {
      text = quotedField(packed, i + 1, end);
      i = end.at;
    } else {
      let j = packed.indexOf(',', i);
      if (j < 0 || j > last) j = last;
      text = j === i ? null : packed.slice(i, j);
      i = j;
    }
    i++; // the comma after the field
    const c = convert[n];
    values[n] = text === null ? null : c ? c(text) : text;
  }
  return values;
}

/** One row's values as the object a plain SELECT of the items would have given. */
function rowOf(items: readonly SelectItem[], values: unknown[], make: RowMaker): Row {
  for (let i = 0; i < values.length; i++) {
    const item = items[i];
    if (item?.decode === 'binary') values[i] = decodeValue(item, values[i]);
  }
  return make(values);
}

/** Rows of packed values as objects (the values arrays are reused). */
export function rowsOfValues(items: readonly SelectItem[], rows: unknown[][]): Row[] {
  const make = rowMaker(items);
  return rows.map((values) => rowOf(items, values, make));
}

/**
 * Runs a statement whose select list is `packedSelect(items)` and returns each row's values, kept
 * identifiers put in. `also` names a further column the statement selects; its texts go to `alsoOut`.
 */
export async function queryPackedValues(q: Queryable, text: string, values: readonly unknown[], items: readonly SelectItem[], also?: { name: string; out: (string | null)[] }): Promise<unknown[][]> {
  const { rows } = await runNamed<Record<string, string>>(q, text, values);
  if (also) for (const r of rows) also.out.push(r[also.name] ?? null);
  const convert = convertersOf(items);
  const out = rows.map((r) => rowValues(r[PACKED]!, convert));
  await fillKeptIdentifiers(q, items, out);
  return out;
}

/** Runs a statement whose select list is `packedSelect(items)` and unpacks its rows. */
export async function queryPacked(q: Queryable, text: string, values: readonly unknown[], items: readonly SelectItem[], also?: { name: string; out: (string | null)[] }): Promise<Row[]> {
  return rowsOfValues(items, await queryPackedValues(q, text, values, items, also));
}
