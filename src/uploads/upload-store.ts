import { createHash, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { insertRow } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { notFound } from '../errors.js';
import { byteaSlices } from '../db/bytea-slices.js';
import { chunkLength, type SessionRequest, type UploadLocation } from './upload-plan.js';
import { STORED } from './upload-status.js';

/**
 * Upload sessions live in REST_Upload and their chunks, one row each, in REST_UploadChunk, so
 * every instance sees them. The file is never assembled in the service's memory: the whole-file
 * hash and the file download go over the chunks one at a time, and a copy is assembled by
 * PostgreSQL itself. A session stays after it ends, as the original keeps it: a completed one with
 * its chunks (the file) until it is canceled, a canceled one deactivated and without chunks, an
 * expired one marked so (see upload-status.ts for the statuses these make).
 */
export interface UploadSession extends Omit<SessionRequest, 'expiresInSeconds'> {
  pk: number;
  uploadId: string;
  clientId: number;
  orgId: number;
  userId: number;
  expiresAt: Date;
  /** The stored code (STORED in upload-status.ts). */
  status: string;
  /** False once canceled. */
  active: boolean;
  imageId: number | null;
}

const COLUMNS =
  'rest_upload_id, uploadid, ad_client_id, ad_org_id, ad_user_id, isactive, filename, contenttype, filesize, chunksize, totalchunks, sha256, uploadlocation, expiresat, status, ad_image_id';

function sessionOf(r: Record<string, unknown>): UploadSession {
  return {
    pk: Number(r.rest_upload_id),
    uploadId: String(r.uploadid),
    clientId: Number(r.ad_client_id),
    orgId: Number(r.ad_org_id),
    userId: Number(r.ad_user_id),
    active: r.isactive !== 'N',
    fileName: String(r.filename),
    contentType: String(r.contenttype),
    fileSize: Number(r.filesize),
    chunkSize: Number(r.chunksize),
    totalChunks: Number(r.totalchunks),
    sha256: typeof r.sha256 === 'string' && r.sha256 !== '' ? r.sha256 : null,
    uploadLocation: String(r.uploadlocation) as UploadLocation,
    expiresAt: r.expiresat instanceof Date ? r.expiresat : new Date(String(r.expiresat)),
    status: String(r.status),
    imageId: r.ad_image_id === null || r.ad_image_id === undefined ? null : Number(r.ad_image_id),
  };
}

export async function createSession(q: Queryable, auth: AuthContext, req: SessionRequest, nowMs: number): Promise<UploadSession> {
  const uploadId = randomUUID();
  const expiresAt = new Date(nowMs + req.expiresInSeconds * 1000);
  await insertRow(
    q,
    'REST_Upload',
    {
      uploadid: uploadId, filename: req.fileName, contenttype: req.contentType, filesize: req.fileSize, chunksize: req.chunkSize,
      totalchunks: req.totalChunks, sha256: req.sha256, uploadlocation: req.uploadLocation, expiresat: expiresAt.toISOString(), status: STORED.pending, ad_user_id: auth.userId,
    },
    { clientId: auth.clientId, orgId: auth.orgId, userId: auth.userId },
  );
  return (await findSession(q, uploadId, auth.userId))!;
}

/** A session of a user, whatever its status (optionally locked). */
export async function findSession(q: Queryable, uploadId: string, userId: number, lock = false): Promise<UploadSession | null> {
  if (!/^[0-9a-f-]{36}$/i.test(uploadId)) return null;
  const { rows } = await q.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM rest_upload WHERE uploadid = $1 AND ad_user_id = $2${lock ? ' FOR UPDATE' : ''}`, [
    uploadId.toLowerCase(),
    userId,
  ]);
  return rows[0] ? sessionOf(rows[0]) : null;
}

export async function requireSession(q: Queryable, uploadId: string, userId: number, lock = false): Promise<UploadSession> {
  const s = await findSession(q, uploadId, userId, lock);
  if (!s) throw notFound('Upload not found', `No upload session ${uploadId}`);
  return s;
}

/** The sessions of the caller that have not ended with a file or been canceled, as the original lists them (failed ones too). */
export async function pendingSessions(q: Queryable, auth: AuthContext): Promise<UploadSession[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM rest_upload WHERE ad_user_id = $1 AND ad_client_id = $2 AND isactive = 'Y' AND status <> $3 ORDER BY rest_upload_id`,
    [auth.userId, auth.clientId, STORED.completed],
  );
  return rows.map(sessionOf);
}

export interface ChunkInfo {
  chunkOrder: number;
  receivedSize: number;
  sha256: string;
}

export async function chunkInfos(q: Queryable, pk: number): Promise<ChunkInfo[]> {
  const { rows } = await q.query<{ chunkorder: number; receivedsize: number; sha256: string }>(
    'SELECT chunkorder, receivedsize, sha256 FROM rest_uploadchunk WHERE rest_upload_id = $1 ORDER BY chunkorder',
    [pk],
  );
  return rows.map((r) => ({ chunkOrder: Number(r.chunkorder), receivedSize: Number(r.receivedsize), sha256: String(r.sha256) }));
}

