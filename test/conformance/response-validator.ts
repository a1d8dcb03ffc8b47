import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Schema, UpstreamDocument } from './upstream-document.js';

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** Marks, inside an upstream schema, the documented properties the original may leave out. */
export const OPTIONAL = 'x-optional';

/**
 * An upstream schema (OpenAPI 3.0) as a JSON Schema that also checks presence: every property
 * the document names must be in the answer, unless a correction lists it under `x-optional`.
 * The documents declare no `required` lists at all; without this a renamed or missing property
 * would pass. Extra properties stay allowed.
 */
export function toJsonSchema(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === OPTIONAL || k === 'nullable') continue;
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, toJsonSchema(s)]));
    else if (k === 'items' || k === 'not' || k === 'additionalProperties') out[k] = typeof v === 'object' ? toJsonSchema(v) : v;
    else if (k === 'oneOf' || k === 'anyOf' || k === 'allOf') out[k] = (v as Schema[]).map(toJsonSchema);
    else out[k] = v;
  }
  if (schema.properties && typeof schema.properties === 'object') {
    const optional = new Set<string>(schema[OPTIONAL] ?? []);
    const required = Object.keys(schema.properties).filter((p) => !optional.has(p));
    if (required.length) out.required = [...new Set([...(schema.required ?? []), ...required])];
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.enum) out.enum = [...out.enum, null];
  }
  return out;
}

export interface Violation {
  at: string;
  message: string;
}

/** Compiles and caches validators for the response schemas of one (corrected) document. */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly defs: Record<string, Schema>;
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(doc: UpstreamDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // OpenAPI's own formats: base64 text, raw bytes (not checked in JSON), and number widths.
    this.ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
    this.ajv.addFormat('binary', true);
    this.ajv.addFormat('int', true);
    this.ajv.addFormat('float', true);
    this.defs = Object.fromEntries(Object.entries(doc.schemas).map(([k, s]) => [k, toJsonSchema(s)]));
  }

  validate(schema: Schema, value: unknown): Violation[] {
    let fn = this.compiled.get(schema);
    if (!fn) {
      fn = this.ajv.compile({ ...toJsonSchema(schema), $defs: this.defs });
      this.compiled.set(schema, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e: ErrorObject) => ({ at: e.instancePath || '/', message: describe(e) }));
  }
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'required') return `missing property ${(e.params as { missingProperty: string }).missingProperty}`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return e.message ?? e.keyword;
}
