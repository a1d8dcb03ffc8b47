import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { Services } from '../services.js';
import { bearerToken } from './authenticate.js';
import { LoginResolver } from './login-choices.js';
import { postTokens, putTokens } from './login.js';
import { completeReset, requestCode, verifyCode } from './password-reset.js';
import { logout, refreshTokens } from './refresh.js';
import { Type } from '@sinclair/typebox';
import { absentAs, documented, failingAs } from '../http/schema-validation.js';
import { listOf, Open, ref } from '../openapi/answer-schemas.js';
import {
  LoginBodySchema, LoginParametersSchema, LogoutBodySchema, LookupQuerySchema, RefreshBodySchema, ResetCompleteBodySchema, ResetRequestBodySchema, ResetVerifyBodySchema,
  type LoginBody, type LoginParameters, type LogoutBody, type LookupQuery, type RefreshBody, type ResetCompleteBody, type ResetRequestBody,
} from './schemas.js';

const PUBLIC = { public: true } as const;
const BASE = '/api/v1/auth';
const LOOKUP = { queryParameters: [...Object.keys(LookupQuerySchema.properties), 'locale'] };
const idName = (key: string, example: unknown) => ({ answer: listOf(key, ref('IdName')), example: { [key]: example } });

/** Who is asking on an authenticated auth route: a first-step token (its clients only) or a full token. */
function caller(req: FastifyRequest): { userId: number; clientIds?: number[]; issuedAt?: number } {
  if (req.loginStep) return { userId: req.loginStep.userId, clientIds: req.loginStep.clientIds, issuedAt: req.loginStep.issuedAt };
  return { userId: req.auth.userId };
}

function required(q: LookupQuery, name: keyof LookupQuery): string {
  const v = q[name];
  if (v === undefined || v.trim() === '') throw badRequest('Bad Request', `The query parameter ${name} is required`);
  return v.trim();
}

/** Token responses must not be cached by clients or proxies. */
const noStore = (reply: FastifyReply): FastifyReply => reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');

