import type { Column, Dictionary, Reference, Table } from '../dictionary/model.js';
import type { ColumnKind } from '../dictionary/display-type.js';
import { toBuffer } from '../db/type-parsers.js';
import { hasTextKey } from './reference-key.js';
import { formatDate, formatDateTime, formatInstant, formatTime } from './format.js';
import { DATA_SUFFIX, IDENT_SUFFIX } from './read/select-list.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Columns a record shows: never secret ones; the key and UUID appear as id and uid instead. */
export function visibleColumns(table: Table): Column[] {
  return table.columns.filter((c) => !c.isSecure && !c.isEncrypted && c !== table.keyColumn && c !== table.uuColumn);
}

/** The model name a lookup's value names: its target table's, in lower case. */
export function lookupModelName(column: Column): string {
  return (column.lookup?.tableName ?? column.name.replace(/_ID$/i, '')).toLowerCase();
}

/** Per lookup column: the row key of its identifier and its target's model name (made once, not per value). */
const lookupKeys = new WeakMap<Column, { identKey: string; modelName: string }>();

function lookupKeysOf(column: Column): { identKey: string; modelName: string } {
  let k = lookupKeys.get(column);
  if (!k) {
    k = { identKey: column.dbName + IDENT_SUFFIX, modelName: lookupModelName(column) };
    lookupKeys.set(column, k);
  }
  return k;
}

/** The list reference a List or Button column shows its codes by (undefined when it has none). */
export function listReferenceOf(dict: Dictionary, column: Column): Reference | undefined {
  const id = column.listReferenceId ?? column.referenceValueId;
  return id !== null ? dict.references.get(id) : undefined;
}

/** An image's base64 data as a record shows it: without the line breaks the database puts in. */
export const imageDataText = (data: unknown): string => String(data).replace(/\s+/g, '');

/** The JSON form of a present value of a kind that needs nothing but the value (undefined for the others). */
export function plainValue(kind: ColumnKind, v: unknown): Json | undefined {
  switch (kind) {
    case 'boolean':
      return v === 'Y' || v === true;
    case 'integer':
    case 'record-id':
    case 'number':
      return Number(v);
    case 'date':
      return formatDate(String(v));
    case 'datetime':
      return formatDateTime(String(v));
    case 'time':
      return formatTime(String(v));
    case 'timestamptz':
      return formatInstant(String(v));
    default:
      return undefined;
  }
}

/** One column's JSON form by its type (the spec's value-format table). */
export function columnValue(dict: Dictionary, column: Column, row: Record<string, unknown>): Json | undefined {
  const v = row[column.dbName];
  if (v === null || v === undefined) return undefined;
  const plain = plainValue(column.kind, v);
  if (plain !== undefined) return plain;
  switch (column.kind) {
    case 'binary':
      return toBuffer(v)!.toString('base64');
    case 'json':
      return (typeof v === 'string' ? JSON.parse(v) : v) as Json;
    case 'image': {
      const out: JsonObject = { propertyLabel: column.label, id: Number(v) };
      const data = row[column.dbName + DATA_SUFFIX];
      if (data) out.data = imageDataText(data);
      out['model-name'] = 'ad_image';
      return out;
    }
    case 'foreign-key': {
      const keys = lookupKeysOf(column);
      const out: JsonObject = { propertyLabel: column.label, id: hasTextKey(dict, column) ? String(v).trim() : Number(v) };
      const identifier = row[keys.identKey];
      if (identifier !== null && identifier !== undefined) out.identifier = String(identifier);
      out['model-name'] = keys.modelName;
      return out;
    }
    case 'list':
    case 'button': {
      const code = String(v);
      const ref = listReferenceOf(dict, column);
      if (!ref || ref.validationType !== 'L') return code;
      const item = ref.listByValue.get(code) ?? ref.listByValue.get(code.trim());
      const out: JsonObject = { propertyLabel: column.label, id: code };
      if (item) out.identifier = item.name;
      out['model-name'] = 'ad_ref_list';
      return out;
    }
    default:
      return String(v);
  }
}

export interface SerializeOptions {
  /** Columns to include (already filtered for visibility); defaults to all visible. */
  columns?: Column[];
  /** Column to leave out (the link column of an expanded detail). */
  omit?: Column | null;
  modelName?: boolean;
}

/** A database row as the API's record: id, uid, the columns in dictionary order, model-name. */
export function serializeRecord(dict: Dictionary, table: Table, row: Record<string, unknown>, o: SerializeOptions = {}): JsonObject {
  const out: JsonObject = {};
  if (table.keyColumn && row[table.keyColumn.dbName] !== null && row[table.keyColumn.dbName] !== undefined) out.id = Number(row[table.keyColumn.dbName]);
  if (table.uuColumn && row[table.uuColumn.dbName]) out.uid = String(row[table.uuColumn.dbName]);
  for (const c of o.columns ?? visibleColumns(table)) {
    if (c === o.omit) continue;
    const v = columnValue(dict, c, row);
    if (v !== undefined) out[c.name] = v;
  }
  if (o.modelName !== false) out['model-name'] = table.modelName;
  return out;
}
