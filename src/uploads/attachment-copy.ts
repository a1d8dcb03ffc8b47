import { createAttachment } from '../attachments/attachment-store.js';
import type { AttachmentTarget } from '../attachments/attachment-routes.js';
import { findAttachment, readDirectory } from '../attachments/stored-zip.js';
import { appendStored, MAX_ZIP_BYTES } from '../attachments/zip-layout.js';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { ApiError } from '../errors.js';
import { fileCrc32, type UploadSession } from './upload-store.js';
import { withAssembledFile } from './assembled-file.js';
import { zipWithout } from './zip-entry-removal.js';

/**
 * Adds a completed upload to a record's attachment as a stored entry appended to its zip; an
 * entry of the same name is replaced, as the original's attachment replaces it. The zip is edited
 * by byte ranges in PostgreSQL: the service reads only the zip's directory and the chunks one at
 * a time (for the entry's CRC-32), never the file or the other entries.
 */
export async function copyToAttachment(tx: Tx, auth: AuthContext, t: AttachmentTarget, u: UploadSession): Promise<void> {
  const existing = await findAttachment(tx, auth, t.table.id, t.recordId, true);
  const row = existing ?? { id: await createAttachment(tx, auth, { tableId: t.table.id, recordId: t.recordId, recordUu: t.recordUu, orgId: t.orgId }), size: 0 };
  const dir = await readDirectory(tx, row);
  const rest = zipWithout(dir, (name) => name === u.fileName);
  if (rest.cdOffset + u.fileSize + rest.centralDirectory.length + 1024 > MAX_ZIP_BYTES) throw new ApiError(413, 'Payload Too Large', 'An attachment may hold at most 4 GiB');
  const { head, tail } = appendStored(
    { cdOffset: rest.cdOffset, centralDirectory: rest.centralDirectory, count: rest.count },
    { name: u.fileName, size: u.fileSize, crc32: await fileCrc32(tx, u), modified: new Date() },
  );
  // The new value: the entries kept, the new entry's header, the chunks, the new directory.
  const params: unknown[] = [row.id, head];
  const kept = rest.kept.map((k) => {
    params.push(k.start + 1, k.end - k.start);
    return `substring(coalesce(a.binarydata, ''::bytea) from $${params.length - 1} for $${params.length})`;
  });
  const before = { sql: `SELECT ${[...kept, '$2::bytea'].join(' || ')} FROM ad_attachment a WHERE a.ad_attachment_id = $1`, params };
  await withAssembledFile(tx, u, { before, after: tail }, (oid) =>
    tx.query('UPDATE ad_attachment SET binarydata = lo_get($1::oid), updated = now(), updatedby = $2 WHERE ad_attachment_id = $3', [oid, auth.userId, row.id]),
  );
}
