import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import type { Dictionary, Table } from '../dictionary/model.js';
import type { OperationMemo } from './operation-memo.js';

export type Row = Record<string, unknown>;

/**
 * The points where side effects hook into writes, as the original's model validator events:
 * before-* may change the row or refuse the write (throw an ApiError); after-* run in the same
 * transaction, so their effects commit or roll back with the write.
 */
export type ModelEventType = 'before-new' | 'before-change' | 'before-delete' | 'after-new' | 'after-change' | 'after-delete' | DocumentEventType;

/**
 * Document events (the original's doc timings), raised by the document engine around each action
 * inside the action's transaction. `row` is the header as the action leaves it (for before-*, as
 * it is before the action), `old` the header before the action, `changed` the columns it changed.
 * A before-* handler may refuse the action by throwing; an after-* handler's failure undoes it.
 */
export const DOCUMENT_EVENTS = {
  'before-prepare': 'DBPR',
  'after-prepare': 'DAPR',
  'before-complete': 'DBCO',
  'after-complete': 'DACO',
  'before-void': 'DBVO',
  'after-void': 'DAVO',
  'before-close': 'DBCL',
  'after-close': 'DACL',
  'before-reactivate': 'DBAC',
  'after-reactivate': 'DAAC',
  'before-reverse-correct': 'DBRC',
  'after-reverse-correct': 'DARC',
  'before-reverse-accrual': 'DBRA',
  'after-reverse-accrual': 'DARA',
  'before-post': 'DBPO',
  'after-post': 'DAPO',
} as const;

export type DocumentEventType = keyof typeof DOCUMENT_EVENTS;

export interface ModelEvent {
  type: ModelEventType;
  table: Table;
  /** The new row (physical column names); for deletes, the deleted row. */
  row: Row;
  /** The row before an update or delete. */
  old: Row | null;
  /** Physical names of the columns an update changes. */
  changed: Set<string>;
  /**
   * before-new only: the columns the request itself gave (and the link to the parent), so that a
   * rule can tell a value the caller chose from one a default put there, even when they are equal.
   */
  given?: ReadonlySet<string>;
  tx: Tx;
  dict: Dictionary;
  auth: AuthContext;
  /**
   * Runs work once, when the write operation that raised this event is done (all its nested
   * records written) and before its result is read back; work under the same key runs once.
   * Document totals use it: ten lines written in one request recompute their order once.
   */
  defer(key: string, work: () => Promise<void>): void;
  /**
   * Raises another model event in the same write operation: a rule that writes another record
   * with a plain statement (a header's totals after its lines) still lets that record's
   * subscribers see the change.
   */
  raise?(type: ModelEventType, table: Table, row: Row, old: Row | null, changed: Set<string>): Promise<void>;
  /** Facts kept for the rest of the write operation (see OperationMemo). */
  memo: OperationMemo;
}

/**
 * Raised once for a list of new records of one table (the lines of an order sent with it)
 * before any of them goes through before-new: handlers load what the rows will need in one
 * statement, into the operation's memo. Rows hold the values the request gave (converted) and
 * the link to the parent; defaults are not applied yet.
 */
export interface PrepareNewEvent {
  table: Table;
  rows: Row[];
  tx: Tx;
  dict: Dictionary;
  auth: AuthContext;
  memo: OperationMemo;
}

export type PrepareNewHandler = (e: PrepareNewEvent) => Promise<void> | void;

/** Work deferred to the end of one write operation, by key. */
export class DeferredWork {
  #pending = new Map<string, () => Promise<void>>();

  add(key: string, work: () => Promise<void>): void {
    this.#pending.delete(key);
    this.#pending.set(key, work);
  }

  /** Runs everything pending, in order; work may defer more, which runs too. */
  async flush(): Promise<void> {
    for (let rounds = 0; this.#pending.size && rounds < 16; rounds++) {
      const batch = [...this.#pending.values()];
      this.#pending.clear();
      for (const work of batch) await work();
    }
  }
}

export type ModelEventHandler = (e: ModelEvent) => Promise<void> | void;

export class ModelEvents {
  #handlers = new Map<ModelEventType, { table: string | null; handler: ModelEventHandler }[]>();
  /** The handlers of an event type for one table, in order of subscription; rebuilt after each subscription. */
  #byTable = new Map<ModelEventType, Map<string, ModelEventHandler[]>>();
  #prepareNew = new Map<string, PrepareNewHandler[]>();

  /** Subscribes to one event type, for one table (by name, any case) or for all (null). */
  on(type: ModelEventType, table: string | null, handler: ModelEventHandler): void {
    let list = this.#handlers.get(type);
    if (!list) this.#handlers.set(type, (list = []));
    list.push({ table: table?.toLowerCase() ?? null, handler });
    this.#byTable.clear();
  }

  /** Subscribes to the preparation of new records of one table. */
  onPrepareNew(table: string, handler: PrepareNewHandler): void {
    const key = table.toLowerCase();
    this.#prepareNew.set(key, [...(this.#prepareNew.get(key) ?? []), handler]);
  }

  async emitPrepareNew(e: PrepareNewEvent): Promise<void> {
    for (const handler of this.#prepareNew.get(e.table.dbName) ?? []) await handler(e);
  }

  /** What runs for an event of a type on a table: a line of a thousand-line statement looks them up in a map. */
  #handlersOf(type: ModelEventType, table: string): ModelEventHandler[] {
    let ofType = this.#byTable.get(type);
    if (!ofType) this.#byTable.set(type, (ofType = new Map()));
    let list = ofType.get(table);
    if (!list) {
      list = (this.#handlers.get(type) ?? []).filter((h) => h.table === null || h.table === table).map((h) => h.handler);
      ofType.set(table, list);
    }
    return list;
  }

  /**
   * Runs the handlers of an event in order, each after the previous one is done; a promise only
   * when a handler returns one (most rules of a statement's thousand lines have nothing to wait for).
   */
  emit(e: ModelEvent): Promise<void> | undefined {
    return runFrom(this.#handlersOf(e.type, e.table.dbName), 0, e);
  }
}

/** The handlers from `from` on; a handler that throws gives a rejected promise, as an async emit would. */
function runFrom(handlers: readonly ModelEventHandler[], from: number, e: ModelEvent): Promise<void> | undefined {
  for (let i = from; i < handlers.length; i++) {
    let done: Promise<void> | void;
    try {
      done = handlers[i]!(e);
    } catch (err) {
      return Promise.reject(err);
    }
    if (done instanceof Promise) return i + 1 < handlers.length ? done.then(() => runFrom(handlers, i + 1, e)) : done;
  }
  return undefined;
}
