import type { Queryable } from './types.js';

/** Bytes fetched per query when a large value is read piece by piece. */
export const SLICE_BYTES = 1024 * 1024;

/**
 * Reads bytes [from, from + length) of one bytea value in slices, so the service holds one slice
 * at a time however large the value is. `select` is a query of one row whose first parameter is
 * the 1-based start and second the length, e.g. `SELECT substring(binarydata from $1 for $2) AS b
 * FROM ad_archive WHERE ad_archive_id = $3` (the caller's own parameters follow).
 */
export async function* byteaSlices(q: Queryable, select: string, params: readonly unknown[], from: number, length: number): AsyncGenerator<Buffer> {
  for (let done = 0; done < length; ) {
    const n = Math.min(SLICE_BYTES, length - done);
    const { rows } = await q.query<{ b: Buffer | Uint8Array | null }>(select, [from + done + 1, n, ...params]);
    const b = rows[0]?.b;
    if (!b || b.length === 0) throw new Error('the stored value is shorter than expected');
    yield Buffer.from(b.buffer, b.byteOffset, b.length);
    done += b.length;
  }
}
