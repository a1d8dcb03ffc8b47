import type { FastifyInstance } from 'fastify';

/** Largest request body of an authenticated route (a batch, a record with images). */
export const BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Largest body of a public route (login, refresh, logout, password reset, health): an anonymous
 * caller cannot make the server read more. Routes reached only with a token are authenticated
 * before their body is read.
 */
export const PUBLIC_BODY_LIMIT = 32 * 1024;

/** A request must arrive whole within this time, or it is answered 408. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Public routes that do not set a body limit of their own take PUBLIC_BODY_LIMIT. */
export function limitPublicBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.public && route.bodyLimit === undefined) route.bodyLimit = PUBLIC_BODY_LIMIT;
  });
}
