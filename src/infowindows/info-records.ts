import { plainValue, type Json, type JsonObject } from '../records/serialize.js';
import type { InfoOutput } from './info-query.js';

/** One value of an info window row by its column's type; lookups and lists as {propertyLabel, id, identifier}. */
function outputValue(o: InfoOutput, row: Record<string, unknown>): Json | undefined {
  const v = row[o.alias];
  if (v === null || v === undefined) return undefined;
  const plain = plainValue(o.kind, v);
  if (plain !== undefined) return plain;
  switch (o.kind) {
    case 'foreign-key': {
      const out: JsonObject = { propertyLabel: o.label, id: typeof v === 'number' ? v : /^\d{1,15}$/.test(String(v)) ? Number(v) : String(v) };
      const identifier = o.identAlias ? row[o.identAlias] : null;
      if (identifier !== null && identifier !== undefined) out.identifier = String(identifier);
      return out;
    }
    case 'list': {
      const code = String(v);
      const item = o.list?.listByValue.get(code);
      const out: JsonObject = { propertyLabel: o.label, id: code };
      if (item) out.identifier = item.name;
      return out;
    }
    default:
      return String(v);
  }
}

/** A row of an info window's query as the record it answers, keyed by the window's column names. */
export function infoRecord(outputs: InfoOutput[], row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const o of outputs) {
    const v = outputValue(o, row);
    if (v !== undefined) out[o.name] = v;
  }
  return out;
}
