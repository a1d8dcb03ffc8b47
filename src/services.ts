import type { Logger } from 'pino';
import type { AuthService } from './auth/service.js';
import type { Config } from './config.js';
import type { Db } from './db/types.js';
import type { DictionaryCache } from './dictionary/cache.js';
import type { ModelEvents } from './events/model-events.js';
import type { SysConfig } from './sysconfig/sysconfig.js';
import type { JobQueue } from './queue/job-queue.js';
import type { NodeRegistry } from './nodes/node-registry.js';
import type { RuntimeMonitor } from './nodes/runtime-monitor.js';
import type { CacheRegistry } from './cache/cache-registry.js';
import type { SchedulerRunner } from './schedulers/scheduler-runner.js';
import type { ServerRegistry } from './servers/server-registry.js';
import type { LogFiles } from './logs/log-files.js';
import type { Readiness } from './health/readiness.js';
import type { ReadRouter } from './db/read-replicas/read-router.js';

/** What every capability may use: configuration, the database, the dictionary, SysConfig, events. */
export interface Services {
  config: Config;
  db: Db;
  dictionary: DictionaryCache;
  sysConfig: SysConfig;
  events: ModelEvents;
  log: Logger;
  auth: AuthService;
  /** The durable work queue (background processes; later webhook deliveries and scheduled runs). */
  queue: JobQueue;
  /** This instance in the cluster's node registry, and the live nodes. */
  nodes: NodeRegistry;
  /** Garbage collection and event-loop figures of this process. */
  runtime: RuntimeMonitor;
  /** The caches of this instance, reset on every instance through NOTIFY. */
  caches: CacheRegistry;
  /** This instance's loop that claims and queues due scheduler firings. */
  schedulers: SchedulerRunner;
  /** This instance's background services as server instances (state toggle, run now, logs). */
  servers: ServerRegistry;
  /** This instance's log files; null when it writes none (DICTUM_LOG_DIR empty, commands other than serve). */
  logFiles: LogFiles | null;
  /** Whether this instance takes new requests (not while it drains). */
  readiness: Readiness;
  /** Where reads that may be a little stale run: the read replicas of DATABASE_READ_URL, else the primary. */
  reads: ReadRouter;
}
