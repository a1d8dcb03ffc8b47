import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { Services } from '../services.js';
import { bearerToken } from './authenticate.js';
import { LoginResolver } from './login-choices.js';
import { postTokens, putTokens } from './login.js';
import { completeReset, requestCode, verifyCode } from './password-reset.js';
import { logout, refreshTokens } from './refresh.js';
import { LookupQuerySchema, parsers, type LookupQuery } from './schemas.js';

const PUBLIC = { config: { public: true } } as const;
const BASE = '/api/v1/auth';
const LOOKUP = { config: { queryParameters: [...Object.keys(LookupQuerySchema.properties), 'locale'] } };

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

  app.post(`${BASE}/tokens`, PUBLIC, async (req, reply) => {
    const body = parsers.login.parse(req.body);
    return noStore(reply).send(await postTokens(auth, body, req.ip));
  });

  app.put(`${BASE}/tokens`, async (req, reply) => {
    const params = parsers.parameters.parse(req.body ?? {});
    return noStore(reply).send(await putTokens(auth, caller(req), params, req.ip));
  });

  /** The stepwise lookups share their start: the query, the caller's resolver and the chosen client. */
  const lookup = async (req: FastifyRequest) => {
    const q = parsers.lookup.parse(req.query);
    const who = caller(req);
    const resolver = await LoginResolver.forUser(auth, who.userId, who.issuedAt);
    return { q, resolver, client: resolver.client(required(q, 'client'), who.clientIds) };
  };

  app.get(`${BASE}/roles`, LOOKUP, async (req) => {
    const { resolver, client } = await lookup(req);
    return { roles: resolver.roles(client.id) };
  });

  app.get(`${BASE}/organizations`, LOOKUP, async (req) => {
    const { q, resolver, client } = await lookup(req);
    const role = await resolver.role(client.id, required(q, 'role'));
    const orgs = await resolver.organizations(client.id, role.id);
    return { organizations: orgs.map((o) => ({ id: o.id, name: o.name })) };
  });

  app.get(`${BASE}/warehouses`, LOOKUP, async (req) => {
    const { q, resolver, client } = await lookup(req);
    const role = await resolver.role(client.id, required(q, 'role'));
    const org = await resolver.organization(client.id, role.id, required(q, 'organization'));
    const list = await resolver.warehouses(client.id, org.id);
    return { warehouses: list.map((w) => ({ id: w.id, name: w.name })) };
  });

  app.get(`${BASE}/language`, LOOKUP, async (req) => {
    const { resolver, client } = await lookup(req);
    return { AD_Language: await resolver.clientLanguage(client.id) };
  });

  app.post(`${BASE}/refresh`, PUBLIC, async (req, reply) => {
    const body = parsers.refresh.parse(req.body);
    return noStore(reply).send(await refreshTokens(auth, body));
  });

  app.post(`${BASE}/logout`, PUBLIC, async (req) => {
    const body = parsers.logout.parse(req.body ?? {});
    let bearer: string | null = null;
    if (!body.token) bearer = bearerToken(req);
    return logout(auth, body, bearer);
  });

  app.post(`${BASE}/password-reset/request`, PUBLIC, async (req) => {
    const body = parsers.resetRequest.parse(req.body, () => badRequest('Bad Request', 'email is required: a non-blank e-mail address of at most 254 characters'));
    return requestCode(auth, body, req.ip);
  });

  app.post(`${BASE}/password-reset/verify`, PUBLIC, async (req, reply) => {
    return noStore(reply).send(await verifyCode(auth, req.body));
  });

  app.post(`${BASE}/password-reset/complete`, PUBLIC, async (req) => {
    const body = parsers.resetComplete.parse(req.body);
    return completeReset(auth, body);
  });

  app.get(`${BASE}/jwk`, PUBLIC, async (_req, reply) => {
    return reply.header('Cache-Control', 'public, max-age=300').send(auth.keys.jwks());
  });
}
