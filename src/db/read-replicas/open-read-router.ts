import type { Logger } from 'pino';
import type { Db } from '../types.js';
import { DEFAULT_RULES, MAX_LAG_KEY, ReadRouter, WRITE_WINDOW_KEY, type ReadRouterOptions } from './read-router.js';
import { openPg } from '../drivers.js';

export interface ReadRouterSetup {
  primary: Db;
  /** The primary's URL (DATABASE_URL), for the connection that reads its WAL position. */
  primaryUrl: string | null;
  urls: string[];
  poolSize: number;
  pollMs: number;
  /** SysConfig lookup of a whole number at system level. */
  getInt: (name: string, def: number) => Promise<number>;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/** How the replicas' pg_stat_activity names the connections of these pools. */
export const REPLICA_APPLICATION_NAME = 'dictum-read';
/** The name of the connections that read the primary's and the replicas' WAL positions. */
const CHECK_APPLICATION_NAME = 'dictum-replica-check';

/** How long a read waits for a connection to a replica before the replica counts as failed. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The read router of an instance: pools to the replicas of DATABASE_READ_URL (none with the
 * embedded database or without it) and their first check. A replica that is down at start is only
 * left out; the instance starts all the same.
 */
export async function openReadRouter(o: ReadRouterSetup): Promise<ReadRouter> {
  const replicas = [];
  let probes: ReadRouterOptions['probes'];
  if (o.primary.kind === 'pg' && o.primaryUrl && o.urls.length) {
    const open = (url: string, max: number, applicationName: string) => openPg({ connectionString: url, max, connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS, applicationName });
    for (const url of o.urls) replicas.push({ url, db: await open(url, o.poolSize, REPLICA_APPLICATION_NAME) });
    // One connection each for the checks: a pool's queue of reads would delay them.
    const probeDbs = await Promise.all([o.primaryUrl, ...o.urls].map((url) => open(url, 1, CHECK_APPLICATION_NAME)));
    probes = {
      primary: probeDbs[0]!,
      replicas: probeDbs.slice(1),
      async close() {
        await Promise.all(probeDbs.map((d) => d.close()));
      },
    };
  }
  const rules = async () => ({
    maxLagMs: Math.max(0, await o.getInt(MAX_LAG_KEY, DEFAULT_RULES.maxLagMs)),
    writeWindowMs: Math.max(0, await o.getInt(WRITE_WINDOW_KEY, DEFAULT_RULES.writeWindowMs)),
  });
  const router = new ReadRouter({ primary: o.primary, replicas, probes, pollMs: o.pollMs, rules, log: o.log });
  await router.start();
  return router;
}
