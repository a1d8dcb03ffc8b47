import { createHmac, timingSafeEqual } from 'node:crypto';
import { contentTypeOfName } from '../attachments/content-type.js';
import { badRequest } from '../errors.js';

/** Chunks are numbered from 1 (as the upstream collection sends them) up to the total. */
export const FIRST_CHUNK = 1;
/** Largest chunk: one request body; a chunk is held in memory while it is verified and stored. */
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
export const MAX_FILE_SIZE = 2 * 1024 * 1024 * 1024;
export const MAX_CHUNKS = 10_000;
export const DEFAULT_EXPIRES_SECONDS = 24 * 3600;
export const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;
export const LOCATIONS = ['ARCHIVE', 'ATTACHMENT', 'IMAGE'] as const;
export type UploadLocation = (typeof LOCATIONS)[number];

export interface SessionRequest {
  fileName: string;
  contentType: string;
  fileSize: number;
  chunkSize: number;
  totalChunks: number;
  /** The whole file's hash, checked at completion; optional, as in the original. */
  sha256: string | null;
  uploadLocation: UploadLocation;
  expiresInSeconds: number;
}

const int = (v: unknown, name: string, min: number, max: number): number => {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw badRequest('Request Error', `${name} must be an integer`);
  if (n < min || n > max) throw badRequest('Request Error', `${name} must be between ${min} and ${max}`);
  return n;
};

export const isSha256 = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-fA-F]{64}$/.test(v);

/**
 * The chunk hash of an X-Content-SHA256 header as lowercase hex, or null when the header is absent
 * (the original then skips the chunk check; the whole-file hash still guards the upload). Taken as
 * hex in either case or as base64 / base64url of the 32-byte digest, as clients write it either way.
 */
export function parseChunkSha256(header: unknown): string | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  const text = typeof v === 'string' ? v.trim() : '';
  if (/^[0-9a-fA-F]{64}$/.test(text)) return text.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const digest = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (digest.length === 32) return digest.toString('hex');
  }
  throw badRequest('Request Error', 'X-Content-SHA256 must be the SHA-256 of the chunk in hexadecimal (64 digits) or base64');
}

/** The X-Total-Chunks header as a number (surrounding blanks allowed), or null when it is not one. */
export function parseTotalChunks(header: unknown): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  return typeof v === 'string' && /^\s*\d{1,6}\s*$/.test(v) ? Number(v) : null;
}

/** Checks an upload session request and works out its number of chunks. */
export function parseSessionRequest(body: unknown): SessionRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request Error', 'The body must be a JSON object');
  const b = body as Record<string, unknown>;
  const fileName = typeof b.fileName === 'string' ? b.fileName.trim() : '';
  if (!fileName) throw badRequest('Request Error', 'fileName property is mandatory');
  if (fileName.length > 255 || /[/\\\u0000-\u001f]/.test(fileName)) throw badRequest('Request Error', `Invalid file name: ${fileName}`);
  // Without a type the file name tells it, as the original does when it serves the file.
  const contentType = absent(b.contentType) ? contentTypeOfName(fileName) : b.contentType;
  if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(contentType)) throw badRequest('Request Error', 'contentType must be a MIME type');
  const fileSize = int(b.fileSize, 'fileSize', 1, MAX_FILE_SIZE);
  const chunkSize = int(b.chunkSize, 'chunkSize', 1, MAX_CHUNK_SIZE);
  const totalChunks = Math.ceil(fileSize / chunkSize);
  if (totalChunks > MAX_CHUNKS) throw badRequest('Request Error', `A file may have at most ${MAX_CHUNKS} chunks: choose a larger chunkSize`);
  if (!absent(b.sha256) && !isSha256(b.sha256)) throw badRequest('Request Error', 'sha256 must be 64 hexadecimal digits');
  const sha256 = isSha256(b.sha256) ? b.sha256.toLowerCase() : null;
  // ARCHIVE when none is given, as the original.
  const location = absent(b.uploadLocation) ? 'ARCHIVE' : typeof b.uploadLocation === 'string' ? b.uploadLocation.trim().toUpperCase() : '';
  if (!(LOCATIONS as readonly string[]).includes(location)) throw badRequest('Request Error', `uploadLocation must be one of ${LOCATIONS.join(', ')}`);
  const expiresInSeconds = absent(b.expiresInSeconds) ? DEFAULT_EXPIRES_SECONDS : int(b.expiresInSeconds, 'expiresInSeconds', 1, MAX_EXPIRES_SECONDS);
  return { fileName, contentType, fileSize, chunkSize, totalChunks, sha256, uploadLocation: location as UploadLocation, expiresInSeconds };
}

/** A property a client leaves out, sends as null or as an empty string. */
const absent = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The expected size of chunk `n` (1-based) of a file. */
export function chunkLength(fileSize: number, chunkSize: number, n: number): number {
  const total = Math.ceil(fileSize / chunkSize);
  return n === total ? fileSize - chunkSize * (total - 1) : chunkSize;
}

export const PRESIGN = { signature: 'X-ID-SIGNATURE', credential: 'X-ID-CREDENTIAL', date: 'X-ID-DATE', expires: 'X-ID-EXPIRES' } as const;

/** "20260101T120000Z": the signing date as the presigned query carries it. */
export const signingDate = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]/g, '').replace('.000', '');

function parseSigningDate(s: string): number | null {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(s);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : null;
}

/**
 * What a presigned query lets its holder do, as the original scopes its own: PUT is the chunks of
 * one upload (the URL of the session's creation), GET its status and its file (the URL of the
 * status answer).
 */
export type PresignedMethod = 'GET' | 'PUT';

const mac = (secret: string, method: PresignedMethod, uploadId: string, credential: string, date: string, expires: string): string =>
  createHmac('sha256', secret).update(`${method}\n${uploadId}\n${credential}\n${date}\n${expires}`).digest('hex');

/** The query string that lets its holder make `method` requests on one upload until it expires. */
export function presignQuery(secret: string, method: PresignedMethod, uploadId: string, userId: number, nowMs: number, expiresInSeconds: number): string {
  const date = signingDate(nowMs);
  const expires = String(expiresInSeconds);
  const credential = String(userId);
  const p = new URLSearchParams({ [PRESIGN.credential]: credential, [PRESIGN.date]: date, [PRESIGN.expires]: expires, [PRESIGN.signature]: mac(secret, method, uploadId, credential, date, expires) });
  return p.toString();
}

export const hasPresignedQuery = (q: Record<string, unknown>): boolean => typeof q[PRESIGN.signature] === 'string';

/** The user a presigned query stands for, or a reason it is refused (bad signature, other method, expired). */
export function verifyPresigned(secret: string, method: PresignedMethod, uploadId: string, q: Record<string, unknown>, nowMs: number): { userId: number } | { refused: string } {
  const get = (k: string): string => (typeof q[k] === 'string' ? (q[k] as string) : '');
  const [sig, credential, date, expires] = [get(PRESIGN.signature), get(PRESIGN.credential), get(PRESIGN.date), get(PRESIGN.expires)];
  const start = parseSigningDate(date);
  if (!/^\d{1,10}$/.test(credential) || start === null || !/^\d{1,9}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return { refused: 'The presigned URL is malformed' };
  const want = Buffer.from(mac(secret, method, uploadId, credential, date, expires), 'hex');
  if (!timingSafeEqual(want, Buffer.from(sig, 'hex'))) return { refused: 'The signature of the presigned URL does not match' };
  if (nowMs > start + Number(expires) * 1000) return { refused: 'The presigned URL has expired' };
  return { userId: Number(credential) };
}
