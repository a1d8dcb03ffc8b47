import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors.js';
import type { Services } from '../services.js';
import { HealthService } from './health.js';
import { databaseReachable } from './readiness.js';
import { Type } from '@sinclair/typebox';
import { Open } from '../openapi/answer-schemas.js';

/** The readiness check waits this long for the database before it calls the instance not ready. */
const READY_DB_TIMEOUT_MS = 2_000;

const truthy = (v: unknown): boolean => typeof v === 'string' && /^(true|y|yes|1)$/i.test(v);

export async function healthRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const health = new HealthService(s);
  // Read once before the instance listens: monitors poll health while it starts, and the first
  // answers then wait for no statement behind the start's own (the queue's first claims, the node's
  // registration), since the key is cached like every SysConfig value.
  await health.keyAccepted(undefined);
  app.get('/api/v1/health', { schema: { summary: 'Health of the service (and of the database with db=true)', answer: Open({ status: Type.String() }), example: { status: 'UP' } }, config: { public: true, queryParameters: ['key', 'db', 'locale'] } }, async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (!(await health.keyAccepted(q.key))) throw unauthorized('Unauthorized', 'A valid health monitoring key is required');
    const answer = await health.check(truthy(q.db));
    return reply.code(answer.status).send(answer.body);
  });
  // Readiness, for load balancers and orchestrators: 503 while the instance drains or cannot reach
  // its database, so that no new request is sent to it. Never cached; holds no data, so public.
  app.get('/api/v1/health/ready', { schema: { summary: 'Readiness: 503 while the instance drains or cannot reach its database', answer: Open({ status: Type.String(), database: Type.Optional(Type.String()), draining: Type.Optional(Type.Boolean()) }), example: { status: 'UP', database: 'connected' } }, config: { public: true } }, async (_req, reply) => {
    if (s.readiness.draining) return reply.code(503).send({ status: 'DOWN', draining: true });
    const connected = await databaseReachable(s.db, READY_DB_TIMEOUT_MS);
    return connected ? reply.send({ status: 'UP', database: 'connected' }) : reply.code(503).send({ status: 'DOWN', database: 'disconnected' });
  });
}
