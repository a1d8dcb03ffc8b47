import { unzipSync, zipSync, type Zippable } from 'fflate';
import { insertRow } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { unreadableAttachment } from './stored-zip.js';

/**
 * The attachment of a record as the original keeps it: one AD_Attachment row per record whose
 * BinaryData is a zip of the entries. Bytes live in PostgreSQL, so every instance sees them.
 */
export interface StoredAttachment {
  id: number;
  entries: Map<string, Uint8Array>;
}

/** The attachment of one record, or null when it has none (FOR UPDATE when `lock`). */
export async function loadAttachment(q: Queryable, auth: AuthContext, tableId: number, recordId: number, lock = false): Promise<StoredAttachment | null> {
  const { rows } = await q.query<{ ad_attachment_id: string | number; binarydata: Buffer | null }>(
    `SELECT ad_attachment_id, binarydata FROM ad_attachment
      WHERE ad_table_id = $1 AND record_id = $2 AND ad_client_id IN (0, $3) AND isactive = 'Y'
      ORDER BY ad_attachment_id LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [tableId, recordId, auth.clientId],
  );
  const row = rows[0];
  if (!row) return null;
  const id = Number(row.ad_attachment_id);
  try {
    return { id, entries: readEntries(row.binarydata) };
  } catch (err) {
    throw unreadableAttachment(id, err);
  }
}

/** The entries of a stored zip in their stored order; an empty or absent zip has none. */
export function readEntries(data: Buffer | null): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  if (!data || data.length === 0) return entries;
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(data.buffer, data.byteOffset, data.length)))) {
    if (!name.endsWith('/')) entries.set(name, bytes);
  }
  return entries;
}

export function zipEntries(entries: Map<string, Uint8Array>): Buffer {
  const files: Zippable = {};
  for (const [name, bytes] of entries) files[name] = bytes;
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** A new, empty attachment of a record (its zip is appended to afterwards); returns its id. */
export async function createAttachment(q: Queryable, auth: AuthContext, target: { tableId: number; recordId: number; recordUu: string | null; orgId: number }): Promise<number> {
  return insertRow(
    q,
    'AD_Attachment',
    { ad_table_id: target.tableId, record_id: target.recordId, record_uu: target.recordUu, title: 'zip', binarydata: Buffer.alloc(0) },
    { clientId: auth.clientId, orgId: target.orgId, userId: auth.userId },
  );
}

/** Writes the entries back: updates the row, creates it for a first entry, deletes it when empty. */
export async function saveAttachment(
  q: Queryable,
  auth: AuthContext,
  target: { tableId: number; recordId: number; recordUu: string | null; orgId: number },
  existing: StoredAttachment | null,
  entries: Map<string, Uint8Array>,
): Promise<void> {
  if (entries.size === 0) {
    if (existing) await q.query('DELETE FROM ad_attachment WHERE ad_attachment_id = $1', [existing.id]);
    return;
  }
  const data = zipEntries(entries);
  if (existing) {
    await q.query('UPDATE ad_attachment SET binarydata = $1, updated = now(), updatedby = $2 WHERE ad_attachment_id = $3', [data, auth.userId, existing.id]);
    return;
  }
  await insertRow(
    q,
    'AD_Attachment',
    { ad_table_id: target.tableId, record_id: target.recordId, record_uu: target.recordUu, title: 'zip', binarydata: data },
    { clientId: auth.clientId, orgId: target.orgId, userId: auth.userId },
  );
}
