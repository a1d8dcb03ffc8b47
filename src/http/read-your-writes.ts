import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadRouter } from '../db/read-replicas/read-router.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The key the router remembers a caller's writes by: its session (its user where a token has none). */
export function sessionKey(req: FastifyRequest): number | undefined {
  const auth = req.auth as FastifyRequest['auth'] | undefined;
  if (!auth) return undefined;
  return auth.sessionId > 0 ? auth.sessionId : -auth.userId;
}

/**
 * Tells the read router when a session writes: when a request that may write starts (its reads
 * sent meanwhile go to the primary) and again just before its answer leaves (the reads that follow
 * it wait for a replica that holds what it committed). Added after authentication, and only when
 * there are replicas.
 */
export function rememberWrites(app: FastifyInstance, reads: ReadRouter): void {
  if (!reads.enabled) return;
  const note = async (req: FastifyRequest): Promise<void> => {
    if (READ_METHODS.has(req.method)) return;
    const key = sessionKey(req);
    if (key !== undefined) reads.noteWrite(key);
  };
  app.addHook('onRequest', note);
  app.addHook('onSend', async (req) => note(req));
}
