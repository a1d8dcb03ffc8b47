import type { AuthContext } from '../../auth/context.js';
import type { Tx } from '../../db/types.js';
import type { Dictionary, Table } from '../../dictionary/model.js';
import { DeferredWork, type ModelEvent, type ModelEvents, type ModelEventType, type Row } from '../../events/model-events.js';
import { OperationMemo } from '../../events/operation-memo.js';
import { IdReservations } from './id-reservations.js';
import { PendingInserts } from './pending-inserts.js';

/** What a write needs: the dictionary snapshot, the caller, its transaction and the event bus. */
export interface WriteContext {
  dict: Dictionary;
  auth: AuthContext;
  /** The operation's transaction; a statement sent through it first writes the pending inserts. */
  tx: Tx;
  events: ModelEvents;
  deferred: DeferredWork;
  memo: OperationMemo;
  ids: IdReservations;
  pending: PendingInserts;
}

/** The model event of a write operation, as its subscribers receive it. */
export function modelEventOf(wc: WriteContext, type: ModelEventType, table: Table, row: Row, old: Row | null, changed: Set<string>, given?: ReadonlySet<string>): ModelEvent {
  const hooks = hooksOf(wc);
  // Built without spreads, in one shape: a thousand-line statement raises some thousands.
  const e: ModelEvent = { type, table, row, old, changed, tx: wc.tx, dict: wc.dict, auth: wc.auth, memo: wc.memo, defer: hooks.defer, raise: hooks.raise };
  if (given) e.given = given;
  return e;
}

const DONE = Promise.resolve();

/** The defer and raise of a write operation's events, made once per operation (a thousand-line statement raises some thousands). */
const HOOKS = new WeakMap<WriteContext, Pick<ModelEvent, 'defer' | 'raise'>>();

function hooksOf(wc: WriteContext): Pick<ModelEvent, 'defer' | 'raise'> {
  let hooks = HOOKS.get(wc);
  if (!hooks) {
    hooks = { defer: (key, work) => wc.deferred.add(key, work), raise: (t, tb, r, o, c) => emitModelEvent(wc, t, tb, r, o, c) ?? DONE };
    HOOKS.set(wc, hooks);
  }
  return hooks;
}

/** Raises a model event of a write operation; a promise only when a handler has to wait. */
export function emitModelEvent(wc: WriteContext, type: ModelEventType, table: Table, row: Row, old: Row | null, changed: Set<string>, given?: ReadonlySet<string>): Promise<void> | undefined {
  return wc.events.emit(modelEventOf(wc, type, table, row, old, changed, given));
}

/**
 * The context of one write operation. New records are held back and written several rows per
 * statement (see PendingInserts); every statement of the operation goes through a transaction
 * that writes them first, so nothing the operation reads can miss a record it created before.
 */
export function createWriteContext(dict: Dictionary, auth: AuthContext, tx: Tx, events: ModelEvents): WriteContext {
  const memo = new OperationMemo();
  let wc: WriteContext;
  const pending = new PendingInserts(tx, memo, (table, saved, columns) => emitModelEvent(wc, 'after-new', table, saved, null, columns));
  const flushing: Tx = {
    base: tx,
    independent: tx.independent,
    async query(text, params, options) {
      await pending.flush();
      return tx.query(text, params, options);
    },
    async savepoint(fn) {
      await pending.flush();
      return tx.savepoint(fn);
    },
    notify: (channel, payload) => tx.notify(channel, payload),
  };
  wc = { dict, auth, tx: flushing, events, deferred: new DeferredWork(), memo, ids: new IdReservations(), pending };
  return wc;
}
