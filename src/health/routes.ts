import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors.js';
import type { Services } from '../services.js';
import { HealthService } from './health.js';

const truthy = (v: unknown): boolean => typeof v === 'string' && /^(true|y|yes|1)$/i.test(v);

export async function healthRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const health = new HealthService(s);
  // Read once before the instance listens: monitors poll health while it starts, and the first
  // answers then wait for no statement behind the start's own (the queue's first claims, the node's
  // registration), since the key is cached like every SysConfig value.
  await health.keyAccepted(undefined);
  app.get('/api/v1/health', { config: { public: true, queryParameters: ['key', 'db', 'locale'] } }, async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (!(await health.keyAccepted(q.key))) throw unauthorized('Unauthorized', 'A valid health monitoring key is required');
    const answer = await health.check(truthy(q.db));
    return reply.code(answer.status).send(answer.body);
  });
}
