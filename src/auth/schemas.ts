import { Type, type Static } from '@sinclair/typebox';
import { SchemaCheck } from '../http/schema-validation.js';

/**
 * Request bodies and queries of the authentication routes. The routes declare them in their
 * schema and Fastify checks requests against them (src/http/schema-validation.ts); a body that
 * does not fit is a 400 with the error body. The password reset steps check theirs in the route,
 * for answers of their own.
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

/** The check of a password reset code's body, which its route runs itself (see password-reset.ts). */
export const parsers = {
  resetVerify: new SchemaCheck(ResetVerifyBodySchema),
};
