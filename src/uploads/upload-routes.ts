import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertWritableRow } from '../access/access.js';
import { readableRecord } from '../archives/record-key.js';
import { writeArchive } from '../archives/archive-store.js';
import { lockAttachmentTarget } from '../attachments/attachment-routes.js';
import { base64JsonStream } from '../http/base64-json-stream.js';
import { copyToAttachment } from './attachment-copy.js';
import { withAssembledFile } from './assembled-file.js';
import { insertRow } from '../auth/util.js';
import type { Tx } from '../db/types.js';
import { badRequest, conflict, unauthorized } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import {
  chunkLength, FIRST_CHUNK, LOCATIONS, MAX_CHUNK_SIZE, MAX_EXPIRES_SECONDS, parseChunkSha256, parseSessionRequest, parseTotalChunks, presignQuery, PRESIGN, verifyPresigned, type UploadLocation,
} from './upload-plan.js';
import {
  chunkBytes, chunkInfos, createSession, deleteSession, fileSha256, markCompleted, pendingSessions, purgeExpired, requireSession, storeChunk, type UploadSession,
} from './upload-store.js';
import { UploadSigningSecret } from './signing-secret.js';
import { PeriodicTask } from '../servers/periodic-task.js';
import { pieceStream } from '../http/byte-stream.js';
import { noteSpentBytes } from '../db/spent-bytes.js';

