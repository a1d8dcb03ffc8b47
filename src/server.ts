import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/open.js';
import { DictionaryCache } from './dictionary/cache.js';
import type { Services } from './services.js';
import { SysConfig } from './sysconfig/sysconfig.js';
import { ModelEvents } from './events/model-events.js';
import { registerCacheNotifications } from './events/cache-notifications.js';
import { registerDocumentRules } from './documents/register.js';
import { registerWorkflowEngine } from './workflow/register.js';
import { workflowCacheSources } from './workflow/workflow-definitions.js';
import { AuthService } from './auth/service.js';
import { registerAuthEvents } from './auth/events.js';
import { registerIndexColumnRules } from './dictionary/index-rules.js';
import { registerSecurityRules } from './access/security-rules.js';
import { registerPasswordRules } from './auth/password-on-save.js';
import { registerConfigurationLevelRules } from './sysconfig/configuration-level.js';
import { JobQueue } from './queue/job-queue.js';
import { registerInfoWindowRules } from './infowindows/info-validation.js';
import { registerStatusLineRules } from './statuslines/status-line-rules.js';
import { registerChartRules } from './charts/chart-rules.js';
import { NodeRegistry } from './nodes/node-registry.js';
import { RuntimeMonitor } from './nodes/runtime-monitor.js';
import { randomUUID } from 'node:crypto';
import { CacheRegistry } from './cache/cache-registry.js';
import { registerCaches } from './cache/cache-sources.js';
import { IdentifierCache } from './records/read/identifier-cache.js';
import { watchIdentifierTables } from './records/read/identifier-notifications.js';
import { SchedulerRunner } from './schedulers/scheduler-runner.js';
import { ServerRegistry } from './servers/server-registry.js';
import { LogFiles } from './logs/log-files.js';
import { registerTaskRules } from './tasks/task-rules.js';
import { registerServers } from './servers/server-controls.js';
import { Readiness } from './health/readiness.js';
import { openReadRouter } from './db/read-replicas/open-read-router.js';
import type { ReadRouter } from './db/read-replicas/read-router.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  close(): Promise<void>;
}

/** Log fields that may hold a secret: never written, whatever logs them. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.Password',
  '*.newPassword',
  '*.token',
  '*.refresh_token',
  '*.verifiedToken',
  '*.WebhookSecret',
  '*.PreviousSecret',
  '*.accessToken',
  '*.access_token',
  '*.refreshToken',
  '*.secret',
  '*.authorization',
];

/** The logger of an instance: standard output, and the log files when there are any (the level applies to both, live). */
export function createLogger(config: Config, files: LogFiles | null = null, toStdout = true): Logger {
  const options = { level: config.logLevel, base: { node: config.nodeId || os.hostname() }, redact: { paths: REDACTED, censor: '[redacted]' } };
  if (!files) return pino(options);
  return pino(options, pino.multistream([...(toStdout ? [{ level: 'trace' as const, stream: process.stdout }] : []), { level: 'trace' as const, stream: files.stream }]));
}

/** The log files of `serve`, in DICTUM_LOG_DIR; null when it is empty. */
export function openLogFiles(config: Config): LogFiles | null {
  return config.logDir ? new LogFiles(config.logDir, `${config.nodeId || os.hostname()}-${process.pid}`, config.logMaxBytes) : null;
}

/** Where other instances reach this one: its host name when it listens on every interface. */
function advertisedUrl(host: string, url: string, port: number): string {
  return host === '0.0.0.0' || host === '::' ? `http://${os.hostname()}:${port}` : url;
}

/** Opens the database, loads the dictionary and serves the API; close() undoes it all. */
export async function startServer(config: Config, log: Logger = createLogger(config), logFiles: LogFiles | null = null): Promise<RunningServer> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, poolSize: config.dbPoolSize, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb, pgliteInMemory: config.pgliteInMemory, waitMs: config.dbWaitMs, log });
  let reads: ReadRouter | null = null;
  try {
    const identifiers = new IdentifierCache(db);
    const dictionary = await DictionaryCache.open(db, { cacheDir: config.cacheDir, onLoad: (d) => identifiers.adopt(d) });
    const sysConfig = new SysConfig(db);
    await sysConfig.listen(db);
    const events = new ModelEvents();
    sysConfig.watch(events);
    registerCacheNotifications(events);
    watchIdentifierTables(events, identifiers);
    registerDocumentRules(events);
    registerWorkflowEngine(events);
    registerAuthEvents(events);
    registerIndexColumnRules(events);
    registerSecurityRules(events);
    registerPasswordRules(events, sysConfig);
    registerConfigurationLevelRules(events);
    registerInfoWindowRules(events);
    registerStatusLineRules(events);
    registerChartRules(events);
    registerTaskRules(events);
    const auth = new AuthService({ config, db, sysConfig, log });
    await auth.start();
    const queue = new JobQueue({ db, log, owner: `${config.nodeId || os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}` });
    const nodeId = config.nodeId || randomUUID();
    const nodes = new NodeRegistry({ db, log, id: nodeId, hostName: os.hostname(), heartbeatMs: config.nodeHeartbeatMs, windowMs: config.nodeWindowMs });
    const runtime = new RuntimeMonitor();
    runtime.start();
    const caches = new CacheRegistry();
    registerCaches(caches, dictionary, sysConfig, auth);
    for (const source of workflowCacheSources) caches.add(source);
    caches.add(identifiers.source());
    await caches.listen(db);
    const router = await openReadRouter({ primary: db, primaryUrl: config.databaseUrl, urls: config.databaseReadUrls, poolSize: config.dbPoolSize, pollMs: config.replicaPollMs, getInt: (name, def) => sysConfig.getInt(name, def), log });
    // Closed with the database if the rest of the start fails.
    reads = router;
    const services = { config, db, dictionary, sysConfig, events, log, auth, queue, nodes, runtime, caches, logFiles, readiness: new Readiness(), reads: router } as Services;
    const schedulers = new SchedulerRunner(services, config.schedulerTickMs);
    services.schedulers = schedulers;
    services.servers = new ServerRegistry();
    registerServers(services.servers, queue, schedulers, config.queueGraceMs, auth.cleaner);
    const app = await buildApp(services);
    const address = await app.listen({ port: config.port, host: config.host });
    // Kinds are registered by the route modules above; the workers start once they all are and the instance serves.
    await queue.start();
    schedulers.start();
    const url = address.replace('[::]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1');
    const port = Number(new URL(url).port);
    await nodes.start(port, config.nodeUrl || advertisedUrl(config.host, url, port));
    let closed = false;
    return {
      app,
      services,
      url,
      async close() {
        if (closed) return;
        closed = true;
        // Readiness answers 503 from now on; the delay lets load balancers see it before the port closes.
        services.readiness.drain();
        if (config.drainDelayMs > 0) await new Promise((r) => setTimeout(r, config.drainDelayMs));
        await nodes.stop();
        await schedulers.stop();
        await app.close();
        await queue.stop(config.queueGraceMs);
        runtime.stop();
        await caches.close();
        await auth.stop();
        await dictionary.close();
        await sysConfig.close();
        await router.close();
        await db.close();
        logFiles?.close();
      },
    };
  } catch (e) {
    await reads?.close();
    await db.close();
    throw e;
  }
}
