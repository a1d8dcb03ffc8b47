import { insertRow } from '../auth/util.js';
import type { Tx } from '../db/types.js';
import { withAssembledFile } from './assembled-file.js';
import type { UploadSession } from './upload-store.js';

/** AD_Image.Name holds 60 characters. */
const IMAGE_NAME_LENGTH = 60;

/**
 * A new AD_Image holding a completed upload's file, assembled by PostgreSQL; written for `who`
 * (the session's owner when an IMAGE upload completes, the caller of a copy). Returns its id and uuid.
 */
export async function imageFromUpload(tx: Tx, u: UploadSession, who: { clientId: number; orgId: number; userId: number }): Promise<{ id: number; uu: string | null }> {
  const id = await insertRow(tx, 'AD_Image', { name: u.fileName.slice(0, IMAGE_NAME_LENGTH), binarydata: null }, who);
  await withAssembledFile(tx, u, {}, (oid) => tx.query('UPDATE ad_image SET binarydata = lo_get($1::oid) WHERE ad_image_id = $2', [oid, id]));
  const { rows } = await tx.query<{ uu: string | null }>('SELECT ad_image_uu AS uu FROM ad_image WHERE ad_image_id = $1', [id]);
  return { id, uu: rows[0]?.uu ?? null };
}
