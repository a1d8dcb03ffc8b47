import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/types.js';
import type { Clock } from './clock.js';

export interface ProgressReporter {
  report(fraction: number): void;
  /** Writes the last value in the completing transaction, after any write still on its way. */
  flush(tx: Queryable): Promise<void>;
}

/**
 * Progress of a running item. On PostgreSQL it is written at once on a connection of its own (at
 * most four times a second); embedded PGlite has one connection, held by the item's transaction,
 * so there the last value is written with the item's completion.
 */
export function progressReporter(db: Db, clock: Clock, log: Pick<Logger, 'debug'>, itemId: number): ProgressReporter {
  let latest: number | null = null;
  let writtenAt = 0;
  let timer: NodeJS.Timeout | null = null;
  // One write at a time, in order: a late write never overtakes a newer value.
  let writing: Promise<unknown> = Promise.resolve();
  const write = (q: Queryable, fraction: number) =>
    q.query(
      `INSERT INTO dictum.queue_control (item_id, progress, progress_at) VALUES ($1, $2, $3)
       ON CONFLICT (item_id) DO UPDATE SET progress = EXCLUDED.progress, progress_at = EXCLUDED.progress_at`,
      [itemId, fraction, clock.now()],
    );
  const writeLatest = () => {
    timer = null;
    writtenAt = Date.now();
    const value = latest!;
    writing = writing.then(() => write(db, value)).catch((e) => log.debug({ err: e, item: itemId }, 'progress not written'));
  };
  return {
    report: (fraction) => {
      if (!Number.isFinite(fraction)) return;
      latest = Math.min(1, Math.max(0, fraction));
      if (db.kind !== 'pg' || timer) return;
      const wait = writtenAt + 250 - Date.now();
      if (wait <= 0) writeLatest();
      // The last value of a burst is written when the quarter second is over.
      else (timer = setTimeout(writeLatest, wait)).unref();
    },
    flush: async (tx) => {
      if (timer) clearTimeout(timer);
      timer = null;
      await writing;
      if (latest !== null) await write(tx, latest);
    },
  };
}
