import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest, conflict } from '../errors.js';
import type { Services } from '../services.js';
import { chunkLength, FIRST_CHUNK, parseChunkSha256, parseTotalChunks } from './upload-plan.js';
import { imageFromUpload } from './upload-image.js';
import { isExpired, STORED } from './upload-status.js';
import { chunkCount, fileSha256, markCompleted, requireSession, storeChunk } from './upload-store.js';

type Params = { uploadId: string; chunkOrder: string };

/** The original's chunk answer (UploadChunkResponse). */
export interface ChunkAnswer {
  uploadId: string;
  chunkOrder: number;
  receivedSize: number;
  message: string;
  isLastChunk: boolean;
}

/**
 * PUT /uploads/{id}/chunks/{n}: checks the chunk as the original does, in its order (canceled,
 * count, order, expired, ended), and the stricter checks of its size and hash; keeps it, and when
 * it is the last one missing completes the upload: the whole-file hash when the session has one,
 * and for an IMAGE upload the AD_Image the status then names. The session row is locked, so
 * chunks of one upload are taken one at a time and only one request completes it.
 */
export async function putChunk(s: Services, req: FastifyRequest<{ Params: Params }>, userId: number): Promise<ChunkAnswer> {
  const id = req.params.uploadId;
  const n = /^\d{1,6}$/.test(req.params.chunkOrder) ? Number(req.params.chunkOrder) : NaN;
  const sha = parseChunkSha256(req.headers['x-content-sha256']);
  const total = parseTotalChunks(req.headers['x-total-chunks']);
  const data = req.body;
  return s.db.tx(async (tx) => {
    const u = await requireSession(tx, id, userId, true);
    if (!u.active) throw badRequest('Upload canceled', `Upload session ${id} has been canceled`);
    if (total === null || total <= 0) throw badRequest('Request Error', 'X-Total-Chunks must be a number greater than 0');
    if (total !== u.totalChunks) throw badRequest('Request Error', `X-Total-Chunks must be ${u.totalChunks}`);
    if (!Number.isInteger(n) || n < FIRST_CHUNK || n > u.totalChunks) throw badRequest('Request Error', `Chunk order must be between ${FIRST_CHUNK} and ${u.totalChunks}`);
    if (isExpired(u, Date.now())) throw new ApiError(410, 'Upload expired', `Upload session ${id} has expired`);
    if (u.status === STORED.completed || u.status === STORED.expired) {
      throw conflict('Upload ended', `Upload session ${id} is already ${u.status === STORED.completed ? 'completed' : 'failed'}`);
    }
    if (!Buffer.isBuffer(data) || data.length === 0) throw badRequest('Request Error', 'The chunk has no bytes: send them as the request body');
    const actual = createHash('sha256').update(data).digest('hex');
    if (sha !== null && actual !== sha) throw badRequest('Request Error', `The SHA-256 of chunk ${n} does not match X-Content-SHA256`);
    const want = chunkLength(u.fileSize, u.chunkSize, n);
    if (data.length !== want) throw badRequest('Request Error', `Chunk ${n} must hold ${want} bytes, not ${data.length}`);

    await storeChunk(tx, u, n, data, actual);
    const answer = { uploadId: u.uploadId, chunkOrder: n, receivedSize: data.length, message: `Chunk ${n} uploaded successfully.` };
    if ((await chunkCount(tx, u.pk)) < u.totalChunks) return { ...answer, isLastChunk: false };
    // Refused here rather than failing the session: the chunk is not kept, and the client may send the right one.
    if (u.sha256 && (await fileSha256(tx, u)) !== u.sha256) throw badRequest('Request Error', 'The SHA-256 of the whole file does not match the sha256 of the upload session');
    const image = u.uploadLocation === 'IMAGE' ? await imageFromUpload(tx, u, { clientId: u.clientId, orgId: u.orgId, userId: u.userId }) : null;
    await markCompleted(tx, u.pk, image?.id ?? null);
    return { ...answer, isLastChunk: true };
  });
}
