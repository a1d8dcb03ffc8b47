import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import type { Dictionary, Table } from '../dictionary/model.js';

export type Row = Record<string, unknown>;

/**
 * The points where side effects hook into writes, as the original's model validator events:
 * before-* may change the row or refuse the write (throw an ApiError); after-* run in the same
 * transaction, so their effects commit or roll back with the write.
 */
export type ModelEventType = 'before-new' | 'before-change' | 'before-delete' | 'after-new' | 'after-change' | 'after-delete';

export interface ModelEvent {
  type: ModelEventType;
  table: Table;
  /** The new row (physical column names); for deletes, the deleted row. */
  row: Row;
  /** The row before an update or delete. */
  old: Row | null;
  /** Physical names of the columns an update changes. */
  changed: Set<string>;
  tx: Tx;
  dict: Dictionary;
  auth: AuthContext;
}

export type ModelEventHandler = (e: ModelEvent) => Promise<void> | void;

export class ModelEvents {
  #handlers = new Map<ModelEventType, { table: string | null; handler: ModelEventHandler }[]>();

  /** Subscribes to one event type, for one table (by name, any case) or for all (null). */
  on(type: ModelEventType, table: string | null, handler: ModelEventHandler): void {
    let list = this.#handlers.get(type);
    if (!list) this.#handlers.set(type, (list = []));
    list.push({ table: table?.toLowerCase() ?? null, handler });
  }

  async emit(e: ModelEvent): Promise<void> {
    for (const h of this.#handlers.get(e.type) ?? []) {
      if (h.table === null || h.table === e.table.dbName) await h.handler(e);
    }
  }
}
