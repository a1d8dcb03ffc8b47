import { ident } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Column, Dictionary } from '../../dictionary/model.js';
import { ApiError } from '../../errors.js';
import { parseTemporal } from '../format.js';
import { validationError } from './write-errors.js';
import { identifierColumns } from '../read/select-list.js';
import { hasTextKey } from '../reference-key.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const describe = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
};

/**
 * Finds the record a foreign-key input names: an id, or an object with id, identifier, uid or
 * lookupColumn + lookupValue, or a plain non-numeric string taken as an identifier. Only the
 * caller's client and System rows are candidates.
 */
async function resolveLookup(q: Queryable, dict: Dictionary, column: Column, input: unknown, clientId: number): Promise<number | string> {
  const target = column.lookup && dict.byName.get(column.lookup.tableName.toLowerCase());
  if (hasTextKey(dict, column)) {
    // A text key (EntityType 'U', AD_Language 'en_US') is given as itself or as {id: ...}.
    const code = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).id : input;
    if (typeof code === 'string' && code.trim() !== '') return code.trim();
    if (!(input && typeof input === 'object')) throw validationError(`Invalid value for column ${column.name}: ${describe(input)}`);
  }
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) throw validationError(`Invalid id for column ${column.name}: ${input}`);
    return input;
  }
  if (typeof input === 'string' && /^-?\d{1,15}$/.test(input.trim())) return Number(input.trim());
  let by: { column: string; value: unknown } | null = null;
  if (typeof input === 'string') by = { column: '$identifier', value: input };
  else if (input && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    if (o.id !== undefined && o.id !== null) return resolveLookup(q, dict, column, o.id, clientId);
    if (typeof o.identifier === 'string') by = { column: '$identifier', value: o.identifier };
    else if (typeof o.uid === 'string') by = { column: '$uid', value: o.uid };
    else if (typeof o.lookupColumn === 'string') by = { column: o.lookupColumn, value: o.lookupValue };
  }
  if (!by) throw validationError(`Invalid value for column ${column.name}: ${describe(input)}`);
  if (!target) throw validationError(`Column ${column.name} does not reference a table`);
  const key = target.byName.get(column.lookup!.keyColumn.toLowerCase())!;
  let match: Column | undefined;
  /** Further columns an identifier may name when the first does not match (Value, then Name, ...). */
  let others: Column[] = [];
  if (by.column === '$identifier') {
    const display = column.lookup!.displayColumn ? target.byName.get(column.lookup!.displayColumn.toLowerCase()) : undefined;
    const identifiers = identifierColumns(target);
    match = display ?? identifiers[0];
    const name = target.byName.get('name');
    others = [...identifiers, ...(name ? [name] : [])].filter((c, i, all) => c !== match && all.indexOf(c) === i);
  } else if (by.column === '$uid') {
    if (!UUID.test(String(by.value))) throw validationError(`Invalid uid for column ${column.name}: ${describe(by.value)}`);
    match = target.uuColumn ?? undefined;
  } else {
    match = target.byName.get(by.column.toLowerCase());
    if (match?.isSecure) match = undefined;
  }
  if (!match) throw validationError(`Cannot look up ${target.name} by ${by.column.replace('$', '')}`);
  const clientFilter = target.byName.has('ad_client_id') ? ` AND t."ad_client_id" IN (0, $2)` : '';
  const order = target.byName.has('ad_client_id') ? ' ORDER BY t."ad_client_id" DESC' : '';
  const find = (col: Column) =>
    q.query<{ id: number | string }>(
      `SELECT t.${ident(key.dbName)} AS id FROM ${ident(target.dbName)} t WHERE t.${ident(col.dbName)}::text = $1${clientFilter}${order} LIMIT 2`,
      target.byName.has('ad_client_id') ? [String(by.value), clientId] : [String(by.value)],
    );
  let { rows } = await find(match);
  // Clients name a product by its name as often as by its search key: the other identifier columns are tried in turn.
  for (const other of others) {
    if (rows.length) break;
    ({ rows } = await find(other));
  }
  if (rows.length === 0) throw validationError(`No ${target.name} matches ${match.name} = ${describe(by.value)} for column ${column.name}`);
  return hasTextKey(dict, column) ? String(rows[0]!.id) : Number(rows[0]!.id);
}

/** Whether an input holds the NUL character, or its JSON escape as text (a number or a boolean cannot). */
function holdsNul(input: unknown): boolean {
  if (typeof input === 'number' || typeof input === 'boolean') return false;
  if (typeof input === 'string') return input.includes('\0') || input.includes('\\u0000');
  return JSON.stringify(input).includes('\\u0000');
}

/** Turns one JSON input value into the stored value of a column, or a 400 naming the column. */
export async function convertInput(q: Queryable, dict: Dictionary, column: Column, input: unknown, clientId: number): Promise<unknown> {
  const value = convertInputNow(dict, column, input);
  return value === NEEDS_LOOKUP ? resolveLookup(q, dict, column, input, clientId) : value;
}

/** What convertInputNow answers when the input names a record that must be looked up (convertInput then). */
export const NEEDS_LOOKUP: unique symbol = Symbol('the input names a record to look up');

/**
 * convertInput without the database: the stored value, or NEEDS_LOOKUP for a reference that is
 * not given as a plain id (a statement of a thousand lines converts its values without waiting).
 */
export function convertInputNow(dict: Dictionary, column: Column, input: unknown): unknown {
  if (input === null || input === undefined) return null;
  const bad = (why = 'Invalid value') => validationError(`${why} for column ${column.name}: ${describe(input)}`);
  // The database stores no NUL character in text (nor as \u0000 in JSON).
  if (column.kind !== 'binary' && holdsNul(input)) throw bad('Text cannot contain the NUL character');
  switch (column.kind) {
    case 'boolean':
      if (input === true || input === 'Y' || input === 'true') return 'Y';
      if (input === false || input === 'N' || input === 'false') return 'N';
      throw bad();
    case 'integer':
      if (typeof input === 'number' && Number.isSafeInteger(input)) return input;
      if (typeof input === 'string' && /^-?\d{1,15}$/.test(input.trim())) return Number(input.trim());
      throw bad('Expected an integer');
    case 'number':
      if (typeof input === 'number' && Number.isFinite(input)) return input;
      if (typeof input === 'string' && /^-?\d+(\.\d+)?$/.test(input.trim())) return input.trim();
      throw bad('Expected a number');
    case 'date':
    case 'datetime':
    case 'time':
    case 'timestamptz': {
      const v = typeof input === 'string' ? parseTemporal(input) : null;
      if (!v) throw new ApiError(400, 'Invalid date', `Invalid date for column ${column.name}: ${describe(input)}`);
      return column.kind === 'date' ? `${v.slice(0, 10)} 00:00:00` : v;
    }
    case 'binary':
      if (typeof input !== 'string' || !/^[A-Za-z0-9+/=\s_-]*$/.test(input)) throw bad('Expected base64 data');
      return Buffer.from(input, 'base64');
    case 'json':
      return JSON.stringify(input);
    case 'list':
    case 'button': {
      const code = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).id : input;
      if (typeof code !== 'string' && typeof code !== 'number') throw bad();
      return String(code);
    }
    case 'foreign-key':
    case 'image':
    case 'record-id':
      // A plain id is taken as it is, as resolveLookup takes it.
      if (typeof input === 'number' && Number.isSafeInteger(input) && !hasTextKey(dict, column)) return input;
      return NEEDS_LOOKUP;
    default:
      if (typeof input === 'string') return input;
      if (typeof input === 'number' || typeof input === 'boolean') return String(input);
      throw bad('Expected a string');
  }
}
