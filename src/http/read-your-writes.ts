import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReadRouter } from '../db/read-replicas/read-router.js';
import type { Db } from '../db/types.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where instances tell each other which session has just written (payload: its key). */
export const SESSION_WRITES_CHANNEL = 'dictum_session_writes';

/** The key the router remembers a caller's writes by: its session (its user where a token has none). */
export function sessionKey(req: FastifyRequest): number | undefined {
  const auth = req.auth as FastifyRequest['auth'] | undefined;
  if (!auth) return undefined;
  return auth.sessionId > 0 ? auth.sessionId : -auth.userId;
}

/**
 * Tells the read router when a session writes: when a request that may write starts (its reads
 * sent meanwhile go to the primary) and again just before its answer leaves (the reads that follow
 * it wait for a replica that holds what it committed). A write that succeeded is announced to the
 * other instances before its answer leaves, so that the session's next read keeps to the primary
 * whichever instance the load balancer sends it to. Added after authentication, and only when
 * there are replicas.
 */
export async function rememberWrites(app: FastifyInstance, reads: ReadRouter, db: Db): Promise<void> {
  if (!reads.enabled) return;
  const unlisten = await db.listen(SESSION_WRITES_CHANNEL, (payload) => {
    // An empty payload says notifications may have been missed, not who wrote.
    if (/^-?\d{1,12}$/.test(payload)) reads.noteWrite(Number(payload));
  });
  app.addHook('onClose', async () => unlisten());
  const writer = (req: FastifyRequest): number | undefined => (READ_METHODS.has(req.method) ? undefined : sessionKey(req));
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const key = writer(req);
    if (key !== undefined) reads.noteWrite(key);
  });
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply) => {
    const key = writer(req);
    if (key === undefined) return;
    reads.noteWrite(key);
    // Losing an announcement costs only freshness on another instance, never the answer.
    if (reply.statusCode < 400) await db.query('SELECT pg_notify($1, $2)', [SESSION_WRITES_CHANNEL, String(key)]).catch(() => undefined);
  });
}
