import type { Db } from '../../src/db/types.js';

export interface WatchedDb {
  /** The database as the code under test sees it. */
  db: Db;
  /** When each statement whose text holds the watched words was sent (ms since the epoch). */
  reads: number[];
  /** How many watched statements the database has answered (held-back answers included). */
  answered(): number;
  /** Holds back the answer of the next watched statement, once the database has given it, until the returned function is called. */
  holdNext(): () => void;
}

/**
 * A database whose statements holding `watched` in their text are noted, and whose next such
 * answer can be held back: a read then returns what it saw before a change made meanwhile.
 */
export function watchedDb(db: Db, watched: string): WatchedDb {
  const reads: number[] = [];
  let answered = 0;
  let hold: Promise<void> | null = null;
  const query = async (...args: Parameters<Db['query']>) => {
    const isWatched = String(args[0]).includes(watched);
    const held = isWatched ? hold : null;
    if (isWatched) {
      reads.push(Date.now());
      hold = null;
    }
    const result = await db.query(...args);
    if (isWatched) answered++;
    if (held) await held;
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
    answered: () => answered,
    holdNext() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  };
}

/**
 * Sends a notification and resolves once this process has received it: the listeners that the
 * code under test registered on the same database have been called by then.
 */
export async function notifyAndWait(db: Db, channel: string, payload = ''): Promise<void> {
  let received!: () => void;
  const arrived = new Promise<void>((resolve) => (received = resolve));
  const unlisten = await db.listen(channel, () => received());
  try {
    await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    await arrived;
  } finally {
    await unlisten();
  }
}
