import type { Queryable } from '../db/types.js';
import { FIRST_CHUNK } from './upload-plan.js';
import type { UploadSession } from './upload-store.js';

/** Bytes around the upload's in the assembled value: `before` is SQL of one bytea value (with its own parameters), `after` bytes. */
export interface Surroundings {
  before?: { sql: string; params: unknown[] };
  after?: Buffer;
}

/**
 * Builds the upload's file (with the bytes around it) as a temporary large object, gives its oid to
 * `use` (which reads it whole with `lo_get`), and removes it. Assembling the value with `string_agg`
 * instead grows a buffer by doubling and copies the result once more: the backend held about five
 * times the file at once (measured on embedded PGlite, whose memory never shrinks); a large object
 * is written chunk by chunk into its pages and `lo_get` reads it into one buffer of its exact size.
 * Inside the caller's transaction, so a failure leaves no object behind.
 */
export async function withAssembledFile(q: Queryable, u: UploadSession, around: Surroundings, use: (oid: number) => Promise<unknown>): Promise<void> {
  const before = around.before ?? { sql: `''::bytea`, params: [] };
  const { rows } = await q.query<{ oid: number; base: string }>(
    `SELECT lo_from_bytea(0, b.v) AS oid, octet_length(b.v) AS base FROM (SELECT coalesce((${before.sql}), ''::bytea) AS v) b`,
    before.params,
  );
  const oid = Number(rows[0]!.oid);
  const base = Number(rows[0]!.base);
  // Each chunk goes to its place in one statement; the database reads one chunk per row.
  await q.query(
    `SELECT lo_put($1::oid, $2::bigint + (c.chunkorder - $3)::bigint * $4::bigint, c.binarydata) FROM rest_uploadchunk c WHERE c.rest_upload_id = $5`,
    [oid, base, FIRST_CHUNK, u.chunkSize, u.pk],
  );
  if (around.after?.length) await q.query('SELECT lo_put($1::oid, $2::bigint, $3::bytea)', [oid, base + u.fileSize, around.after]);
  await use(oid);
  await q.query('SELECT lo_unlink($1::oid)', [oid]);
}