export async function chunkCount(q: Queryable, pk: number): Promise<number> {
  const { rows } = await q.query<{ n: string }>('SELECT count(*) AS n FROM rest_uploadchunk WHERE rest_upload_id = $1', [pk]);
  return Number(rows[0]!.n);
}

/** Stores a chunk; one sent again replaces the one kept, as the original replaces it. */
export async function storeChunk(q: Queryable, s: UploadSession, n: number, data: Buffer, sha: string): Promise<void> {
  const { rows } = await q.query<{ sha256: string }>('SELECT sha256 FROM rest_uploadchunk WHERE rest_upload_id = $1 AND chunkorder = $2', [s.pk, n]);
  if (rows[0]) {
    if (rows[0].sha256 === sha) return;
    await q.query('UPDATE rest_uploadchunk SET binarydata = $1, sha256 = $2, receivedsize = $3, updated = now() WHERE rest_upload_id = $4 AND chunkorder = $5', [data, sha, data.length, s.pk, n]);
    return;
  }
  await insertRow(q, 'REST_UploadChunk', { rest_upload_id: s.pk, chunkorder: n, receivedsize: data.length, sha256: sha, binarydata: data }, { clientId: s.clientId, orgId: s.orgId, userId: s.userId });
}

const CHUNK_SLICE_SQL = 'SELECT substring(binarydata from $1 for $2) AS b FROM rest_uploadchunk WHERE rest_upload_id = $3 AND chunkorder = $4';

/** The file's bytes in order, chunk by chunk and each in slices (see byteaSlices). */
export async function* chunkBytes(q: Queryable, s: UploadSession): AsyncGenerator<Buffer> {
  for (let n = 1; n <= s.totalChunks; n++) yield* byteaSlices(q, CHUNK_SLICE_SQL, [s.pk, n], 0, chunkLength(s.fileSize, s.chunkSize, n));
}

/** The hash of the whole file, read over its chunks. */
export async function fileSha256(q: Queryable, s: UploadSession): Promise<string> {
  const h = createHash('sha256');
  for await (const b of chunkBytes(q, s)) h.update(b);
  return h.digest('hex');
}

/** The CRC-32 of the whole file (as a zip entry records it), read over its chunks. */
export async function fileCrc32(q: Queryable, s: UploadSession): Promise<number> {
  let crc = 0;
  for await (const b of chunkBytes(q, s)) crc = crc32(b, crc);
  return crc;
}

export async function markCompleted(q: Queryable, pk: number, imageId: number | null): Promise<void> {
  await q.query('UPDATE rest_upload SET status = $1, ad_image_id = coalesce($2, ad_image_id), updated = now() WHERE rest_upload_id = $3', [STORED.completed, imageId, pk]);
}

/**
 * Cancels a session as the original does: its chunks (and so its file) go, the session stays,
 * deactivated. An image made from it stays too, as other records may show it; the session no
 * longer names it.
 */
export async function cancelSession(q: Queryable, pk: number): Promise<void> {
  await q.query('DELETE FROM rest_uploadchunk WHERE rest_upload_id = $1', [pk]);
  await q.query(`UPDATE rest_upload SET isactive = 'N', ad_image_id = NULL, updated = now() WHERE rest_upload_id = $1`, [pk]);
}

/** How long a session that ended without a file (expired or canceled) is kept after its expiry. */
export const ENDED_KEPT_DAYS = 7;

/**
 * The cleaner's pass: pending sessions past their expiry are marked expired (FAILED) and their
 * chunks' bytes freed (no chunk is taken any more, so they can never make a file; the chunk rows
 * stay for the status answer); sessions that ended without a file are removed ENDED_KEPT_DAYS
 * after their expiry. Completed sessions stay until canceled, as the original keeps them.
 */
export async function cleanExpired(q: Queryable): Promise<{ failed: number; removed: number }> {
  const failed = await q.query(`UPDATE rest_upload SET status = $1, updated = now() WHERE status = $2 AND isactive = 'Y' AND expiresat <= now()`, [STORED.expired, STORED.pending]);
  await q.query(
    `UPDATE rest_uploadchunk SET binarydata = NULL WHERE binarydata IS NOT NULL AND rest_upload_id IN (SELECT rest_upload_id FROM rest_upload WHERE status = $1)`,
    [STORED.expired],
  );
  const ended = `SELECT rest_upload_id FROM rest_upload WHERE (status = $1 OR isactive = 'N') AND expiresat <= now() - make_interval(days => $2)`;
  await q.query(`DELETE FROM rest_uploadchunk WHERE rest_upload_id IN (${ended})`, [STORED.expired, ENDED_KEPT_DAYS]);
  const removed = await q.query(`DELETE FROM rest_upload WHERE rest_upload_id IN (${ended})`, [STORED.expired, ENDED_KEPT_DAYS]);
  return { failed: failed.rowCount ?? 0, removed: removed.rowCount ?? 0 };
}
