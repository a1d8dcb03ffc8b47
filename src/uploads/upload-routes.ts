import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertWritableRow } from '../access/access.js';
import { base64JsonStream } from '../http/base64-json-stream.js';
import { badRequest, unauthorized } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { MAX_CHUNK_SIZE, MAX_EXPIRES_SECONDS, parseSessionRequest, presignQuery, PRESIGN, verifyPresigned, type PresignedMethod } from './upload-plan.js';
import { chunkBytes, chunkInfos, cancelSession, cleanExpired, createSession, pendingSessions, requireSession, type UploadSession } from './upload-store.js';
import { statusAnswer } from './upload-status.js';
import { putChunk } from './upload-chunk.js';
import { assertCompleted, copyUpload } from './upload-copy.js';
import { UploadSigningSecret } from './signing-secret.js';
import { PeriodicTask } from '../servers/periodic-task.js';
import { pieceStream } from '../http/byte-stream.js';
import { noteSpentBytes } from '../db/spent-bytes.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';
import { FILE, OBJECT, documented } from '../openapi/route-schema.js';

type Params = { uploadId: string; chunkOrder: string };
const PRESIGNED_PARAMS = Object.values(PRESIGN);
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * /api/v1/uploads: chunked uploads kept in PostgreSQL, then copied to an archive, image or
 * attachment. The answers are the original's (UploadResource): their properties, statuses and
 * messages; presigned URLs are relative to the API's base (`http://host/api/` + URL), as the
 * original gives them.
 */
