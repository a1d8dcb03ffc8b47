import { pipeline, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { AuthContext } from '../auth/context.js';
import { byteaSlices } from '../db/bytea-slices.js';
import type { Queryable } from '../db/types.js';
import { ApiError } from '../errors.js';
import { dataOffset, findEnd, LOCAL_HEADER_SIZE, MAX_TAIL, readCentralDirectory, type ZipEntry } from './zip-layout.js';
import { pieceStream } from '../http/byte-stream.js';

/**
 * Reading a record's attachment zip where it lies (AD_Attachment.BinaryData) by byte ranges: the
 * directory from its end, one entry's data slice by slice. A large entry is never held whole.
 */
export interface AttachmentRow {
  id: number;
  size: number;
}

export interface StoredDirectory {
  cdOffset: number;
  centralDirectory: Buffer;
  entries: ZipEntry[];
}

const SLICE_SQL = 'SELECT substring(binarydata from $1 for $2) AS b FROM ad_attachment WHERE ad_attachment_id = $3';

/** The attachment row of one record and its zip's size, or null (FOR UPDATE when `lock`). */
export async function findAttachment(q: Queryable, auth: AuthContext, tableId: number, recordId: number, lock = false): Promise<AttachmentRow | null> {
  const { rows } = await q.query<{ ad_attachment_id: string | number; size: string | number | null }>(
    `SELECT ad_attachment_id, octet_length(binarydata) AS size FROM ad_attachment
      WHERE ad_table_id = $1 AND record_id = $2 AND ad_client_id IN (0, $3) AND isactive = 'Y'
      ORDER BY ad_attachment_id LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [tableId, recordId, auth.clientId],
  );
  return rows[0] ? { id: Number(rows[0].ad_attachment_id), size: Number(rows[0].size ?? 0) } : null;
}

async function range(q: Queryable, a: AttachmentRow, from: number, length: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of byteaSlices(q, SLICE_SQL, [a.id], from, length)) parts.push(b);
  return Buffer.concat(parts);
}

/**
 * A stored value that is not a zip Dictum can read (BinaryData written through /models, say) is the
 * record's state, not a fault of the service: 409 naming it, never a 500.
 */
export const unreadableAttachment = (id: number, err: unknown): ApiError =>
  new ApiError(409, 'Invalid attachment', `The stored attachment ${id} is not a readable zip file (${err instanceof Error ? err.message : String(err)}); replace or delete it`);

/** The entries of a stored zip from its central directory (an empty value has none). */
export async function readDirectory(q: Queryable, a: AttachmentRow): Promise<StoredDirectory> {
  if (a.size === 0) return { cdOffset: 0, centralDirectory: Buffer.alloc(0), entries: [] };
  const tailStart = Math.max(0, a.size - MAX_TAIL);
  const tail = await range(q, a, tailStart, a.size - tailStart);
  try {
    const end = findEnd(tail, a.size);
    const centralDirectory = await range(q, a, end.cdOffset, end.cdSize);
    return { cdOffset: end.cdOffset, centralDirectory, entries: readCentralDirectory(centralDirectory, end.count) };
  } catch (err) {
    throw unreadableAttachment(a.id, err);
  }
}

/** The files of a directory (folders left out), as the attachment lists them. */
export const fileEntries = (d: StoredDirectory): ZipEntry[] => d.entries.filter((e) => !e.name.endsWith('/'));

/** One entry's bytes as a stream: read slice by slice and, when deflated, inflated on the way. */
export async function entryStream(q: Queryable, a: AttachmentRow, entry: ZipEntry): Promise<Readable> {
  const header = await range(q, a, entry.localOffset, LOCAL_HEADER_SIZE);
  let start: number;
  try {
    start = dataOffset(entry, header);
  } catch (err) {
    throw unreadableAttachment(a.id, err);
  }
  const raw = pieceStream(byteaSlices(q, SLICE_SQL, [a.id], start, entry.compressedSize));
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw unreadableAttachment(a.id, `zip method ${entry.method} is not supported`);
  return pipeline(raw, createInflateRaw(), () => {}); // an error ends the response; the reply reports it
}

/** The whole stored zip, slice by slice. */
export function zipSlices(q: Queryable, a: AttachmentRow): AsyncGenerator<Buffer> {
  return byteaSlices(q, SLICE_SQL, [a.id], 0, a.size);
}
