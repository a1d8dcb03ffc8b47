import type { ChunkInfo, UploadSession } from './upload-store.js';

/**
 * The statuses of an upload session, named as the original names them. INITIATED and UPLOADING
 * follow from the chunks received, FAILED from the stored expiry (the cleaner stores it, and a
 * pending session past its expiry shows it at once), CANCELED from a deactivated session.
 * PROCESSING is the original's state while a background task assembles the file; here the last
 * chunk's request completes the upload itself, so no request sees a session in it.
 */
export const UPLOAD_STATUSES = ['INITIATED', 'UPLOADING', 'PROCESSING', 'COMPLETED', 'CANCELED', 'FAILED'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** Codes of REST_Upload.Status (list 200504). */
export const STORED = { pending: 'P', completed: 'C', expired: 'E' } as const;

export const isExpired = (u: UploadSession, nowMs: number): boolean => u.status === STORED.pending && u.expiresAt.getTime() <= nowMs;

/** The status a session shows, given how many chunks it holds. */
export function statusOf(u: UploadSession, chunkCount: number, nowMs: number): UploadStatus {
  if (!u.active) return 'CANCELED';
  if (u.status === STORED.completed) return 'COMPLETED';
  if (u.status === STORED.expired || isExpired(u, nowMs)) return 'FAILED';
  return chunkCount === 0 ? 'INITIATED' : 'UPLOADING';
}

/** The status answer's message: the original's sentence for each status. */
export function statusMessage(u: UploadSession, status: UploadStatus, chunkCount: number): string {
  switch (status) {
    case 'INITIATED':
      return 'File upload initiated, awaiting chunks.';
    case 'UPLOADING':
      return `File upload in progress. ${chunkCount} chunks received.`;
    case 'COMPLETED':
      return 'File upload completed and processed.';
    case 'FAILED':
      // The original says so once, when it finds the session expired, and marks it failed.
      return u.status === STORED.expired ? 'File processing failed or upload expired before completion.' : 'Upload session has expired.';
    default:
      return `Status for upload ID ${u.uploadId}`;
  }
}

export interface StatusAnswer {
  uploadId: string;
  fileName: string;
  fileSize: number;
  imageId: number;
  chunkSize: number;
  status: UploadStatus;
  uploadedChunks: { chunkOrder: number; receivedSize: number }[];
  totalReceivedSize: number;
  message: string;
  [extra: string]: unknown;
}

/**
 * The original's UploadStatusResponse, with the session's other request fields after it. A
 * completed or canceled session lists no chunks, as the original's, which deletes them once it
 * has assembled the file (here they stay, as the file's storage) or canceled the upload.
 */
export function statusAnswer(u: UploadSession, chunks: ChunkInfo[], nowMs: number): StatusAnswer {
  const status = statusOf(u, chunks.length, nowMs);
  const listed = status === 'COMPLETED' || status === 'CANCELED' ? [] : chunks.map((c) => ({ chunkOrder: c.chunkOrder, receivedSize: c.receivedSize }));
  return {
    uploadId: u.uploadId,
    fileName: u.fileName,
    fileSize: u.fileSize,
    imageId: u.imageId ?? 0,
    chunkSize: u.chunkSize,
    status,
    uploadedChunks: listed,
    totalReceivedSize: listed.reduce((n, c) => n + c.receivedSize, 0),
    message: statusMessage(u, status, chunks.length),
    contentType: u.contentType,
    uploadLocation: u.uploadLocation,
    totalChunks: u.totalChunks,
    expiresAt: u.expiresAt.toISOString(),
    ...(u.sha256 ? { sha256: u.sha256 } : {}),
  };
}