type Params = { uploadId: string; chunkOrder: string };
const PRESIGNED_PARAMS = Object.values(PRESIGN);
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** /api/v1/uploads: chunked uploads kept in PostgreSQL, then copied to an archive, image or attachment. */
export async function uploadRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const secret = new UploadSigningSecret(s.db);
  const base = (req: FastifyRequest): string => `${req.protocol}://${req.host}`;
  const status = (u: UploadSession): string => (u.status === 'C' ? 'COMPLETED' : 'PENDING');

  /** Users of presigned requests, known before their body is read. */
  const presignedUsers = new WeakMap<FastifyRequest, number>();
  const checkPresigned = async (req: FastifyRequest): Promise<void> => {
    if (req.auth) return;
    const id = String((req.params as Params).uploadId).toLowerCase();
    const v = verifyPresigned(await secret.get(), id, req.query as Record<string, unknown>, Date.now());
    if ('refused' in v) throw unauthorized('Unauthorized', v.refused);
    presignedUsers.set(req, v.userId);
  };
  /** The user a request acts for: its bearer token, or a presigned query for this upload. */
  const callerOf = (req: FastifyRequest): number => req.auth?.userId ?? presignedUsers.get(req)!;

  const presigned = async (u: UploadSession, req: FastifyRequest, seconds: number): Promise<{ presignedURL: string; filePresignedURL: string }> => {
    const query = presignQuery(await secret.get(), u.uploadId, u.userId, Date.now(), seconds);
    return {
      presignedURL: `${base(req)}/api/v1/uploads/${u.uploadId}/chunks/{chunkOrder}?${query}`,
      filePresignedURL: `${base(req)}/api/v1/uploads/${u.uploadId}/file?${query}`,
    };
  };

  const sessionJson = async (u: UploadSession, tx: { query: Tx['query'] }) => {
    const chunks = await chunkInfos(tx, u.pk);
    return {
      uploadId: u.uploadId, fileName: u.fileName, contentType: u.contentType, fileSize: u.fileSize, chunkSize: u.chunkSize, totalChunks: u.totalChunks,
      sha256: u.sha256, uploadLocation: u.uploadLocation, status: status(u), expiresAt: u.expiresAt.toISOString(),
      receivedChunks: chunks, receivedSize: chunks.reduce((n, c) => n + c.receivedSize, 0),
      ...(u.imageId !== null ? { imageId: u.imageId } : {}),
    };
  };

  app.post('/api/v1/uploads', async (req, reply) => {
    const r = parseSessionRequest(req.body);
    const u = await s.db.tx((tx) => createSession(tx, req.auth, r, Date.now()));
    const { presignedURL } = await presigned(u, req, Math.min(r.expiresInSeconds, MAX_EXPIRES_SECONDS));
    return reply.code(201).send({ uploadId: u.uploadId, chunkSize: u.chunkSize, expiresAt: u.expiresAt.toISOString(), presignedURL });
  });

  app.get('/api/v1/uploads', async (req) => {
    const list = await pendingSessions(s.db, req.auth);
    return { uploads: await Promise.all(list.map((u) => sessionJson(u, s.db))) };
  });

  app.get<{ Params: Params }>('/api/v1/uploads/:uploadId', { config: { queryParameters: ['expiresInSeconds', 'locale'] } }, async (req) => {
    const u = await requireSession(s.db, req.params.uploadId, req.auth.userId);
    const body: Record<string, unknown> = await sessionJson(u, s.db);
    const raw = (req.query as Record<string, unknown>).expiresInSeconds;
    if (raw !== undefined) {
      if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw)) throw badRequest('Request Error', 'expiresInSeconds must be an integer');
      const seconds = Math.min(Number(raw), MAX_EXPIRES_SECONDS, Math.floor((u.expiresAt.getTime() - Date.now()) / 1000));
      if (Number(raw) > 0 && seconds > 0) Object.assign(body, await presigned(u, req, seconds));
    }
    return body;
  });

  app.delete<{ Params: Params }>('/api/v1/uploads/:uploadId', async (req) => {
    await s.db.tx(async (tx) => deleteSession(tx, (await requireSession(tx, req.params.uploadId, req.auth.userId, true)).pk));
    return { message: `Upload ${req.params.uploadId} deleted` };
  });

  app.get<{ Params: Params }>('/api/v1/uploads/:uploadId/file', { onRequest: checkPresigned, config: { presignable: true, queryParameters: ['asJson', 'locale', ...PRESIGNED_PARAMS] } }, async (req, reply) => {
    const u = await requireSession(s.db, req.params.uploadId, callerOf(req));
    if (u.status !== 'C') throw conflict('Request Error', 'The upload is not complete');
    if ((req.query as Record<string, unknown>).asJson !== undefined) {
      return reply.type('application/json').send(base64JsonStream({ fileName: u.fileName, contentType: u.contentType }, 'data', chunkBytes(s.db, u)));
    }
    reply.type(u.contentType).header('Content-Length', String(u.fileSize));
    reply.header('Content-Disposition', `attachment; filename="${u.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
    return reply.send(pieceStream(chunkBytes(s.db, u)));
  });

  await app.register(async (scope) => {
    // Chunks are raw bytes whatever Content-Type the client gives them (some send the file's own
    // type, or none); this parser serves this route only.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_CHUNK_SIZE }, (_req, body, done) => done(null, body));
    scope.put<{ Params: Params }>(
      '/api/v1/uploads/:uploadId/chunks/:chunkOrder',
      { bodyLimit: MAX_CHUNK_SIZE, onRequest: checkPresigned, config: { presignable: true, queryParameters: ['locale', ...PRESIGNED_PARAMS] } },
      async (req) => {
        try {
          return await putChunk(s, req, callerOf(req));
        } finally {
          if (Buffer.isBuffer(req.body)) noteSpentBytes(2 * req.body.length); // the body and the socket's pieces it came in
          req.body = null;
        }
      },
    );
  });

  app.post<{ Params: Params }>('/api/v1/uploads/:uploadId/copy', async (req, reply) => {
    const result = await s.db.tx((tx) => copyUpload(s, req, tx));
    return reply.code(202).send(result);
  });

  // The upload cleaner server of the instance.
  const cleaner = new PeriodicTask({
    key: 'upload-cleaner',
    name: 'Upload cleaner',
    description: 'purges expired upload sessions and their chunks',
    intervalMs: PURGE_INTERVAL_MS,
    pass: async () => {
      const n = await purgeExpired(s.db);
      if (n) s.log.info({ purged: n }, 'expired upload sessions purged');
      return n ? `purged ${n} expired upload sessions` : '';
    },
  });
  s.servers?.add(cleaner);
  await cleaner.start();
  app.addHook('onClose', async () => cleaner.stop());
}

async function putChunk(s: Services, req: FastifyRequest<{ Params: Params }>, userId: number) {
  const n = /^\d{1,6}$/.test(req.params.chunkOrder) ? Number(req.params.chunkOrder) : NaN;
  const data = req.body;
  if (!Buffer.isBuffer(data) || data.length === 0) throw badRequest('Request Error', 'The chunk has no bytes: send them as the request body');
  const sha = parseChunkSha256(req.headers['x-content-sha256']);
  const total = parseTotalChunks(req.headers['x-total-chunks']);
  const actual = createHash('sha256').update(data).digest('hex');
  return s.db.tx(async (tx) => {
    const u = await requireSession(tx, req.params.uploadId, userId, true);
    if (total !== u.totalChunks) throw badRequest('Request Error', `X-Total-Chunks must be ${u.totalChunks}`);
    if (!Number.isInteger(n) || n < FIRST_CHUNK || n > u.totalChunks) throw badRequest('Request Error', `chunkOrder must be between ${FIRST_CHUNK} and ${u.totalChunks}`);
    if (sha !== null && actual !== sha) throw badRequest('Request Error', `The SHA-256 of chunk ${n} does not match X-Content-SHA256`);
    const want = chunkLength(u.fileSize, u.chunkSize, n);
    if (data.length !== want) throw badRequest('Request Error', `Chunk ${n} must hold ${want} bytes, not ${data.length}`);
    const answer = { uploadId: u.uploadId, chunkOrder: n, receivedSize: data.length };
    if (u.status === 'C') {
      await storeChunk(tx, u, n, data, actual); // refuses other bytes for a chunk already kept
      return { ...answer, message: 'The upload is already complete', isLastChunk: false };
    }
    await storeChunk(tx, u, n, data, actual);
    const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM rest_uploadchunk WHERE rest_upload_id = $1', [u.pk]);
    if (Number(rows[0]!.n) < u.totalChunks) return { ...answer, message: `Chunk ${n} received`, isLastChunk: false };
    if ((await fileSha256(tx, u)) !== u.sha256) throw badRequest('Request Error', 'The SHA-256 of the whole file does not match the sha256 of the upload session');
    await markCompleted(tx, u.pk);
    return { ...answer, message: 'Upload complete', isLastChunk: true };
  });
}

async function copyUpload(s: Services, req: FastifyRequest<{ Params: Params }>, tx: Tx) {
  const auth = req.auth;
  const b = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
  const u = await requireSession(tx, req.params.uploadId, auth.userId, true);
  if (u.status !== 'C') throw conflict('Request Error', 'The upload is not complete');
  const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
  const location = (text(b.copyLocation).toUpperCase() || u.uploadLocation) as UploadLocation;
  if (!LOCATIONS.includes(location)) throw badRequest('Request Error', `copyLocation must be one of ${LOCATIONS.join(', ')}`);
  const tableName = text(b.tableName);
  const recordId = text(b.recordId);
  if ((tableName === '') !== (recordId === '')) throw badRequest('Request Error', 'tableName and recordId go together');
  const target = tableName ? { table: tableFromPath(s, tableName), idText: recordId } : null;
  const uuOf = async (t: string, id: number): Promise<string | null> =>
    (await tx.query<{ uu: string | null }>(`SELECT ${t}_uu AS uu FROM ${t} WHERE ${t}_id = $1`, [id])).rows[0]?.uu ?? null;

  if (location === 'ATTACHMENT') {
    if (!target) throw badRequest('Request Error', 'tableName and recordId are mandatory to copy to an attachment');
    const t = await lockAttachmentTarget(s, auth, tx, target.table, target.idText);
    await copyToAttachment(tx, auth, t, u);
    return { uploadId: u.uploadId, copyLocation: location, tableName: t.table.name, id: t.recordId, uuid: t.recordUu, fileName: u.fileName };
  }

  if (location === 'ARCHIVE') {
    const record = target ? await readableRecord(tx, auth, target.table, target.idText) : null;
    const id = await writeArchive(tx, auth, {
      name: u.fileName, contentType: u.contentType, data: Buffer.alloc(0), isReport: false, processId: null, tableId: target?.table.id ?? 0, recordId: record?.id ?? 0,
    });
    await withAssembledFile(tx, u, {}, (oid) => tx.query('UPDATE ad_archive SET binarydata = lo_get($1::oid) WHERE ad_archive_id = $2', [oid, id]));
    return { uploadId: u.uploadId, copyLocation: location, tableName: 'AD_Archive', id, uuid: await uuOf('ad_archive', id) };
  }

  const imageTable = tableFromPath(s, 'ad_image');
  assertWritableRow(auth, imageTable, auth.clientId, auth.orgId, 'create');
  const id = await insertRow(tx, 'AD_Image', { name: u.fileName.slice(0, 60), binarydata: null }, { clientId: auth.clientId, orgId: auth.orgId, userId: auth.userId });
  await withAssembledFile(tx, u, {}, (oid) => tx.query('UPDATE ad_image SET binarydata = lo_get($1::oid) WHERE ad_image_id = $2', [oid, id]));
  await tx.query('UPDATE rest_upload SET ad_image_id = $1 WHERE rest_upload_id = $2', [id, u.pk]);
  return { uploadId: u.uploadId, copyLocation: location, tableName: 'AD_Image', id, uuid: await uuOf('ad_image', id) };
}
