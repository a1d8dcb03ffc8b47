import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import { sendError } from './errors.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** SysConfig (System level) listing more allowed origins, comma separated, beside CORS_ORIGINS. */
export const CORS_SYSCONFIG = 'REST_CORS_ORIGINS';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Answer headers a page may read besides the simple ones. */
const EXPOSED = [REQUEST_ID_HEADER, 'Location', 'Content-Disposition', 'Retry-After', 'WWW-Authenticate'];

/** The origins of a comma-separated list, as browsers send them (lower case, no trailing slash). */
export function originList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((o) => o.trim().toLowerCase().replace(/\/+$/, ''))
    .filter(Boolean);
}

/** Whether a page of `origin` may call the API: listed in CORS_ORIGINS or REST_CORS_ORIGINS, or either lists `*`. */
export async function originAllowed(s: Services, origin: string): Promise<boolean> {
  let fromSysConfig: string[] = [];
  try {
    fromSysConfig = originList(await s.sysConfig.get(CORS_SYSCONFIG));
  } catch {
    // Without the database only the environment's list applies.
  }
  const allowed = [...s.config.corsOrigins, ...fromSysConfig];
  return allowed.includes('*') || allowed.includes(origin.toLowerCase());
}

/**
 * Cross-origin calls from the pages of allowed origins: their requests get Access-Control-Allow-Origin
 * and their preflights 204 with the allowed methods, headers and max age. Credentials (cookies, HTTP
 * authentication) are off unless CORS_CREDENTIALS turns them on; the API's bearer token needs none.
 * A preflight from any other origin is refused with 403 and no Access-Control header; an OPTIONS
 * request that is no preflight is answered as before (405 with the path's methods).
 * Registered before the routes, so that its preflight route is not listed among a path's methods.
 */
export async function allowCrossOrigin(app: FastifyInstance, s: Services): Promise<void> {
  await app.register(cors, {
    origin: async (origin: string | undefined) => origin !== undefined && (await originAllowed(s, origin)),
    methods: METHODS,
    exposedHeaders: EXPOSED,
    credentials: s.config.corsCredentials,
    maxAge: s.config.corsMaxAge,
    strictPreflight: false,
    hideOptionsRoute: true,
  });
  // Runs after the plugin's hook, which has answered the preflights it allows.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'OPTIONS') return;
    if (req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      return sendError(reply, new ApiError(403, 'Forbidden', `Cross-origin requests from ${req.headers.origin.slice(0, 200)} are not allowed`));
    }
    return reply.callNotFound();
  });
}
