import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { badRequest, type ApiError } from '../errors.js';

/**
 * Request bodies and queries of the authentication routes. Each is checked once at the route
 * and used as its type from there on; a body that does not fit is a 400 with the error body.
 */

/** A login choice: a numeric id or, where the original accepts it, a name or value. */
const Choice = Type.Union([Type.Integer(), Type.String({ maxLength: 120 })], { description: 'an integer id or a name' });
const OptionalId = Type.Optional(Type.Union([Type.Integer(), Type.String({ pattern: '^\\s*\\d*\\s*$', maxLength: 20 })], { description: 'an integer id' }));

export const LoginParametersSchema = Type.Object({
  clientId: Type.Optional(Choice),
  roleId: Type.Optional(Choice),
  organizationId: Type.Optional(Choice),
  warehouseId: Type.Optional(Choice),
  // Any text: a language the system does not have is ignored, as the original ignores it.
  language: Type.Optional(Type.String({ maxLength: 255 })),
});
export type LoginParameters = Static<typeof LoginParametersSchema>;

export const LoginBodySchema = Type.Object({
  userName: Type.String({ minLength: 1 }),
  password: Type.String({ minLength: 1 }),
  parameters: Type.Optional(LoginParametersSchema),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const RefreshBodySchema = Type.Object({
  refresh_token: Type.String({ minLength: 1, maxLength: 4096 }),
  clientId: OptionalId,
  userId: OptionalId,
});
export type RefreshBody = Static<typeof RefreshBodySchema>;

export const LogoutBodySchema = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type LogoutBody = Static<typeof LogoutBodySchema>;

export const ResetRequestBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, pattern: '\\S' }),
  language: Type.Optional(Type.String({ maxLength: 20 })),
});
export type ResetRequestBody = Static<typeof ResetRequestBodySchema>;

export const ResetVerifyBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  code: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ResetVerifyBody = Static<typeof ResetVerifyBodySchema>;

export const ResetCompleteBodySchema = Type.Object({
  verifiedToken: Type.String({ minLength: 1, maxLength: 256 }),
  newPassword: Type.String({ minLength: 1 }),
});
export type ResetCompleteBody = Static<typeof ResetCompleteBodySchema>;

const QueryValue = Type.Optional(Type.String({ maxLength: 120 }));
export const LookupQuerySchema = Type.Object({
  client: QueryValue,
  role: QueryValue,
  organization: QueryValue,
});
export type LookupQuery = Static<typeof LookupQuerySchema>;

/** A compiled checker with a readable first error. */
export class BodyParser<T extends TSchema> {
  readonly #check: TypeCheck<T>;
  constructor(schema: T) {
    this.#check = TypeCompiler.Compile(schema);
  }

  /**
   * The value as its type, or the error made by fail (a 400 naming the first problem by
   * default). Properties set to null count as absent.
   */
  parse(raw: unknown, fail: (detail: string) => ApiError = (d) => badRequest('Bad Request', d)): Static<T> {
    const value = withoutNulls(raw);
    if (this.#check.Check(value)) return value;
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('The request body must be a JSON object');
    const first = this.#check.Errors(value).First();
    if (!first) throw fail('The request body is not valid');
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

export const parsers = {
  login: new BodyParser(LoginBodySchema),
  parameters: new BodyParser(LoginParametersSchema),
  refresh: new BodyParser(RefreshBodySchema),
  logout: new BodyParser(LogoutBodySchema),
  resetRequest: new BodyParser(ResetRequestBodySchema),
  resetVerify: new BodyParser(ResetVerifyBodySchema),
  resetComplete: new BodyParser(ResetCompleteBodySchema),
  lookup: new BodyParser(LookupQuerySchema),
};
