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
  const b = Buffer.allocUnsafe(16);
  b.writeUIntBE(now, 0, 6);
  randomPool.copy(b, 6, randomAt, randomAt + RANDOM_PER_UUID);
  randomAt += RANDOM_PER_UUID;
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
