import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/types.js';
import { claimAnswered, findClaim, type Claim } from './kept-answers.js';
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
 * is taken and the answer's bytes kept by one statement at the end of the same transaction: the
 * write and its kept answer commit together or not at all. A second run of the key (a retry, or
 * the same request at the same time) does its work, finds the key taken and rolls its work back,
 * then answers with the first run's answer (waiting for the first to commit when both run at
 * once); so the work is never done twice, at the cost of a retry's work being done and undone.
 * A refusal rolls everything back, answer included: its retry runs again.
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
      const r = await work(tx);
      const answer = { status: r.status, headers: { 'content-type': JSON_TYPE, ...r.headers }, body: Buffer.from(JSON.stringify(r.body)) };
      const claim = await claimAnswered(tx, keyed.scope, keyed.hash, answer);
      if (claim.kind !== 'claimed') throw new KeyTaken(claim);
      return answer;
    });
    return reply.code(kept.status).headers(kept.headers).send(kept.body);
  } catch (e) {
    if (e instanceof KeyTaken) return settle(reply, keyed.scope, e.claim);
    // The work may have failed because a run of the same key did it first (the same unique value,
    // say): then that run's answer is this request's answer.
    const first = await findClaim(db, keyed.scope, keyed.hash).catch(() => null);
    if (first && first.kind !== 'running') return settle(reply, keyed.scope, first);
    throw e;
  }
}
