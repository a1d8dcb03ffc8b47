import { nextId, nextIds } from '../../db/ids.js';
import type { Queryable } from '../../db/types.js';

/** Ids taken for records a write operation is about to create: one statement for a list of lines. */
export class IdReservations {
  #free = new Map<string, number[]>();

  /** Takes `count` ids of a table now; next() hands them out. */
  async reserve(q: Queryable, tableName: string, count: number): Promise<void> {
    if (count < 2) return;
    const key = tableName.toLowerCase();
    this.#free.set(key, [...(this.#free.get(key) ?? []), ...(await nextIds(q, key, count))]);
  }

  /** A reserved id of a table, or undefined when none is left (next() then takes one). */
  take(tableName: string): number | undefined {
    return this.#free.get(tableName.toLowerCase())?.shift();
  }

  async next(q: Queryable, tableName: string): Promise<number> {
    const reserved = this.#free.get(tableName.toLowerCase());
    if (reserved?.length) return reserved.shift()!;
    return nextId(q, tableName);
  }
}
