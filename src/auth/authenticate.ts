import { errors } from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginStep } from './context.js';
import { missingToken, tokenError } from './errors.js';
import { selectionFromClaims } from './refresh.js';
import { claimsOf, type AuthService } from './service.js';

const AUTH_PREFIX = '/api/v1/auth/';
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+)[ \t]*$/i;

/** The bearer token of a request, or null when there is none; a malformed header is a 401. */
export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h === undefined || h === '') return null;
  const m = BEARER.exec(h);
  if (!m) throw tokenError('Unauthorized', 'The Authorization header must be "Bearer <token>"');
  return m[1]!;
}

/**
 * The onRequest hook: every route not marked public needs a valid access token of an open
 * session. Verified tokens are cached until they expire and ended sessions are known in memory,
 * so a repeated token costs neither crypto nor a database round trip. Unknown routes are left
 * to the not-found handler.
 */
export function authenticateHook(auth: AuthService) {
  return async function authenticate(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (req.is404) return;
    if (req.routeOptions.config?.public) {
      // A public route that tells a logged-in caller more (the OpenAPI document) uses a valid token
      // and answers as public to a missing, expired or unusable one.
      if (req.routeOptions.config.tokenOptional && req.headers.authorization) await required(req, reply).catch(() => undefined);
      return;
    }
    return required(req, reply);
  };

  async function required(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
    // A presigned query is verified by the route itself, against the upload it names.
    if (req.routeOptions.config?.presignable && typeof (req.query as Record<string, unknown> | undefined)?.['X-ID-SIGNATURE'] === 'string') return;
    const token = bearerToken(req);
    if (!token) throw missingToken('A bearer token is required: Authorization: Bearer <token>');
    const now = Date.now();
    let entry = auth.verified.get(token);
    if (entry && entry.exp <= now) {
      auth.verified.delete(token);
      throw tokenError('Token expired', 'The token has expired');
    }
    if (!entry) {
      let payload;
      try {
        payload = await auth.keys.verify(token);
      } catch (e) {
        if (e instanceof errors.JWTExpired) throw tokenError('Token expired', 'The token has expired');
        throw tokenError('Invalid token', 'The token is not valid');
      }
      const exp = (payload.exp ?? 0) * 1000;
      if (payload.token_use !== undefined) throw tokenError('Invalid token', 'A refresh token cannot be used as a bearer token');
      const sel = selectionFromClaims(payload);
      let step: LoginStep | null = null;
      if (!sel) {
        const userId = Number(payload.AD_User_ID);
        const clients = typeof payload.Clients === 'string' ? payload.Clients.split(',').filter(Boolean).map(Number) : null;
        if (!Number.isInteger(userId) || !clients || clients.some((c) => !Number.isInteger(c))) throw tokenError('Invalid token', 'The token is not valid');
        step = { userId, userName: typeof payload.sub === 'string' ? payload.sub : '', clientIds: clients, issuedAt: (payload.iat ?? 0) * 1000 };
      } else if (!auth.sessions.isEnded(sel.sessionId) && !(await auth.sessions.checkInDb(sel.sessionId))) {
        throw tokenError('Token revoked', 'The session of this token has ended');
      }
      entry = { exp, claims: sel ? claimsOf(sel) : null, step };
      auth.verified.set(token, entry);
    }
    if (entry.step) {
      // A first-step token is good for nothing but finishing the login.
      if (!(req.routeOptions.url ?? '').startsWith(AUTH_PREFIX)) {
        throw tokenError('Unauthorized', 'The login is not complete: choose a client and role first (PUT /api/v1/auth/tokens)');
      }
      req.loginStep = entry.step;
      return;
    }
    const claims = entry.claims!;
    if (auth.sessions.isEnded(claims.AD_Session_ID)) throw tokenError('Token revoked', 'The session of this token has ended');
    const cached = auth.roleAccessCached(claims.AD_Role_ID, claims.AD_User_ID);
    req.auth = cached
      ? {
          clientId: claims.AD_Client_ID,
          userId: claims.AD_User_ID,
          roleId: claims.AD_Role_ID,
          orgId: claims.AD_Org_ID,
          warehouseId: claims.M_Warehouse_ID ?? 0,
          language: claims.AD_Language,
          sessionId: claims.AD_Session_ID,
          userLevel: cached.userLevel,
          orgIds: cached.orgIds,
          writableOrgIds: cached.writableOrgIds,
          isClientAdministrator: cached.isClientAdministrator,
          isAccessAdvanced: cached.isAccessAdvanced,
          tableRules: cached.tableRules,
        }
      : await auth.contextOf(claims);
  }
}
