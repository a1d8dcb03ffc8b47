import type { FastifyRequest } from 'fastify';
import { assertWritableRow } from '../access/access.js';
import { lockAttachmentTarget } from '../attachments/attachment-routes.js';
import { readableRecord } from '../archives/record-key.js';
import { writeArchive } from '../archives/archive-store.js';
import type { Queryable, Tx } from '../db/types.js';
import { badRequest } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { copyToAttachment } from './attachment-copy.js';
import { withAssembledFile } from './assembled-file.js';
import { LOCATIONS, type UploadLocation } from './upload-plan.js';
import { imageFromUpload } from './upload-image.js';
import { statusOf, STORED } from './upload-status.js';
import { chunkCount, requireSession, type UploadSession } from './upload-store.js';

type Params = { uploadId: string };

/** The original's answer to a copy (CopyUploadedFileResponse): where the file went. */
export interface CopyAnswer {
  uploadId: string;
  tableName: string;
  recordId: number;
  recordUU: string | null;
  copyLocation: UploadLocation;
  fileName: string;
  contentType: string;
  fileSize: number;
}

/** 400 unless the upload has completed, naming its status, as the original refuses the file of any other. */
export async function assertCompleted(q: Queryable, u: UploadSession): Promise<void> {
  if (u.active && u.status === STORED.completed) return;
  const status = statusOf(u, await chunkCount(q, u.pk), Date.now());
  throw badRequest('Upload not completed', `Upload ${u.uploadId} is not completed or has been canceled; its status is ${status}`);
}

/**
 * POST /uploads/{id}/copy: the completed file into an archive (of a record, or of none), a new
 * image, or an attachment of a record (an entry of the same name is replaced). The answer names
 * the record written: the archive, the image, or for an attachment the record it belongs to,
 * under the table name the request gave, as the original echoes it.
 */
export async function copyUpload(s: Services, req: FastifyRequest<{ Params: Params }>, tx: Tx): Promise<CopyAnswer> {
  const auth = req.auth;
  const b = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
  const u = await requireSession(tx, req.params.uploadId, auth.userId, true);
  await assertCompleted(tx, u);
  const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
  // Without one, the session's own location (the upstream collection's copy sends it empty).
  const location = (text(b.copyLocation).toUpperCase() || u.uploadLocation) as UploadLocation;
  if (!LOCATIONS.includes(location)) throw badRequest('Request Error', `copyLocation must be one of ${LOCATIONS.join(', ')}`);
  const tableName = text(b.tableName);
  const recordId = text(b.recordId);
  if ((tableName === '') !== (recordId === '')) throw badRequest('Request Error', 'tableName and recordId go together');
  const target = tableName ? { table: tableFromPath(s, tableName), idText: recordId } : null;
  const answer = { uploadId: u.uploadId, copyLocation: location, fileName: u.fileName, contentType: u.contentType, fileSize: u.fileSize };

  if (location === 'ATTACHMENT') {
    if (!target) throw badRequest('Request Error', 'tableName and recordId are mandatory to copy to an attachment');
    const t = await lockAttachmentTarget(s, auth, tx, target.table, target.idText);
    await copyToAttachment(tx, auth, t, u);
    return { ...answer, tableName, recordId: t.recordId, recordUU: t.recordUu };
  }

  if (location === 'ARCHIVE') {
    const record = target ? await readableRecord(tx, auth, target.table, target.idText) : null;
    const id = await writeArchive(tx, auth, {
      name: u.fileName, contentType: u.contentType, data: Buffer.alloc(0), isReport: false, processId: null, tableId: target?.table.id ?? 0, recordId: record?.id ?? 0,
    });
    await withAssembledFile(tx, u, {}, (oid) => tx.query('UPDATE ad_archive SET binarydata = lo_get($1::oid) WHERE ad_archive_id = $2', [oid, id]));
    const { rows } = await tx.query<{ uu: string | null }>('SELECT ad_archive_uu AS uu FROM ad_archive WHERE ad_archive_id = $1', [id]);
    return { ...answer, tableName: 'AD_Archive', recordId: id, recordUU: rows[0]?.uu ?? null };
  }

  assertWritableRow(auth, tableFromPath(s, 'ad_image'), auth.clientId, auth.orgId, 'create');
  const image = await imageFromUpload(tx, u, auth);
  return { ...answer, tableName: 'AD_Image', recordId: image.id, recordUU: image.uu };
}