export async function uploadRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const secret = new UploadSigningSecret(s.db);

  /** Users of presigned requests, known before their body is read. */
  const presignedUsers = new WeakMap<FastifyRequest, number>();
  const checkPresigned = (method: PresignedMethod) => async (req: FastifyRequest): Promise<void> => {
    if (req.auth) return;
    const id = String((req.params as Params).uploadId).toLowerCase();
    const v = verifyPresigned(await secret.get(), method, id, req.query as Record<string, unknown>, Date.now());
    if ('refused' in v) throw unauthorized('Unauthorized', v.refused);
    presignedUsers.set(req, v.userId);
  };
  /** The user a request acts for: its bearer token, or a presigned query for this upload. */
  const callerOf = (req: FastifyRequest): number => req.auth?.userId ?? presignedUsers.get(req)!;
  const signed = async (method: PresignedMethod, u: UploadSession, seconds: number): Promise<string> =>
    presignQuery(await secret.get(), method, u.uploadId, u.userId, Date.now(), seconds);

  app.post('/api/v1/uploads', { schema: { summary: 'Start a chunked upload', status: 201, body: documented(Open({ fileName: Type.String(), contentType: Type.Optional(Type.String()), fileSize: Type.Integer(), chunkSize: Type.Optional(Type.Integer()), sha256: Type.Optional(Type.String()) })), answer: Open({ uploadId: Type.String(), chunkSize: Type.Integer(), expiresAt: Type.String({ format: 'date-time' }), presignedURL: Type.String() }), example: { fileName: 'scan.pdf', contentType: 'application/pdf', fileSize: 5242880 } } }, async (req, reply) => {
    const r = parseSessionRequest(req.body);
    // The image is made when the last chunk arrives, possibly through a presigned URL: the role that may make it is checked now.
    if (r.uploadLocation === 'IMAGE') assertWritableRow(req.auth, tableFromPath(s, 'ad_image'), req.auth.clientId, req.auth.orgId, 'create');
    const u = await s.db.tx((tx) => createSession(tx, req.auth, r, Date.now()));
    const query = await signed('PUT', u, Math.min(r.expiresInSeconds, MAX_EXPIRES_SECONDS));
    return reply.code(201).send({ uploadId: u.uploadId, chunkSize: u.chunkSize, expiresAt: u.expiresAt.toISOString(), presignedURL: `v1/uploads/${u.uploadId}/chunks/{chunkOrder}?${query}` });
  });

  app.get('/api/v1/uploads', { schema: { summary: 'Uploads of the user', answer: listOf('uploads', ref('Upload')), example: { uploads: [] } } }, async (req) => {
    const list = await pendingSessions(s.db, req.auth);
    const now = Date.now();
    return { uploads: await Promise.all(list.map(async (u) => statusAnswer(u, await chunkInfos(s.db, u.pk), now))) };
  });

  app.get<{ Params: Params }>(
    '/api/v1/uploads/:uploadId',
    { schema: { summary: 'State of an upload', answer: ref('Upload'), example: { uploadId: 'b1c2...', fileName: 'scan.pdf', status: 'IN_PROGRESS' } }, onRequest: checkPresigned('GET'), config: { presignable: true, queryParameters: ['expiresInSeconds', 'locale', ...PRESIGNED_PARAMS] } },
    async (req) => {
      const u = await requireSession(s.db, req.params.uploadId, callerOf(req));
      const body: Record<string, unknown> = statusAnswer(u, await chunkInfos(s.db, u.pk), Date.now());
      const raw = (req.query as Record<string, unknown>).expiresInSeconds;
      if (raw !== undefined) {
        if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw)) throw badRequest('Request Error', 'expiresInSeconds must be an integer');
        // A presigned request gets no new URL: its holder's access ends when its own URL expires.
        if (Number(raw) > 0 && req.auth) {
          // One query for both: the status and the file, as the original signs its URL for the upload's path.
          const query = await signed('GET', u, Math.min(Number(raw), MAX_EXPIRES_SECONDS));
          Object.assign(body, { presignedURL: `v1/uploads/${u.uploadId},v1/uploads/${u.uploadId}/file?${query}`, filePresignedURL: `v1/uploads/${u.uploadId}/file?${query}` });
        }
      }
      return body;
    },
  );

  app.delete<{ Params: Params }>('/api/v1/uploads/:uploadId', { schema: { summary: 'Cancel an upload', answer: ref('Message'), example: { message: 'Upload b1c2... canceled successfully.' } } }, async (req) => {
    await s.db.tx(async (tx) => {
      const u = await requireSession(tx, req.params.uploadId, req.auth.userId, true);
      if (!u.active) throw badRequest('Upload canceled', `Upload session ${u.uploadId} has been canceled`);
      await cancelSession(tx, u.pk);
    });
    return { message: `Upload ${req.params.uploadId} canceled successfully.` };
  });

  app.get<{ Params: Params }>(
    '/api/v1/uploads/:uploadId/file',
    { schema: { summary: 'The uploaded file (json=true: base64 in JSON)', binary: FILE, answer: Open({ fileName: Type.Optional(Type.String()), contentType: Type.Optional(Type.String()), data: Type.String({ contentEncoding: 'base64' }) }), example: { fileName: 'scan.pdf', contentType: 'application/pdf', data: 'JVBERi0...' } }, onRequest: checkPresigned('GET'), config: { presignable: true, queryParameters: ['json', 'asJson', 'locale', ...PRESIGNED_PARAMS] } },
    async (req, reply) => {
      const u = await requireSession(s.db, req.params.uploadId, callerOf(req));
      await assertCompleted(s.db, u);
      const q = req.query as Record<string, unknown>;
      // `json` is the original's parameter; `asJson` is taken too.
      if (q.json !== undefined || q.asJson !== undefined) {
        return reply.type('application/json').send(base64JsonStream({ fileName: u.fileName, contentType: u.contentType }, 'data', chunkBytes(s.db, u)));
      }
      reply.type(u.contentType).header('Content-Length', String(u.fileSize));
      reply.header('Content-Disposition', `attachment; filename="${u.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
      return reply.send(pieceStream(chunkBytes(s.db, u)));
    },
  );

  await app.register(async (scope) => {
    // Chunks are raw bytes whatever Content-Type the client gives them (some send the file's own
    // type, or none); this parser serves this route only.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_CHUNK_SIZE }, (_req, body, done) => done(null, body));
    scope.put<{ Params: Params }>(
      '/api/v1/uploads/:uploadId/chunks/:chunkOrder',
      { schema: { summary: 'Send one chunk of an upload', body: documented(Type.String({ format: 'binary' })), bodyType: 'application/octet-stream', answer: Open({ uploadId: Type.Optional(Type.String()), chunkOrder: Type.Optional(Type.Integer()) }), example: { uploadId: 'b1c2...', chunkOrder: 1, receivedSize: 1048576 } }, bodyLimit: MAX_CHUNK_SIZE, onRequest: checkPresigned('PUT'), config: { presignable: true, queryParameters: ['locale', ...PRESIGNED_PARAMS] } },
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

  // 200, as the original's copy answers (UploadResourceImpl.copyUploadedFile returns Response.ok).
  app.post<{ Params: Params }>('/api/v1/uploads/:uploadId/copy', { schema: { summary: 'Attach an uploaded file to a record or archive', body: documented(Open({ tableName: Type.Optional(Type.String()), recordId: Type.Optional(Type.Integer()) })), answer: OBJECT, example: { tableName: 'c_order', recordId: 102, copyLocation: 'ATTACHMENT' } } }, async (req) => s.db.tx((tx) => copyUpload(s, req, tx)));

  // The upload cleaner server of the instance.
  const cleaner = new PeriodicTask({
    key: 'upload-cleaner',
    name: 'Upload cleaner',
    description: 'marks expired upload sessions failed and removes ended ones',
    intervalMs: PURGE_INTERVAL_MS,
    pass: async () => {
      const { failed, removed } = await cleanExpired(s.db);
      if (failed || removed) s.log.info({ failed, removed }, 'upload sessions cleaned');
      return failed || removed ? `${failed} expired upload sessions failed, ${removed} ended ones removed` : '';
    },
  });
  s.servers?.add(cleaner);
  await cleaner.start();
  app.addHook('onClose', async () => cleaner.stop());
}
