import pg from 'pg';
import { textParsers, toBuffer } from './type-parsers.js';
import type { Db, QueryResult, Tx, QueryOptions, Queryable } from './types.js';
import { joinedQuery, namedQuery } from './pg-statements.js';

const typeParser = {
  getTypeParser(oid: number, format?: string) {
    const custom = textParsers[oid];
    if (custom && format !== 'binary') return custom;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function wrapResult<R>(res: pg.QueryResult): QueryResult<R> {
  for (const f of res.fields) {
    if (f.dataTypeID === 17) for (const row of res.rows) row[f.name] = toBuffer(row[f.name]);
  }
  return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
}

/**
 * Runs the statements given to one connection one after another. Code that starts several reads
 * at once (Promise.all) on a transaction would otherwise lean on the driver's own queue, which it
 * deprecates; on the pool they run in parallel on connections of their own.
 */
function oneAtATime(): <T>(run: () => Promise<T>) => Promise<T> {
  let tail: Promise<void> | null = null;
  return <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail ? tail.then(run) : run();
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    tail = settled;
    void settled.then(() => {
      if (tail === settled) tail = null;
    });
    return result;
  };
}

/** A connection's statements, with COMMIT joined to a last statement where the connection is one client's. */
type TxQueryable = Queryable & Pick<Tx, 'commitWith'>;

/** Whether a transaction's BEGIN has been sent: it goes with the transaction's first statement. */
interface TxStart {
  begun: boolean;
}

/**
 * The statements of a pooled connection, or of the pool. `open` says whether a pooled connection
 * is still this caller's (a late statement must not run on it once released). With `start`, the
 * connection is a transaction's and its first statement carries the BEGIN in the same round trip
 * when it goes through the extended protocol anyway (named, or with values); another first
 * statement (text that may hold several statements) follows a BEGIN of its own.
 */
function clientQueryable(client: pg.PoolClient | pg.Pool, open: () => boolean = () => true, start?: TxStart): TxQueryable {
  const pooled = client instanceof pg.Pool;
  const inTurn = pooled ? <T>(run: () => Promise<T>) => run() : oneAtATime();
  /** Whether this statement is the transaction's first, BEGIN not sent yet (and from now on taken as sent). */
  const beginning = (): boolean => {
    if (!start || start.begun) return false;
    start.begun = true;
    return true;
  };
  return {
    commitWith: pooled
      ? undefined
      : async <R>(text: string, params: readonly unknown[], o: Required<QueryOptions>) => {
          if (!open()) throw new Error('a statement came after its connection was given back');
          const begin = beginning();
          return wrapResult<R>(await inTurn(() => joinedQuery(client, text, params as unknown[], o.name, begin, true)));
        },
    async query<R>(text: string, params: readonly unknown[] = [], o?: QueryOptions) {
      if (!open()) throw new Error('a statement came after its connection was given back');
      if (!pooled && beginning()) {
        if (o?.name || params.length) return wrapResult<R>(await inTurn(() => joinedQuery(client, text, params as unknown[], o?.name, true, false)));
        await inTurn(() => client.query('BEGIN'));
      }
      // Text and values as two arguments: a config object is copied by the driver on every query.
      if (!o?.name) return wrapResult<R>(await inTurn(() => client.query(text, params as unknown[])));
      const name = o.name;
      if (pooled) return wrapResult<R>(await client.query({ text, values: params as unknown[], name }));
      return wrapResult<R>(await inTurn(() => namedQuery(client, text, params as unknown[], name)));
    },
  };
}

let savepointCounter = 0;

type Independent = NonNullable<Tx['independent']>;

/** Notifications a transaction sent, delivered to this instance's listeners once it commits. */
type Sent = [channel: string, payload: string][];

function wrapTx(q: TxQueryable, independent: Independent, sent: Sent): Tx {
  const self: Tx = {
    independent,
    query: q.query,
    commitWith: q.commitWith,
    async savepoint<T>(fn: (t: Tx) => Promise<T>): Promise<T> {
      const name = `sp_${++savepointCounter}`;
      const mark = sent.length;
      await q.query(`SAVEPOINT ${name}`);
      try {
        const out = await fn(self);
        await q.query(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (e) {
        await q.query(`ROLLBACK TO SAVEPOINT ${name}`);
        // What the rolled-back part notified is not sent by PostgreSQL either.
        sent.length = mark;
        throw e;
      }
    },
    async notify(channel, payload) {
      await q.query('SELECT pg_notify($1, $2)', [channel, payload]);
      sent.push([channel, payload]);
    },
  };
  return self;
}

/**
 * BEGIN, the work, COMMIT on a pooled connection; ROLLBACK when the work fails. All go through the
 * connection's one queue, so that a statement of the work still waiting its turn runs before the
 * ROLLBACK, never after the connection went back to the pool. BEGIN goes with the work's first
 * statement (one round trip fewer); work that ran no statement sends neither BEGIN nor COMMIT.
 */
async function inTransaction<T>(pool: pg.Pool, fn: (q: TxQueryable) => Promise<T>, committed?: () => void): Promise<T> {
  const client = await pool.connect();
  let held = true;
  let broken: Error | undefined;
  let commitDone = false;
  const start: TxStart = { begun: false };
  const base = clientQueryable(client, () => held, start);
  const commitWith = base.commitWith!;
  const q: TxQueryable = {
    ...base,
    async commitWith(text, params, o) {
      const r = await commitWith(text, params, o);
      commitDone = true;
      return r;
    },
  };
  try {
    const out = await fn(q);
    if (!commitDone && start.begun) await q.query('COMMIT');
    committed?.();
    return out;
  } catch (e) {
    if (start.begun) await q.query('ROLLBACK').catch(() => undefined);
    if (isStalePreparedStatement(e)) broken = e as Error;
    throw e;
  } finally {
    held = false;
    // A connection whose prepared statements no longer fit their tables is closed rather than
    // pooled: the next transaction prepares them afresh on a new one (as the pool does itself
    // for a failed statement outside a transaction).
    client.release(broken);
  }
}

/**
 * The error of a statement prepared under a name (`RETURNING *`, `SELECT t.*`) after its table
 * gained or lost columns: an instance that keeps running while another one migrates the schema
 * meets it once per connection.
 */
export function isStalePreparedStatement(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === '0A000' && typeof err.message === 'string' && err.message.includes('cached plan must not change result type');
}

export interface PgOpenOptions {
  connectionString: string;
  max?: number;
  /** How long a new connection may take before it fails (none by default). */
  connectTimeoutMs?: number;
  /** The name the server shows for these connections (pg_stat_activity.application_name). */
  applicationName?: string;
}

/** A PostgreSQL server through a connection pool; many service instances may share it. */
export async function openPg(options: PgOpenOptions): Promise<Db & { pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    types: typeParser,
    options: '-c TimeZone=UTC',
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const listeners = new Map<string, Set<(p: string) => void>>();
  const deliver = (channel: string, payload: string): void => {
    const set = listeners.get(channel);
    if (!set) return;
    for (const cb of set) {
      try {
        cb(payload);
      } catch {
        // A listener's failure is its own; the commit has happened.
      }
    }
  };
  // LISTEN needs a connection of its own for the life of the instance; it is kept outside the
  // pool so that DB_POOL_SIZE counts only connections that run queries.
  let listenClient: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;

  let closed = false;
  /**
   * After a lost LISTEN connection, notifications sent meanwhile are gone: reconnect, and tell
   * every subscriber (empty payload) so that caches drop what may have gone stale.
   */
  function scheduleReconnect(delayMs = 1000): void {
    setTimeout(() => {
      if (closed) return;
      ensureListenClient().then(
        () => {
          for (const set of listeners.values()) for (const cb of set) cb('');
        },
        () => scheduleReconnect(Math.min(delayMs * 2, 30_000)),
      );
    }, delayMs).unref();
  }

  async function ensureListenClient(): Promise<pg.Client> {
    if (listenClient) return listenClient;
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: options.connectionString, types: typeParser, options: '-c TimeZone=UTC' });
      c.on('notification', (msg) => deliver(msg.channel, msg.payload ?? ''));
      const lost = () => {
        if (listenClient !== c || closed) return;
        listenClient = null;
        scheduleReconnect();
      };
      c.on('error', lost);
      c.on('end', lost);
      await c.connect();
      for (const channel of listeners.keys()) await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      listenClient = c;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  const base = clientQueryable(pool);
  // Independent work gets a small pool of its own: were it to draw from the main pool, requests
  // holding every main connection while waiting for one more would wait forever.
  let sidePool: pg.Pool | null = null;
  const independent: Independent = async (fn, how) => {
    if (!sidePool) {
      // Independent work (a counter taken for a record the caller's transaction writes) commits
      // without waiting for its WAL flush: the caller's own commit, which comes later in the WAL,
      // flushes it too, and a number whose user never committed may be lost in a crash harmlessly.
      sidePool = new pg.Pool({ connectionString: options.connectionString, max: 2, types: typeParser, options: '-c TimeZone=UTC -c synchronous_commit=off' });
      sidePool.on('error', () => undefined);
    }
    if (how?.oneStatement) return fn(clientQueryable(sidePool));
    return inTransaction(sidePool, fn);
  };
  return {
    kind: 'pg',
    pool,
    query: base.query,
    async exec(sql: string) {
      await pool.query(sql);
    },
    tx: <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
      // The same notification comes back through LISTEN a moment later; listeners are idempotent.
      const sent: Sent = [];
      return inTransaction(
        pool,
        (q) => fn(wrapTx(q, independent, sent)),
        () => {
          for (const [channel, payload] of sent) deliver(channel, payload);
        },
      );
    },
    async connection<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await fn(clientQueryable(client));
      } catch (e) {
        if (isStalePreparedStatement(e)) broken = e as Error;
        throw e;
      } finally {
        client.release(broken);
      }
    },
    async listen(channel: string, onPayload: (payload: string) => void) {
      const c = await ensureListenClient();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    poolStats: () => ({ max: pool.options.max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closed = true;
      if (listenClient) {
        const c = listenClient;
        listenClient = null;
        await c.end().catch(() => undefined);
      }
      await pool.end();
      if (sidePool) await sidePool.end();
    },
  };
}
