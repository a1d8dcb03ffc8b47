import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { healthRoutes } from './health/routes.js';
import { rememberWrites } from './http/read-your-writes.js';
import { registerErrorHandlers } from './http/errors.js';
import { checkRequestsWithSchemas } from './http/schema-validation.js';
import { readJsonBodies } from './http/json-body.js';
import { parameterIgnorer, registerQueryParameterCheck } from './http/query-parameters.js';
import { modelReadRoutes } from './records/http/models-routes.js';
import { modelWriteRoutes } from './records/http/model-write-routes.js';
import { batchRoutes } from './batch/batch-routes.js';
import { authenticateHook } from './auth/authenticate.js';
import { authRoutes } from './auth/routes.js';
import { processRoutes } from './processes/process-routes.js';
import { archiveRoutes } from './archives/archive-routes.js';
import { attachmentRoutes } from './attachments/attachment-routes.js';
import { uploadRoutes } from './uploads/upload-routes.js';
import { workflowRoutes } from './workflow/workflow-routes.js';
import { printRoutes } from './print/print-routes.js';
import { referenceRoutes } from './references/reference-routes.js';
import { infoWindowRoutes } from './infowindows/info-routes.js';
import { statusLineRoutes } from './statuslines/status-line-routes.js';
import { chartRoutes } from './charts/chart-routes.js';
import { screenRoutes } from './screens/screen-routes.js';
import { viewRoutes } from './views/view-routes.js';
import { nodeRoutes } from './nodes/node-routes.js';
import { cacheRoutes } from './cache/cache-routes.js';
import { schedulerRoutes } from './schedulers/scheduler-routes.js';
import { serverRoutes } from './servers/server-routes.js';
import { logRoutes } from './logs/log-routes.js';
import { taskRoutes } from './tasks/task-routes.js';
import { collectRoutes } from './openapi/route-catalogue.js';
import { openApiRoutes } from './openapi/openapi-routes.js';
import type { Services } from './services.js';
import { clientErrors, frameworkErrors } from './http/framework-errors.js';
import { RouteMethods } from './http/route-methods.js';
import { BODY_LIMIT, limitPublicBodies, REQUEST_TIMEOUT_MS } from './http/limits.js';
import { webhookRoutes } from './webhooks/register.js';
import { consoleRoutes } from './console/console-routes.js';
import { requestIdOf } from './http/request-id.js';
import { logEveryRequest } from './http/access-log.js';
import { allowCrossOrigin } from './http/cors.js';
import { compressAnswers } from './http/compression.js';
import { countRequests, metricsRoute } from './metrics/metrics-routes.js';
import { idempotentRetries } from './idempotency/idempotent-retries.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token. */
    public?: boolean;
    /** Public routes that use a valid bearer token when one is sent (and ignore an unusable one). */
    tokenOptional?: boolean;
    /** Routes that also accept a presigned query (X-ID-SIGNATURE...) instead of a bearer token. */
    presignable?: boolean;
  }
}

/** Builds the HTTP application from the capability route modules. */
export async function buildApp(s: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: s.log as unknown as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    frameworkErrors,
    clientErrorHandler: clientErrors,
    logController: new LogController({ disableRequestLogging: s.config.logLevel !== 'debug' && s.config.logLevel !== 'trace' }),
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 },
    genReqId: requestIdOf,
  });
  logEveryRequest(app);
  const metrics = countRequests(app, s);
  await allowCrossOrigin(app, s);
  await compressAnswers(app, s.config.compressThreshold);
  const methods = new RouteMethods();
  methods.watch(app);
  limitPublicBodies(app);
  registerErrorHandlers(app, methods);
  const routes = collectRoutes(app);
  checkRequestsWithSchemas(app);
  readJsonBodies(app);
  app.addHook('onRequest', authenticateHook(s.auth));
  await rememberWrites(app, s.reads, s.db);
  registerQueryParameterCheck(app, parameterIgnorer(s));
  idempotentRetries(app, s.db, s.log);
  await authRoutes(app, s);
  await healthRoutes(app, s);
  await metricsRoute(app, s, metrics);
  await modelReadRoutes(app, s);
  await modelWriteRoutes(app, s);
  await batchRoutes(app, s);
  await processRoutes(app, s);
  await archiveRoutes(app, s);
  await attachmentRoutes(app, s);
  await uploadRoutes(app, s);
  await workflowRoutes(app, s);
  await printRoutes(app, s);
  await referenceRoutes(app, s);
  await infoWindowRoutes(app, s);
  await statusLineRoutes(app, s);
  await chartRoutes(app, s);
  await screenRoutes(app, s);
  await viewRoutes(app, s);
  await nodeRoutes(app, s);
  await cacheRoutes(app, s);
  await schedulerRoutes(app, s);
  await serverRoutes(app, s);
  await logRoutes(app, s);
  await taskRoutes(app, s);
  await openApiRoutes(app, s, routes);
  await webhookRoutes(app, s);
  await consoleRoutes(app);
  return app;
}
