/**
 * The OpenAPI 3.1 document rendered as OpenAPI 3.0.3, for the documentation page: Swagger UI
 * processes a 3.1 document of this size (over 1,600 operations) through a much slower path, about
 * five times slower to show and to open an operation, than the same document as 3.0. The API's
 * own document stays 3.1; this rendition says the same in 3.0's words:
 * - `const: v` becomes `enum: [v]`;
 * - `contentEncoding: base64` becomes `format: byte` (3.0's base64 string);
 * - `patternProperties` become `additionalProperties` (3.0 has no property patterns; the first
 *   pattern's schema is kept: the document uses only catch-all patterns);
 * - a type list with "null" becomes the other type with `nullable: true`;
 * - numeric `exclusiveMinimum`/`exclusiveMaximum` become the bound with the boolean flag;
 * - `examples` of a schema becomes its first `example`;
 * - the 3.1-only `info.summary` and `license.identifier` are left out.
 * Pure: the input is not changed.
 */
export function asOpenApi30(doc: Record<string, unknown>): Record<string, unknown> {
  const out = convert(doc) as Record<string, unknown>;
  out.openapi = '3.0.3';
  const info = out.info as Record<string, unknown> | undefined;
  if (info) {
    delete info.summary;
    const license = info.license as Record<string, unknown> | undefined;
    if (license) delete license.identifier;
  }
  return out;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    switch (key) {
      case 'const':
        out.enum = [v];
        break;
      case 'contentEncoding':
        if (v === 'base64') out.format = 'byte';
        break;
      case 'patternProperties': {
        const first = Object.values(v as Record<string, unknown>)[0];
        if (first !== undefined) out.additionalProperties = convert(first);
        break;
      }
      case 'type':
        if (Array.isArray(v)) {
          const types = v.filter((t) => t !== 'null');
          if (types.length < v.length) out.nullable = true;
          if (types.length === 1) out.type = types[0];
          else if (types.length > 1) out.anyOf = [...((out.anyOf as unknown[]) ?? []), ...types.map((t) => ({ type: t }))];
        } else out.type = v;
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof v === 'number') {
          out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = v;
          out[key] = true;
        } else out[key] = v;
        break;
      case 'examples':
        // A schema's examples (a list); an operation's or media type's `examples` (a map) are 3.0 too.
        if (Array.isArray(v)) {
          if (v.length) out.example = convert(v[0]);
        } else out.examples = convert(v);
        break;
      default:
        out[key] = convert(v);
    }
  }
  return out;
}
