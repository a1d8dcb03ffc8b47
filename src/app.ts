import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { healthRoutes } from './health/routes.js';
import { registerErrorHandlers } from './http/errors.js';
import { readJsonBodies } from './http/json-body.js';
import { modelReadRoutes } from './records/http/models-routes.js';
import { modelWriteRoutes } from './records/http/model-write-routes.js';
import { batchRoutes } from './batch/batch-routes.js';
import { authenticateHook } from './auth/authenticate.js';
import { authRoutes } from './auth/routes.js';
import { processRoutes } from './processes/process-routes.js';
import { archiveRoutes } from './archives/archive-routes.js';
import { printRoutes } from './print/print-routes.js';
import type { Services } from './services.js';
import { webhookRoutes } from './webhooks/register.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token. */
    public?: boolean;
  }
}

/** Builds the HTTP application from the capability route modules. */
export async function buildApp(s: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: s.log as unknown as FastifyBaseLogger,
    bodyLimit: 64 * 1024 * 1024,
    logController: new LogController({ disableRequestLogging: s.config.logLevel !== 'debug' && s.config.logLevel !== 'trace' }),
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 },
  });
  registerErrorHandlers(app);
  readJsonBodies(app);
  app.addHook('onRequest', authenticateHook(s.auth));
  await authRoutes(app, s);
  await healthRoutes(app, s);
  await modelReadRoutes(app, s);
  await modelWriteRoutes(app, s);
  await batchRoutes(app, s);
  await processRoutes(app, s);
  await archiveRoutes(app, s);
  await printRoutes(app, s);
  await webhookRoutes(app, s);
  return app;
}
