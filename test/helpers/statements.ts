import type { Db, Queryable, Tx } from '../../src/db/types.js';

export interface RecordedStatement {
  text: string;
  params?: readonly unknown[];
  name?: string;
}

/**
 * Runs fn while recording every statement the database handle runs, directly, on a connection
 * taken for several statements or inside a transaction, in order. The handle is restored afterwards, also when fn fails.
 */
/**
 * Statements of the background work every instance does beside requests on the same handle (work
 * queue, webhook dispatcher, workflow processor, scheduler runner and firings, node heartbeat, ended-session poll): not the request's.
 */
const BACKGROUND = ['/* webhook dispatcher */', '/* workflow processor */', 'dictum.queue_item', 'dictum.scheduler_firing', 'dictum.node', 'FROM ad_scheduler r JOIN ad_schedule', "FROM ad_session WHERE processed = 'Y' AND updated >="];

export async function recordStatements<T>(db: Db, fn: () => Promise<T>): Promise<{ result: T; statements: RecordedStatement[] }> {
  const statements: RecordedStatement[] = [];
  const record = (text: string, params?: readonly unknown[], o?: { name?: string }) => {
    if (!BACKGROUND.some((b) => text.includes(b))) statements.push({ text, ...(params ? { params } : {}), ...(o?.name ? { name: o.name } : {}) });
  };
  const query = db.query.bind(db);
  const tx = db.tx.bind(db);
  const connection = db.connection.bind(db);
  db.query = ((text: string, params?: readonly unknown[], o?: { name?: string }) => {
    record(text, params, o);
    return query(text, params, o);
  }) as Db['query'];
  db.tx = (<R>(work: (t: Tx) => Promise<R>) =>
    tx((t) => {
      const inner = t.query.bind(t);
      t.query = ((text: string, params?: readonly unknown[], o?: { name?: string }) => {
        record(text, params, o);
        return inner(text, params, o);
      }) as Tx['query'];
      return work(t);
    })) as Db['tx'];
  // A database of one connection (PGlite) hands over the handle itself, whose statements are recorded already.
  db.connection = (<R>(work: (q: Queryable) => Promise<R>) =>
    connection((q) =>
      work(
        q === db
          ? q
          : {
              query: ((text: string, params?: readonly unknown[], o?: { name?: string }) => {
                record(text, params, o);
                return q.query(text, params, o);
              }) as Queryable['query'],
            },
      ),
    )) as Db['connection'];
  try {
    return { result: await fn(), statements };
  } finally {
    db.query = query;
    db.tx = tx;
    db.connection = connection;
  }
}
