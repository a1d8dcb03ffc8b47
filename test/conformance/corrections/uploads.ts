import type { Correction } from '../apply-corrections.js';

const RECORDS = 'v1/resource/UploadResource.java';
const UPLOADS = 'v1/resource/impl/UploadResourceImpl.java';

export const uploadsCorrections: Correction[] = [
  {
    kind: 'schema',
    target: { component: 'UploadChunkResponse', path: ['properties', 'message'] },
    schema: { type: 'string' },
    reason: "a chunk answer's message is text",
    source: `${RECORDS}#L99 (UploadChunkResponse(..., String message, ...))`,
  },
  {
    kind: 'schema',
    target: { component: 'UploadStatusResponse', path: ['properties', 'message'] },
    schema: { type: 'string' },
    reason: "a status answer's message is text",
    source: `${RECORDS}#L145-L146 (UploadStatusResponse(..., String message, String presignedURL))`,
  },
  {
    kind: 'optional',
    target: { component: 'UploadStatusResponse' },
    properties: ['presignedURL'],
    reason: 'the status carries a presigned address only when expiresInSeconds asks for one (a null member is not written)',
    source: `${UPLOADS}#L338-L342 (presignedURL stays null without expiresInSeconds)`,
  },
  {
    kind: 'schema',
    target: { component: 'CopyUploadedFileResponse', path: ['properties', 'recordId'] },
    schema: { type: 'integer' },
    reason: "the copy answer's recordId is the record's numeric id",
    source: `${RECORDS}#L214 (CopyUploadedFileResponse(String uploadId, String tableName, int recordId, ...))`,
  },
  {
    kind: 'schema',
    target: { operation: 'GET /uploads', status: '200' },
    schema: { type: 'object', properties: { uploads: { type: 'array', items: { $ref: '#/$defs/UploadStatusResponse' } } } },
    reason: 'the sessions come in an object under "uploads", not as a bare array',
    source: `${UPLOADS}#L594-L596 (json.add("uploads", array))`,
  },
];
