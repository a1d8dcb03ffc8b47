import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest } from '../errors.js';
import { claimKey, keepAnswer, releaseKey, sweepExpiredAnswers, type Claim, type KeyScope } from './kept-answers.js';

/**
 * Requests whose whole work is one transaction: their key is claimed and their answer kept in
 * that transaction (see answerOnce), which costs two statements and no commit of its own.
 */
const IN_TRANSACTION = new Set(['POST /api/v1/models/:table', 'PUT /api/v1/models/:table/:id']);
/** The other requests an Idempotency-Key makes safe to retry: their key is claimed before they run and their answer kept after. */
const AROUND = new Set(['POST /api/v1/batch', 'POST /api/v1/processes/:slug', 'POST /api/v1/processes/jobs/:slug']);

/** The header a replayed answer carries. */
export const REPLAYED = 'Idempotent-Replayed';

/** Keyed requests whose route claims the key in its own transaction (see answerOnce). */
export const keyedRequests = new WeakMap<FastifyRequest, { scope: KeyScope; hash: string }>();

/** The answer to a request whose key another request took: its kept answer replayed, 422 or 409. */
export function settle(reply: FastifyReply, scope: KeyScope, claim: Exclude<Claim, { kind: 'claimed' }>): FastifyReply {
  switch (claim.kind) {
    case 'other-request':
      throw new ApiError(422, 'Unprocessable Content', `Idempotency-Key ${scope.key} was used for another request; use a new key for this one`);
    case 'running':
      throw new ApiError(409, 'Conflict', `The request with Idempotency-Key ${scope.key} is still running; retry later`, { 'Retry-After': '1' });
    case 'answered':
      reply.code(claim.answer.status).headers(claim.answer.headers).header(REPLAYED, 'true');
      return reply.send(claim.answer.body);
  }
}

/** How long a retry waits for the first run of its key to answer before it answers 409. */
const WAIT_MS = 2000;
const POLL_MS = 50;
/** How often an instance deletes expired answers (on the way of a keyed request). */
const SWEEP_MS = 60_000;

/** Headers of an answer that belong to the connection or the moment, not to the answer. */
const NOT_KEPT = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie']);

const KEY_TEXT = /^[\x21-\x7e]{1,255}$/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A digest of the request body: the same key with another body is another request. */
function requestHash(body: unknown): string {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body === undefined ? '' : JSON.stringify(body));
  return createHash('sha256').update(bytes).digest('base64url');
}

function keptHeaders(headers: Record<string, string | number | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_KEPT.has(name.toLowerCase())) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

function scopeOf(req: FastifyRequest, key: string): KeyScope {
  return { userId: req.auth.userId, clientId: req.auth.clientId, key, method: req.method, path: req.url };
}

/**
 * Idempotency-Key: the first answer to a key is kept in the database (per user and client, key,
 * method and path, for a day) and a retry gets it again, byte for byte, with Idempotent-Replayed:
 * true; the same key with another body answers 422; a retry while the first run has not answered
 * waits for it a moment, then answers 409. Kept in PostgreSQL, it holds across instances. Answers
 * of 500 and above are not kept (nothing was written): a retry runs again.
 */
export function idempotentRetries(app: FastifyInstance, db: Queryable, log: { warn(o: object, msg: string): void }): void {
  const runs = new WeakMap<FastifyRequest, KeyScope>();
  let lastSweep = 0;

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const given = req.headers['idempotency-key'];
    if (given === undefined) return;
    const route = `${req.method} ${req.routeOptions.url}`;
    const inTransaction = IN_TRANSACTION.has(route);
    if (!inTransaction && !AROUND.has(route)) return;
    if (typeof given !== 'string' || !KEY_TEXT.test(given)) throw badRequest('Invalid Idempotency-Key', 'Idempotency-Key is one value of 1 to 255 visible ASCII characters');
    if (Date.now() - lastSweep > SWEEP_MS) {
      lastSweep = Date.now();
      // Off the request's way: the request that happens to come due would otherwise wait for the delete.
      sweepExpiredAnswers(db).catch((err: unknown) => log.warn({ err }, 'expired Idempotency-Key answers could not be deleted'));
    }
    const scope = scopeOf(req, given);
    const hash = requestHash(req.body);
    if (inTransaction) {
      keyedRequests.set(req, { scope, hash });
      return;
    }
    const until = Date.now() + WAIT_MS;
    for (;;) {
      const claim = await claimKey(db, scope, hash);
      switch (claim.kind) {
        case 'claimed':
          runs.set(req, scope);
          return;
        case 'other-request':
        case 'answered':
          return settle(reply, scope, claim);
        case 'running':
          if (Date.now() >= until) return settle(reply, scope, claim);
          await sleep(POLL_MS);
      }
    }
  });

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const scope = runs.get(req);
    if (!scope) return payload;
    runs.delete(req);
    const body = payload === null || payload === undefined ? Buffer.alloc(0) : typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    try {
      // A streamed answer cannot be replayed byte for byte, and a server failure wrote nothing: a retry runs again.
      if (body === null || reply.statusCode >= 500) await releaseKey(db, scope);
      else await keepAnswer(db, scope, { status: reply.statusCode, headers: keptHeaders(reply.getHeaders()), body });
    } catch (err) {
      // The answer goes out all the same; the key's lease runs out and a retry runs again.
      log.warn({ err, key: scope.key }, 'the answer of an Idempotency-Key could not be kept');
    }
    return payload;
  });
}
