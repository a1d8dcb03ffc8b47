import { createHash, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { insertRow } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { conflict, notFound } from '../errors.js';
import { byteaSlices } from '../db/bytea-slices.js';
import { chunkLength, type SessionRequest, type UploadLocation } from './upload-plan.js';

/**
 * Upload sessions live in REST_Upload and their chunks, one row each, in REST_UploadChunk, so
 * every instance sees them. The file is never assembled in the service's memory: the whole-file
 * hash and the file download go over the chunks one at a time, and a copy is assembled by
 * PostgreSQL itself.
 */
export interface UploadSession extends Omit<SessionRequest, 'expiresInSeconds'> {
  pk: number;
  uploadId: string;
  clientId: number;
  userId: number;
  expiresAt: Date;
  status: string;
  imageId: number | null;
}

const COLUMNS = 'rest_upload_id, uploadid, ad_client_id, ad_user_id, filename, contenttype, filesize, chunksize, totalchunks, sha256, uploadlocation, expiresat, status, ad_image_id';

function sessionOf(r: Record<string, unknown>): UploadSession {
  return {
    pk: Number(r.rest_upload_id),
    uploadId: String(r.uploadid),
    clientId: Number(r.ad_client_id),
    userId: Number(r.ad_user_id),
    fileName: String(r.filename),
    contentType: String(r.contenttype),
    fileSize: Number(r.filesize),
    chunkSize: Number(r.chunksize),
    totalChunks: Number(r.totalchunks),
    sha256: String(r.sha256),
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
      totalchunks: req.totalChunks, sha256: req.sha256, uploadlocation: req.uploadLocation, expiresat: expiresAt.toISOString(), status: 'P', ad_user_id: auth.userId,
    },
    { clientId: auth.clientId, orgId: auth.orgId, userId: auth.userId },
  );
  return (await findSession(q, uploadId, auth.userId))!;
}

/** The live session of a user (expired ones count as gone), optionally locked. */
export async function findSession(q: Queryable, uploadId: string, userId: number, lock = false): Promise<UploadSession | null> {
  if (!/^[0-9a-f-]{36}$/i.test(uploadId)) return null;
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM rest_upload WHERE uploadid = $1 AND ad_user_id = $2 AND expiresat > now()${lock ? ' FOR UPDATE' : ''}`,
    [uploadId.toLowerCase(), userId],
  );
  return rows[0] ? sessionOf(rows[0]) : null;
}

export async function requireSession(q: Queryable, uploadId: string, userId: number, lock = false): Promise<UploadSession> {
  const s = await findSession(q, uploadId, userId, lock);
  if (!s) throw notFound('Upload not found', `No upload session ${uploadId}`);
  return s;
}

export async function pendingSessions(q: Queryable, auth: AuthContext): Promise<UploadSession[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM rest_upload WHERE ad_user_id = $1 AND ad_client_id = $2 AND status = 'P' AND expiresat > now() ORDER BY created, rest_upload_id`,
    [auth.userId, auth.clientId],
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

/** Stores a chunk once: the same chunk sent again is accepted, other bytes for it are refused. */
export async function storeChunk(q: Queryable, s: UploadSession, n: number, data: Buffer, sha: string): Promise<void> {
  const { rows } = await q.query<{ sha256: string }>('SELECT sha256 FROM rest_uploadchunk WHERE rest_upload_id = $1 AND chunkorder = $2', [s.pk, n]);
  if (rows[0]) {
    if (rows[0].sha256 !== sha) throw conflict('Request Error', `Chunk ${n} was already received with other content`);
    return;
  }
  await insertRow(q, 'REST_UploadChunk', { rest_upload_id: s.pk, chunkorder: n, receivedsize: data.length, sha256: sha, binarydata: data }, { clientId: s.clientId, userId: s.userId });
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

export async function markCompleted(q: Queryable, pk: number): Promise<void> {
  await q.query(`UPDATE rest_upload SET status = 'C', updated = now() WHERE rest_upload_id = $1`, [pk]);
}

export async function deleteSession(q: Queryable, pk: number): Promise<void> {
  await q.query('DELETE FROM rest_uploadchunk WHERE rest_upload_id = $1', [pk]);
  await q.query('DELETE FROM rest_upload WHERE rest_upload_id = $1', [pk]);
}

/** Removes expired sessions and their chunks; returns how many sessions went. */
export async function purgeExpired(q: Queryable): Promise<number> {
  await q.query('DELETE FROM rest_uploadchunk WHERE rest_upload_id IN (SELECT rest_upload_id FROM rest_upload WHERE expiresat <= now())');
  const r = await q.query('DELETE FROM rest_upload WHERE expiresat <= now()');
  return r.rowCount ?? 0;
}
