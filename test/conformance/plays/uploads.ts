import { createHash } from 'node:crypto';
import { ex, type Play } from '../play.js';

const UPLOAD_CHUNK = 64 * 1024;
const UPLOAD_BYTES = Buffer.concat([Buffer.alloc(UPLOAD_CHUNK, 7), Buffer.from('the last chunk of the conformance upload\n')]);
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export const uploads: Play[] = [
  {
    op: 'POST /uploads',
    body: { fileName: 'conformance.bin', contentType: 'application/octet-stream', fileSize: UPLOAD_BYTES.length, chunkSize: UPLOAD_CHUNK, sha256: sha256(UPLOAD_BYTES), uploadLocation: 'ATTACHMENT', expiresInSeconds: 3600 },
    expect: 201,
    then: (c, a) => (c.uploadId = a.body.uploadId),
  },
  { op: 'GET /uploads', expect: 200 },
  {
    op: 'PUT /uploads/{uploadId}/chunks/{chunkOrder}',
    path: { uploadId: (c) => c.uploadId, chunkOrder: 1 },
    headers: { 'X-Total-Chunks': '2', 'X-Content-SHA256': sha256(UPLOAD_BYTES.subarray(0, UPLOAD_CHUNK)) },
    raw: () => ({ type: 'application/octet-stream', bytes: UPLOAD_BYTES.subarray(0, UPLOAD_CHUNK) }),
    expect: 200,
  },
  { op: 'GET /uploads/{uploadId}', path: { uploadId: (c) => c.uploadId }, query: { expiresInSeconds: 600 }, expect: 200 },
  {
    op: 'PUT /uploads/{uploadId}/chunks/{chunkOrder}',
    path: { uploadId: (c) => c.uploadId, chunkOrder: 2 },
    headers: { 'X-Total-Chunks': '2', 'X-Content-SHA256': sha256(UPLOAD_BYTES.subarray(UPLOAD_CHUNK)) },
    raw: () => ({ type: 'application/octet-stream', bytes: UPLOAD_BYTES.subarray(UPLOAD_CHUNK) }),
    expect: 200,
  },
  { op: 'GET /uploads/{uploadId}', title: 'completed', path: { uploadId: (c) => c.uploadId }, expect: 200 },
  { op: 'GET /uploads/{uploadId}/file', path: { uploadId: (c) => c.uploadId }, expect: 200 },
  { op: 'GET /uploads/{uploadId}/file', title: 'as JSON', path: { uploadId: (c) => c.uploadId }, query: { json: 'true' }, expect: 200 },
  { op: 'POST /uploads/{uploadId}/copy', path: { uploadId: (c) => c.uploadId }, body: (c: any) => ({ copyLocation: 'ATTACHMENT', tableName: 'C_BPartner', recordId: c.partnerId }), expect: 200 },
  { op: 'DELETE /uploads/{uploadId}', path: { uploadId: (c) => c.uploadId }, expect: 200 },
  { op: 'GET /uploads/{uploadId}', title: 'an unknown upload', path: { uploadId: '00000000-0000-0000-0000-000000000000' }, expect: 404 },
];
