import type { Json, JsonObject } from '../records/serialize.js';

/** A @Column@ variable of a payload template, with the quotes around it when it has them. */
const VARIABLE = /"@([A-Za-z_][A-Za-z0-9_]*)@"|@([A-Za-z_][A-Za-z0-9_]*)@/g;

/** Marks a quoted variable whose value is null: the member holding it is removed after parsing. */
const OMIT = '\u0000omit\u0000';

/**
 * Fills a payload template from a record's values (by column name, any case). A quoted variable
 * takes the value as a JSON string, and with a null value its member is omitted; an unquoted
 * variable takes the JSON value itself, and null stays JSON null. Throws when the result is not JSON.
 */
export function renderTemplate(template: string, values: ReadonlyMap<string, Json | undefined>): Json {
  const value = (name: string): Json | undefined => values.get(name.toLowerCase());
  const text = template.replace(VARIABLE, (_m, quoted: string | undefined, bare: string | undefined) => {
    if (quoted !== undefined) {
      const v = value(quoted);
      if (v === null || v === undefined) return JSON.stringify(OMIT);
      return JSON.stringify(typeof v === 'string' ? v : scalarText(v));
    }
    const v = value(bare!);
    return v === null || v === undefined ? 'null' : JSON.stringify(v);
  });
  return dropOmitted(JSON.parse(text) as Json);
}

/** A value's text inside a quoted variable: a lookup gives its id, other objects their JSON. */
function scalarText(v: Json): string {
  if (v && typeof v === 'object' && !Array.isArray(v) && 'id' in v) return String(v.id);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function dropOmitted(v: Json): Json {
  if (Array.isArray(v)) return v.filter((x) => x !== OMIT).map(dropOmitted);
  if (v && typeof v === 'object') {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== OMIT) out[k] = dropOmitted(x);
    return out;
  }
  return v;
}

/** Comma list of column names, lower-cased; empty when blank. */
export const columnList = (text: string | null | undefined): Set<string> =>
  new Set((text ?? '').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean));

/**
 * A serialized record narrowed by IncludeColumns (only those, when any) and ExcludeColumns;
 * id, uid and model-name always stay.
 */
export function selectColumns(record: JsonObject, include: Set<string>, exclude: Set<string>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(record)) {
    const name = k.toLowerCase();
    const fixed = name === 'id' || name === 'uid' || name === 'model-name';
    if (!fixed && include.size && !include.has(name)) continue;
    if (!fixed && exclude.has(name)) continue;
    out[k] = v;
  }
  return out;
}
