import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import { validationError } from './write-errors.js';

/** Keys a record body may carry besides columns; they describe the record, they do not set it. */
const META_KEYS = new Set(['id', 'uid', 'model-name', 'tablename', 'identifier', 'doc-action', '(delete)', 'propertylabel']);

export interface ParsedBody {
  values: Map<Column, unknown>;
  details: { key: string; table: Table; items: Record<string, unknown>[] }[];
  docAction: unknown;
}

/** Splits a record body into column values (names in any case) and nested detail arrays. */
export function parseBody(dict: Dictionary, table: Table, body: unknown): ParsedBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid body', 'The request body must be a JSON object');
  const out: ParsedBody = { values: new Map(), details: [], docAction: undefined };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const lower = key.toLowerCase();
    if (lower === 'doc-action') {
      out.docAction = value;
      continue;
    }
    if (META_KEYS.has(lower)) continue;
    if (Array.isArray(value)) {
      const child = dict.byName.get(lower);
      if (!child) throw validationError(`No detail table matches ${key}`);
      if (!value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) throw validationError(`Detail ${key} must be an array of objects`);
      out.details.push({ key, table: child, items: value as Record<string, unknown>[] });
      continue;
    }
    const column = table.byName.get(lower);
    if (!column) throw validationError(`Column ${key} does not exist`);
    if (column.columnSql) throw validationError(`Column ${column.name} is computed and cannot be set`);
    if (column === table.keyColumn) continue;
    out.values.set(column, value);
  }
  return out;
}
