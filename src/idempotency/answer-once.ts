import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/types.js';
import { claimAnswered, findClaim, isKeyHeld, keepFirstAnswer, type Claim, type KeptAnswer, type KeyScope } from './kept-answers.js';
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
 * The answer to keep and send: the body serialized once, its text sent and its UTF-8 bytes kept
 * (the same bytes on the wire; a text body goes out in one write with the headers, where a buffer
 * takes a write of its own).
 */
function keptAnswer(r: RouteAnswer): KeptAnswer & { text: string } {
  const text = JSON.stringify(r.body);
  return { status: r.status, headers: { 'content-type': JSON_TYPE, ...r.headers }, body: Buffer.from(text), text };
}

/**
 * Runs a route's work in one transaction and sends its answer. With an Idempotency-Key, the answer's
 * bytes are kept by one statement at the end of the same transaction, which commits with it: the
 * write and its kept answer commit together or not at all. The first run of a key (the common
 * case) keeps its answer with a plain INSERT sent together with the COMMIT, so the key costs no
 * round trip of its own. A second run of the key (a retry, or the same request at the same time)
 * does its work, fails on the key's row and rolls its work back, then answers with the first run's
 * answer (its INSERT waits for the first run to commit when both run at once); so the work is never
 * done twice, at the cost of a retry's work being done and undone. Only when the key's row is one a
 * claim takes over (expired, or left by a run that died) does the work run again, taking the row.
 * A refusal rolls everything back, answer included: its retry runs again.
 */
export async function answerOnce(db: Db, req: FastifyRequest, reply: FastifyReply, work: (tx: Tx) => Promise<RouteAnswer>): Promise<FastifyReply> {
  const keyed = keyedRequests.get(req);
  if (!keyed) {
    const r = await db.tx(work);
    if (r.headers) reply.headers(r.headers);
    return reply.code(r.status).send(r.body);
  }
  let kept: KeptAnswer & { text: string };
  try {
    kept = await db.tx(async (tx) => {
      const answer = keptAnswer(await work(tx));
      await keepFirstAnswer(tx, keyed.scope, keyed.hash, answer);
      return answer;
    });
  } catch (e) {
    // The key's row was there, or the work failed because a run of the same key did it first (the
    // same unique value, say): then that run's answer is this request's answer.
    const held = isKeyHeld(e);
    const first = await findClaim(db, keyed.scope, keyed.hash).catch(() => null);
    if (first && (held || first.kind !== 'running')) return settle(reply, keyed.scope, first);
    // A row of the key that a claim takes over: run again, taking it.
    if (held) return answerTakingOver(db, reply, keyed, work);
    throw e;
  }
  return reply.code(kept.status).headers(kept.headers).send(kept.text);
}

/**
 * The work again, with an upsert of the key's row that takes it over only when it expired or its run
 * died (a concurrent run may have taken it meanwhile: then that run's answer is this one's).
 */
async function answerTakingOver(db: Db, reply: FastifyReply, keyed: { scope: KeyScope; hash: string }, work: (tx: Tx) => Promise<RouteAnswer>): Promise<FastifyReply> {
  try {
    const kept = await db.tx(async (tx) => {
      const answer = keptAnswer(await work(tx));
      const claim = await claimAnswered(tx, keyed.scope, keyed.hash, answer);
      if (claim.kind !== 'claimed') throw new KeyTaken(claim);
      return answer;
    });
    return reply.code(kept.status).headers(kept.headers).send(kept.text);
  } catch (e) {
    if (e instanceof KeyTaken) return settle(reply, keyed.scope, e.claim);
    const first = await findClaim(db, keyed.scope, keyed.hash).catch(() => null);
    if (first && first.kind !== 'running') return settle(reply, keyed.scope, first);
    throw e;
  }
}