/** The authentication endpoints of the spec, under /api/v1/auth. */
export async function authRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const auth = s.auth;

  app.post<{ Body: LoginBody }>(`${BASE}/tokens`, {
    config: PUBLIC,
    schema: {
      summary: 'Log in',
      description: 'Without parameters: the first step (the clients to choose from and a first-step token); with parameters (clientId, roleId, organizationId, warehouseId): the full login.',
      body: LoginBodySchema,
      answer: ref('LoginAnswer'),
      example: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103, language: 'en_US' } },
    },
  }, async (req, reply) => {
    const body = req.body;
    return noStore(reply).send(await postTokens(auth, body, req.ip));
  });

  app.put<{ Body: LoginParameters }>(`${BASE}/tokens`, {
    schema: { summary: 'Finish a login: choose client, role, organization and warehouse', body: absentAs(LoginParametersSchema, {}), answer: ref('LoginAnswer'), example: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } },
  }, async (req, reply) => {
    const params = req.body;
    return noStore(reply).send(await putTokens(auth, caller(req), params, req.ip));
  });

  /** The stepwise lookups share their start: the query, the caller's resolver and the chosen client. */
  const lookup = async (req: FastifyRequest) => {
    const q = req.query as LookupQuery;
    const who = caller(req);
    const resolver = await LoginResolver.forUser(auth, who.userId, who.issuedAt);
    return { q, resolver, client: resolver.client(required(q, 'client'), who.clientIds) };
  };

  app.get(`${BASE}/roles`, { config: LOOKUP, schema: { summary: 'Roles the user may choose in a client', querystring: LookupQuerySchema, ...idName('roles', [{ id: 102, name: 'GardenWorld Admin' }]) } }, async (req) => {
    const { resolver, client } = await lookup(req);
    return { roles: resolver.roles(client.id) };
  });

  app.get(`${BASE}/organizations`, { config: LOOKUP, schema: { summary: 'Organizations of a role in a client', querystring: LookupQuerySchema, ...idName('organizations', [{ id: 11, name: 'HQ' }]) } }, async (req) => {
    const { q, resolver, client } = await lookup(req);
    const role = await resolver.role(client.id, required(q, 'role'));
    const orgs = await resolver.organizations(client.id, role.id);
    return { organizations: orgs.map((o) => ({ id: o.id, name: o.name })) };
  });

  app.get(`${BASE}/warehouses`, { config: LOOKUP, schema: { summary: 'Warehouses of an organization', querystring: LookupQuerySchema, ...idName('warehouses', [{ id: 103, name: 'HQ Warehouse' }]) } }, async (req) => {
    const { q, resolver, client } = await lookup(req);
    const role = await resolver.role(client.id, required(q, 'role'));
    const org = await resolver.organization(client.id, role.id, required(q, 'organization'));
    const list = await resolver.warehouses(client.id, org.id);
    return { warehouses: list.map((w) => ({ id: w.id, name: w.name })) };
  });

  app.get(`${BASE}/language`, { config: LOOKUP, schema: { summary: "A client's language", querystring: LookupQuerySchema, answer: Type.Object({ AD_Language: Type.String() }), example: { AD_Language: 'en_US' } } }, async (req) => {
    const { resolver, client } = await lookup(req);
    return { AD_Language: await resolver.clientLanguage(client.id) };
  });

  app.post<{ Body: RefreshBody }>(`${BASE}/refresh`, {
    config: PUBLIC,
    schema: { summary: 'A new token pair for a refresh token (each refresh token works once)', body: RefreshBodySchema, answer: ref('TokenPair'), example: { refresh_token: 'eyJ...', clientId: 11, userId: 101 } },
  }, async (req, reply) => {
    return noStore(reply).send(await refreshTokens(auth, req.body));
  });

  app.post<{ Body: LogoutBody }>(`${BASE}/logout`, {
    config: PUBLIC,
    schema: { summary: 'End the session of a token', body: absentAs(LogoutBodySchema, {}), answer: ref('Message'), example: { token: 'eyJ...' } },
  }, async (req) => {
    const body = req.body;
    let bearer: string | null = null;
    if (!body.token) bearer = bearerToken(req);
    return logout(auth, body, bearer);
  });

  app.post<{ Body: ResetRequestBody }>(`${BASE}/password-reset/request`, {
    config: PUBLIC,
    schema: {
      summary: 'Send a password reset code by e-mail',
      // One message for any fault of the body.
      body: failingAs(ResetRequestBodySchema, 'Bad Request', 'email is required: a non-blank e-mail address of at most 254 characters'),
      answer: ref('Message'),
      example: { email: 'admin@gardenworld.com' },
    },
  }, async (req) => {
    return requestCode(auth, req.body, req.ip);
  });

  // The code check reads its body itself: any fault answers as a wrong code does, in the same time.
  app.post(`${BASE}/password-reset/verify`, {
    config: PUBLIC,
    schema: { summary: 'Check a password reset code', body: documented(ResetVerifyBodySchema), answer: Open({ verifiedToken: Type.Optional(Type.String()) }), example: { email: 'admin@gardenworld.com', code: '123456' } },
  }, async (req, reply) => {
    return noStore(reply).send(await verifyCode(auth, req.body));
  });

  app.post<{ Body: ResetCompleteBody }>(`${BASE}/password-reset/complete`, {
    config: PUBLIC,
    schema: { summary: 'Set the new password', body: ResetCompleteBodySchema, answer: ref('Message'), example: { verifiedToken: 'c2f1...', newPassword: 'a long new password' } },
  }, async (req) => {
    return completeReset(auth, req.body);
  });

  const jwk = Type.Object({ keys: Type.Array(Open({ kty: Type.String(), kid: Type.Optional(Type.String()), alg: Type.Optional(Type.String()) })) });
  app.get(`${BASE}/jwk`, { config: PUBLIC, schema: { summary: 'The public keys that verify tokens (JWKS)', answer: jwk, example: { keys: [{ kty: 'EC', crv: 'P-256', x: '...', y: '...', kid: 'k1', alg: 'ES256', use: 'sig' }] } } }, async (_req, reply) => {
    return reply.header('Cache-Control', 'public, max-age=300').send(auth.keys.jwks());
  });
}
