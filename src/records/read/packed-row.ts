import type { Queryable } from '../../db/types.js';
import { fillKeptIdentifiers, type KeptIdentifiers } from './identifier-cache.js';
import { runNamed } from './statements.js';

type Row = Record<string, unknown>;

/** One value a read fetches: its SQL expression and the name the row gives it. */
export interface SelectItem {
  expr: string;
  name: string;
  /** How the JSON form differs from the value a plain column would give. */
  decode?: 'binary' | 'temporal';
  /** A lookup's identifier taken from memory after the statement (which reads NULL for it); keyAt: the lookup's value. */
  kept?: { source: KeptIdentifiers; keyAt: number };
}

/** Name of the single column that carries a packed row. */
export const PACKED = '$row';

// PostgreSQL functions take at most 100 arguments: wider rows are packed as arrays of arrays.
const CHUNK = 100;

/**
 * The select list that returns a row as one JSON text: `[[v1, …, v100], [v101, …]]`.
 * A driver decodes one field of a packed row far faster than a hundred typed fields (it sets up
 * every field of every result and converts each value), so wide records cost the service much
 * less CPU; the database builds the JSON in the same pass that formats the values anyway.
 */
export function packedSelect(items: readonly SelectItem[]): string {
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    chunks.push(`json_build_array(${items.slice(i, i + CHUNK).map((it) => it.expr).join(', ')})`);
  }
  return `json_build_array(${chunks.join(', ')})::text AS "${PACKED}"`;
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

/** A packed value as the value a plain column gives: timestamps come as ISO text with a T, bytea as hex text. */
export function decodeValue(item: SelectItem | undefined, v: unknown): unknown {
  const decode = item?.decode;
  if (!decode || v === null) return v;
  return decode === 'binary' ? hexBytes(String(v)) : String(v).replace('T', ' ');
}

/** The values of one packed row, in the order of its items (as JSON gives them, not decoded). */
export function packedValues(packed: string): unknown[] {
  const chunks = JSON.parse(packed) as unknown[][];
  return chunks.length === 1 ? chunks[0]! : chunks.flat();
}

/** One row's values as the object a plain SELECT of the items would have given. */
function rowOf(items: readonly SelectItem[], values: unknown[], make: RowMaker): Row {
  for (let i = 0; i < values.length; i++) {
    const item = items[i];
    if (item?.decode) values[i] = decodeValue(item, values[i]);
  }
  return make(values);
}

/** Rows of packed values as objects (the values arrays are reused). */
export function rowsOfValues(items: readonly SelectItem[], rows: unknown[][]): Row[] {
  const make = rowMaker(items);
  return rows.map((values) => rowOf(items, values, make));
}

/** Runs a statement whose select list is `packedSelect(items)` and returns each row's values, kept identifiers put in. */
export async function queryPackedValues(q: Queryable, text: string, values: readonly unknown[], items: readonly SelectItem[]): Promise<unknown[][]> {
  const { rows } = await runNamed<Record<string, string>>(q, text, values);
  const out = rows.map((r) => packedValues(r[PACKED]!));
  await fillKeptIdentifiers(q, items, out);
  return out;
}

/** Runs a statement whose select list is `packedSelect(items)` and unpacks its rows. */
export async function queryPacked(q: Queryable, text: string, values: readonly unknown[], items: readonly SelectItem[]): Promise<Row[]> {
  return rowsOfValues(items, await queryPackedValues(q, text, values, items));
}
