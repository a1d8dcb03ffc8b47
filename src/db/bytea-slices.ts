import type { Queryable } from './types.js';
import { noteSpentBytes } from './spent-bytes.js';

/** Bytes fetched from the stored value per query when a large value is read piece by piece. */
export const WINDOW_BYTES = 1024 * 1024;

/**
 * Bytes per result row. The drivers receive bytea as hex text (two characters a byte): a 48 KiB
 * slice is a 96 KiB string, under V8's large-object threshold (128 KiB), so it dies in a cheap
 * young-generation collection instead of waiting in old space for a full one, and the driver's
 * message buffer stays small.
 */
export const SLICE_BYTES = 48 * 1024;

/**
 * Reads bytes [from, from + length) of one bytea value, so the service holds one window (as rows
 * of SLICE_BYTES, or whole where the database reads bytes as they are) at a time however large the
 * value is. `select` is a query of one row whose first parameter is the 1-based start and second
 * the length, e.g. `SELECT substring(binarydata from $1 for $2) AS b FROM ad_archive WHERE
 * ad_archive_id = $3` (the caller's own parameters follow).
 * The window is fetched once per query (MATERIALIZED: not once per row) and cut into rows there.
 */
export async function* byteaSlices(q: Queryable, select: string, params: readonly unknown[], from: number, length: number): AsyncGenerator<Buffer> {
  const sliced = `WITH w AS MATERIALIZED (${select})
    SELECT substring(w.b from s.at for ${SLICE_BYTES}) AS b FROM w, generate_series(1, octet_length(w.b), ${SLICE_BYTES}) AS s(at) ORDER BY s.at`;
  for (let done = 0; done < length; ) {
    const n = Math.min(WINDOW_BYTES, length - done);
    const windowParams = [from + done + 1, n, ...params];
    // Where the database gives the bytes as they are, one piece per window: no slicing needed.
    const pieces = q.readBytea ? [await q.readBytea(select, windowParams)] : (await q.query<{ b: Buffer | Uint8Array | null }>(sliced, windowParams)).rows.map((r) => r.b);
    if (pieces.length === 0) throw new Error('the stored value is shorter than expected');
    for (const b of pieces) {
      // A piece without bytes would leave `done` where it is and read the same window forever.
      if (!b || b.length === 0) throw new Error('the stored value is shorter than expected');
      yield Buffer.from(b.buffer, b.byteOffset, b.length);
      done += b.length;
      noteSpentBytes(b.length);
    }
  }
}
