import ipaddr from 'ipaddr.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import { secretEquals } from '../health/health.js';
import type { Services } from '../services.js';
import { ServiceMetrics } from './service-metrics.js';

/** Whether the connection comes from this machine (the proxy headers are not trusted for that). */
function fromLoopback(req: FastifyRequest): boolean {
  const address = req.raw.socket.remoteAddress;
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/** The key a scraper sent: `Authorization: Bearer <key>` or `?key=`. */
function keyOf(req: FastifyRequest): string | undefined {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return bearer[1];
  const q = (req.query as Record<string, unknown>).key;
  return typeof q === 'string' ? q : undefined;
}

/**
 * Counts every answered request by route pattern and status (a hook, so added before the routes),
 * and returns the metrics whose route `metricsRoute` serves.
 */
export function countRequests(app: FastifyInstance, s: Services): ServiceMetrics {
  const metrics = new ServiceMetrics(s);
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return metrics;
}

/**
 * GET /metrics in Prometheus' text format. With METRICS_KEY set, the scraper sends the key (bearer
 * or `key` query parameter, compared in constant time) from anywhere; without it only clients on
 * this machine are answered, so that figures of the service are never open to the network by default.
 */
export async function metricsRoute(app: FastifyInstance, s: Services, metrics: ServiceMetrics): Promise<void> {
  app.get('/metrics', { schema: { summary: 'Metrics in the Prometheus text format (with METRICS_KEY as bearer or key; else loopback clients only)', binary: ['text/plain'] }, config: { public: true, queryParameters: ['key'] } }, async (req, reply) => {
    const expected = s.config.metricsKey;
    if (expected) {
      const given = keyOf(req);
      if (given === undefined || !secretEquals(given, expected)) throw unauthorized('Unauthorized', 'A valid metrics key is required: Authorization: Bearer <METRICS_KEY>');
    } else if (!fromLoopback(req)) {
      throw forbidden('Forbidden', 'Metrics are answered to this machine only unless METRICS_KEY is set');
    }
    const text = await metrics.text();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
