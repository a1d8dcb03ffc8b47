import type { Db } from '../../src/db/types.js';
import { sleep } from './wait.js';

export interface WatchedDb {
  /** The database as the code under test sees it. */
  db: Db;
  /** When each statement whose text holds the watched words was sent (ms since the epoch). */
  reads: number[];
  /** Holds back the answer of the next watched statement for `ms` after the database gave it. */
  holdNext(ms: number): void;
}

/**
 * A database whose statements holding `watched` in their text are noted, and whose next such
 * answer can be held back: a read then returns what it saw before a change made meanwhile.
 */
export function watchedDb(db: Db, watched: string): WatchedDb {
  const reads: number[] = [];
  let hold = 0;
  const query = async (...args: Parameters<Db['query']>) => {
    const isWatched = String(args[0]).includes(watched);
    const holdMs = isWatched ? hold : 0;
    if (isWatched) {
      reads.push(Date.now());
      hold = 0;
    }
    const result = await db.query(...args);
    if (holdMs > 0) await sleep(holdMs);
    return result;
  };
  const proxied = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') return query;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    db: proxied,
    reads,
    holdNext(ms: number) {
      hold = ms;
    },
  };
}
