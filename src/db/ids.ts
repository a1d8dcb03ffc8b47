import { randomFillSync } from 'node:crypto';
import type { Queryable } from './types.js';

/** Next record id of a table, from its database sequence (described by its AD_Sequence row). */
export async function nextId(q: Queryable, tableName: string): Promise<number> {
  const { rows } = await q.query<{ id: number }>('SELECT nextval($1::regclass) AS id', [`${tableName.toLowerCase()}_sq`], { name: 'next_id' });
  return Number(rows[0]!.id);
}

/** Several record ids of a table at once, ascending (the lines of a document written together). */
export async function nextIds(q: Queryable, tableName: string, count: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>('SELECT nextval($1::regclass) AS id FROM generate_series(1, $2)', [`${tableName.toLowerCase()}_sq`, count], {
    name: 'next_ids',
  });
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Random bytes for the next 256 UUIDs: one call to the system's generator each time it runs out, instead of one per UUID. */
const RANDOM_PER_UUID = 10;
const randomPool = Buffer.alloc(RANDOM_PER_UUID * 256);
let randomAt = randomPool.length;

/** A time-ordered UUID (version 7): new records sort by creation and index well. */
export function uuidv7(now = Date.now()): string {
  if (randomAt + RANDOM_PER_UUID > randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  const at = randomAt;
  randomAt += RANDOM_PER_UUID;
  // The version and variant bits set in the pool itself, and its bytes written as hex from there:
  // no buffer of its own per UUID (a statement of a thousand lines makes a thousand).
  randomPool[at] = (randomPool[at]! & 0x0f) | 0x70;
  randomPool[at + 2] = (randomPool[at + 2]! & 0x3f) | 0x80;
  const r = randomPool.toString('hex', at, at + RANDOM_PER_UUID);
  const t = now.toString(16).padStart(12, '0');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${r.slice(0, 4)}-${r.slice(4, 8)}-${r.slice(8)}`;
}
