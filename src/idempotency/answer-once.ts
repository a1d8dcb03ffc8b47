import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/types.js';
import { claimKey, keepAnswer, type Claim } from './kept-answers.js';
import { keyedRequests, settle } from './idempotent-retries.js';

/** What a route answers: status, body (sent as JSON) and headers of its own. */
export interface RouteAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Thrown inside the transaction when another request holds the key: rolls back, then settles. */
class KeyTaken extends Error {
  constructor(readonly claim: Exclude<Claim, { kind: 'claimed' }>) {
    super('idempotency key taken');
  }
}

/**
 * Runs a route's work in one transaction and sends its answer. With an Idempotency-Key, the key
 * is claimed first in the same transaction (a concurrent retry waits on it until this one ends,
 * then finds the answer) and the answer's bytes are kept before the commit: the write and its
 * kept answer commit together or not at all, so a retry can never run the work twice. A refusal
 * rolls everything back, answer included: its retry runs again.
 */
export async function answerOnce(db: Db, req: FastifyRequest, reply: FastifyReply, work: (tx: Tx) => Promise<RouteAnswer>): Promise<FastifyReply> {
  const keyed = keyedRequests.get(req);
  if (!keyed) {
    const r = await db.tx(work);
    if (r.headers) reply.headers(r.headers);
    return reply.code(r.status).send(r.body);
  }
  try {
    const kept = await db.tx(async (tx) => {
      const claim = await claimKey(tx, keyed.scope, keyed.hash);
      if (claim.kind !== 'claimed') throw new KeyTaken(claim);
      const r = await work(tx);
      const answer = { status: r.status, headers: { 'content-type': JSON_TYPE, ...r.headers }, body: Buffer.from(JSON.stringify(r.body)) };
      await keepAnswer(tx, keyed.scope, answer);
      return answer;
    });
    return reply.code(kept.status).headers(kept.headers).send(kept.body);
  } catch (e) {
    if (e instanceof KeyTaken) return settle(reply, keyed.scope, e.claim);
    throw e;
  }
}
