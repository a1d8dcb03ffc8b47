import type { Logger } from 'pino';
import type { Db } from '../types.js';
import { DEFAULT_RULES, MAX_LAG_KEY, ReadRouter, WRITE_WINDOW_KEY } from './read-router.js';

export interface ReadRouterSetup {
  primary: Db;
  urls: string[];
  poolSize: number;
  pollMs: number;
  /** SysConfig lookup of a whole number at system level. */
  getInt: (name: string, def: number) => Promise<number>;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/** How the replicas' pg_stat_activity names the connections of these pools. */
export const REPLICA_APPLICATION_NAME = 'dictum-read';

/** How long a read waits for a connection to a replica before the replica counts as failed. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The read router of an instance: pools to the replicas of DATABASE_READ_URL (none with the
 * embedded database or without it) and their first check. A replica that is down at start is only
 * left out; the instance starts all the same.
 */
export async function openReadRouter(o: ReadRouterSetup): Promise<ReadRouter> {
  const replicas = [];
  if (o.primary.kind === 'pg') {
    const { openPg } = await import('../pg-db.js');
    for (const url of o.urls) replicas.push({ url, db: await openPg({ connectionString: url, max: o.poolSize, connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS, applicationName: REPLICA_APPLICATION_NAME }) });
  }
  const rules = async () => ({
    maxLagMs: Math.max(0, await o.getInt(MAX_LAG_KEY, DEFAULT_RULES.maxLagMs)),
    writeWindowMs: Math.max(0, await o.getInt(WRITE_WINDOW_KEY, DEFAULT_RULES.writeWindowMs)),
  });
  const router = new ReadRouter({ primary: o.primary, replicas, pollMs: o.pollMs, rules, log: o.log });
  await router.start();
  return router;
}
