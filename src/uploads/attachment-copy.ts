import { createAttachment } from '../attachments/attachment-store.js';
import type { AttachmentTarget } from '../attachments/attachment-routes.js';
import { fileEntries, findAttachment, readDirectory } from '../attachments/stored-zip.js';
import { appendStored, MAX_ZIP_BYTES } from '../attachments/zip-layout.js';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { ApiError, conflict } from '../errors.js';
import { fileCrc32, type UploadSession } from './upload-store.js';
import { withAssembledFile } from './assembled-file.js';

/**
 * Adds a completed upload to a record's attachment as a stored entry appended to its zip. The
 * zip is edited by byte ranges in PostgreSQL: the service reads only the zip's directory and the
 * chunks one at a time (for the entry's CRC-32), never the file or the other entries.
 */
export async function copyToAttachment(tx: Tx, auth: AuthContext, t: AttachmentTarget, u: UploadSession): Promise<void> {
  const existing = await findAttachment(tx, auth, t.table.id, t.recordId, true);
  const row = existing ?? { id: await createAttachment(tx, auth, { tableId: t.table.id, recordId: t.recordId, recordUu: t.recordUu, orgId: t.orgId }), size: 0 };
  const dir = await readDirectory(tx, row);
  if (fileEntries(dir).some((e) => e.name === u.fileName)) throw conflict('Request Error', 'Duplicate file name');
  if (dir.cdOffset + u.fileSize + dir.centralDirectory.length + 1024 > MAX_ZIP_BYTES) throw new ApiError(413, 'Payload Too Large', 'An attachment may hold at most 4 GiB');
  const { head, tail } = appendStored(
    { cdOffset: dir.cdOffset, centralDirectory: dir.centralDirectory, count: dir.entries.length },
    { name: u.fileName, size: u.fileSize, crc32: await fileCrc32(tx, u), modified: new Date() },
  );
  // The new value: the old entries, the new entry's header, the chunks, the new directory.
  const before = {
    sql: 'SELECT substring(coalesce(a.binarydata, \'\'::bytea) from 1 for $1) || $2::bytea FROM ad_attachment a WHERE a.ad_attachment_id = $3',
    params: [dir.cdOffset, head, row.id],
  };
  await withAssembledFile(tx, u, { before, after: tail }, (oid) =>
    tx.query('UPDATE ad_attachment SET binarydata = lo_get($1::oid), updated = now(), updatedby = $2 WHERE ad_attachment_id = $3', [oid, auth.userId, row.id]),
  );
}
