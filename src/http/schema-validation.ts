import type { FastifyInstance } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ApiError, badRequest } from '../errors.js';

/** Marks a schema the route checks input against itself, with the original's answers: the document shows it, requests are not checked against it. */
const DOCUMENT_ONLY: unique symbol = Symbol('document only');
/** The schema a marked or defaulted copy was made from, so that the document names it as its component. */
const ORIGINS = new WeakMap<object, TSchema>();

/** A schema for the document only (see DOCUMENT_ONLY). */
export function documented<T extends TSchema>(schema: T): T {
  const copy = { ...schema, [DOCUMENT_ONLY]: true };
  ORIGINS.set(copy, originOf(schema));
  return copy;
}

/** A schema whose part, when absent, reads as `value` (`{}` for a body that may be left out). */
export function absentAs<T extends TSchema>(schema: T, value: unknown): T {
  const copy = { ...schema, default: value };
  ORIGINS.set(copy, originOf(schema));
  return copy;
}

/** The one error of schemas whose every fault answers the same (see failingAs). */
const FAILURES = new WeakMap<object, { title: string; detail: string | ((value: unknown) => string) }>();

/** A schema whose part, when it does not fit, answers one error: the route's own title and detail (made from the part when a function). */
export function failingAs<T extends TSchema>(schema: T, title: string, detail: string | ((value: unknown) => string)): T {
  const copy = { ...schema };
  ORIGINS.set(copy, originOf(schema));
  FAILURES.set(copy, { title, detail });
  return copy;
}

/** The schema a copy was made from (itself for others). */
export const originOf = <T extends TSchema>(schema: T): T => (ORIGINS.get(schema) as T | undefined) ?? schema;

/** A schema the requests are not checked against: marked so, or a reference to a component. */
export const isDocumentOnly = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && (DOCUMENT_ONLY in schema || typeof (schema as { $ref?: unknown }).$ref === 'string');

/** The names of request parts in error details. */
const PART_NAMES: Record<string, string> = { body: 'The request body', querystring: 'The query', params: 'The path' };

/**
 * A compiled check of one request part against its TypeBox schema, with a readable first error.
 * Compiled once, when the route is registered: a request only runs the compiled check.
 */
export class SchemaCheck<T extends TSchema> {
  readonly #check: TypeCheck<T>;
  readonly #schema: T;
  readonly #part: string;
  constructor(schema: T, part = 'body') {
    this.#check = TypeCompiler.Compile(schema);
    this.#schema = schema;
    this.#part = PART_NAMES[part] ?? 'The request body';
  }

  /**
   * The value as its type, or the error made by fail (a 400 naming the first problem by
   * default). Properties set to null count as absent; an absent part is the schema's default
   * when it has one.
   */
  parse(raw: unknown, fail: (detail: string) => ApiError = (d) => badRequest('Bad Request', d)): Static<T> {
    const given = raw === undefined || raw === null ? (this.#schema.default !== undefined ? structuredClone(this.#schema.default) : raw) : raw;
    const value = withoutNulls(given);
    if (this.#check.Check(value)) return value;
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(`${this.#part} must be a JSON object`);
    const first = this.#check.Errors(value).First();
    if (!first) throw fail(`${this.#part} is not valid`);
    const where = first.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : 'body';
    if (/Expected required property/i.test(first.message)) throw fail(`${where} is required`);
    const expected = typeof first.schema.description === 'string' ? `must be ${first.schema.description}` : first.message;
    throw fail(`${where}: ${expected}`);
  }
}

function withoutNulls(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

/**
 * Requests are checked against the TypeBox schemas their routes declare (body, querystring,
 * params), with the checks above: no coercion and no removal of properties, so a route sees what
 * the client sent (nulls read as absent), and a part that does not fit is a 400 with the error
 * body. Schemas marked for the document only (see documented()) and references to components
 * are not checked: those routes check their input themselves, answering as the original does.
 */
export function checkRequestsWithSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (isDocumentOnly(schema)) return () => true;
    const check = new SchemaCheck(schema as TSchema, httpPart);
    const failure = FAILURES.get(schema as object);
    return (data: unknown) => {
      const fail = failure ? () => badRequest(failure.title, typeof failure.detail === 'string' ? failure.detail : failure.detail(data)) : undefined;
      try {
        return { value: check.parse(data, fail) };
      } catch (e) {
        if (e instanceof ApiError) return { error: e };
        throw e;
      }
    };
  });
}
