/**
 * Facts one write operation looked up (a locked document header, a product's prices, a table's
 * default record), kept for the rest of that operation so that ten lines of one order do not
 * read them ten times. Entries belong to a table and are dropped when the operation writes that
 * table, so a cached row is never older than the operation's own writes.
 */
export class OperationMemo {
  #byTable = new Map<string, Map<string, Promise<unknown>>>();

  /** The value under (table, key), loaded once. A failed load is not kept. */
  get<T>(table: string, key: string, load: () => Promise<T>): Promise<T> {
    const entries = this.#entries(table);
    const hit = entries.get(key);
    if (hit) return hit as Promise<T>;
    const loading = load();
    entries.set(key, loading);
    loading.catch(() => entries.delete(key));
    return loading;
  }

  /** Stores a value loaded elsewhere (several at once, by one statement). */
  set<T>(table: string, key: string, value: T): void {
    this.#entries(table).set(key, Promise.resolve(value));
  }

  /** The value under (table, key) when one is kept. */
  peek<T>(table: string, key: string): Promise<T> | undefined {
    return this.#byTable.get(table)?.get(key) as Promise<T> | undefined;
  }

  /** Drops what is known about a table's records (it has just been written). */
  forget(table: string): void {
    this.#byTable.delete(table);
  }

  #entries(table: string): Map<string, Promise<unknown>> {
    let entries = this.#byTable.get(table);
    if (!entries) this.#byTable.set(table, (entries = new Map()));
    return entries;
  }
}
