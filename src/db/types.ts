/** The one database interface the rest of the service talks to, over PGlite or a PostgreSQL server. */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  /** A statement name: the server prepares it once per connection (hot paths). */
  name?: string;
}

export interface Queryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /**
   * The first column of the first row of a query, a bytea value, as the bytes themselves (null for
   * NULL or no row). Present where the database has a cheaper way to carry bytes than `query`
   * (embedded PGlite: binary format, one copy); readers of large values use it when present.
   */
  readBytea?(text: string, params?: readonly unknown[]): Promise<Buffer | null>;
}

export interface IndependentOptions {
  /** The work is one statement: it runs as its own transaction, without BEGIN and COMMIT round trips. */
  oneStatement?: boolean;
}

/** A transaction; nested work runs in a savepoint so it can fail alone. */
export interface Tx extends Queryable {
  savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs short work in a transaction of its own that commits at once, whatever becomes of this
   * one (used to take numbers from counters without holding their rows until this transaction
   * ends). Null where the database has a single connection (embedded PGlite): there the work
   * joins this transaction.
   */
  /**
   * Runs the transaction's last statement and commits the transaction with it. Where the driver
   * can (a PostgreSQL server), the statement and COMMIT go in one round trip: when the statement
   * fails, the server skips the COMMIT and the transaction fails with the statement's error. Absent
   * where a statement costs no round trip (embedded PGlite): there the caller runs the statement
   * with `query` and the transaction commits as usual.
   */
  readonly commitWith?: (text: string, params: readonly unknown[], options: Required<QueryOptions>) => Promise<QueryResult<Record<string, unknown>>>;
  readonly independent: (<T>(fn: (q: Queryable) => Promise<T>, options?: IndependentOptions) => Promise<T>) | null;
  /**
   * NOTIFY on commit. Listeners of this instance hear it as soon as the commit returns, before
   * the caller's next statement: a request that follows on the same instance sees its effect
   * (an ended session, a dropped cache) without waiting for the notification's round trip.
   */
  notify(channel: string, payload: string): Promise<void>;
  /** The transaction this one wraps (a write operation's view of its request's transaction), if any. */
  readonly base?: Tx;
}

/** The transaction itself behind any wrappers of it: wrappers of one transaction share it. */
export function baseTransaction(q: object): object {
  let t = q as { base?: object };
  while (t.base) t = t.base as { base?: object };
  return t;
}

export type DbKind = 'pglite' | 'pg';

export interface Db extends Queryable {
  readonly kind: DbKind;
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs several statements of one request on one connection, outside a transaction: the request
   * waits for a connection once, not before every statement. Work inside must use the given
   * Queryable only (another draw from the pool could wait forever for its own connection).
   */
  connection<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (DDL, no parameters). */
  exec(sql: string): Promise<void>;
  /** Subscribes to NOTIFY on a channel; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** How the connection pool is used, where there is one (PostgreSQL; embedded PGlite has a single connection). */
  poolStats?(): PoolStats;
}

/** Connections of a pool: its bound, those open, those idle among them, and the callers waiting for one. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}
