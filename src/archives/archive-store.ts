import { insertRow } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import { byteaSlices } from '../db/bytea-slices.js';
import type { Queryable } from '../db/types.js';

/** A file the service generated (a report, a printed document) to keep in AD_Archive. */
export interface ArchiveInput {
  name: string;
  contentType: string;
  data: Buffer;
  isReport: boolean;
  processId: number | null;
  tableId: number;
  recordId: number;
  bpartnerId?: number | null;
}

/** The archive's MIME type is kept in Description (AD_Archive has no column of its own for it). */
const TYPE_PREFIX = 'content-type:';

/** Writes an AD_Archive row with the bytes in PostgreSQL (BinaryData); returns its id. */
export async function writeArchive(q: Queryable, auth: AuthContext, a: ArchiveInput): Promise<number> {
  return insertRow(
    q,
    'AD_Archive',
    {
      name: a.name.slice(0, 60),
      description: `${TYPE_PREFIX}${a.contentType}`,
      isreport: a.isReport ? 'Y' : 'N',
      ad_process_id: a.processId,
      ad_table_id: a.tableId,
      record_id: a.recordId,
      c_bpartner_id: a.bpartnerId ?? null,
      binarydata: a.data,
    },
    { clientId: auth.clientId, orgId: auth.orgId, userId: auth.userId },
  );
}

export interface ArchiveEntry {
  id: number;
  name?: string;
  contentType: string;
  isReport: boolean;
  processId?: number;
  created: string;
}

export function contentTypeOf(description: unknown): string {
  const d = typeof description === 'string' ? description : '';
  return d.startsWith(TYPE_PREFIX) ? d.slice(TYPE_PREFIX.length) : 'application/octet-stream';
}

/** Archive entries of one record that the caller's client may see, most recent first. */
export async function listArchives(q: Queryable, auth: AuthContext, tableId: number, recordId: number): Promise<ArchiveEntry[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ad_archive_id, name, description, isreport, ad_process_id, created FROM ad_archive
      WHERE ad_table_id = $1 AND record_id = $2 AND ad_client_id IN (0, $3) AND isactive = 'Y' AND ($4::bigint[] IS NULL OR ad_org_id = ANY($4::bigint[]))
      ORDER BY created DESC, ad_archive_id DESC`,
    [tableId, recordId, auth.clientId, auth.orgIds],
  );
  return rows.map((r) => {
    const e: ArchiveEntry = { id: Number(r.ad_archive_id), contentType: contentTypeOf(r.description), isReport: r.isreport === 'Y', created: createdText(r.created) };
    if (r.name) e.name = String(r.name);
    if (r.ad_process_id !== null && r.ad_process_id !== undefined) e.processId = Number(r.ad_process_id);
    // Insertion order of the keys follows the spec's field list.
    return { id: e.id, ...(e.name ? { name: e.name } : {}), contentType: e.contentType, isReport: e.isReport, ...(e.processId !== undefined ? { processId: e.processId } : {}), created: e.created };
  });
}

/** "YYYY-MM-DD hh:mm:ss.fff": the timestamp with date, time and fraction. */
function createdText(v: unknown): string {
  const d = v instanceof Date ? v : new Date(String(v).replace(' ', 'T') + (String(v).match(/Z|[+-]\d\d:?\d\d$/) ? '' : 'Z'));
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

/** One archive of one record: its name, type and size (the bytes are read with archiveSlices), or null. */
export async function readArchive(q: Queryable, auth: AuthContext, tableId: number, recordId: number, archiveId: number): Promise<{ id: number; name: string | null; contentType: string; size: number } | null> {
  const { rows } = await q.query<{ name: string | null; description: string | null; size: string | number | null }>(
    `SELECT name, description, octet_length(binarydata) AS size FROM ad_archive
      WHERE ad_archive_id = $1 AND ad_table_id = $2 AND record_id = $3 AND ad_client_id IN (0, $4) AND isactive = 'Y' AND ($5::bigint[] IS NULL OR ad_org_id = ANY($5::bigint[]))`,
    [archiveId, tableId, recordId, auth.clientId, auth.orgIds],
  );
  const r = rows[0];
  if (!r) return null;
  return { id: archiveId, name: r.name, contentType: contentTypeOf(r.description), size: Number(r.size ?? 0) };
}

/** The bytes of an archive slice by slice, so a large one is never held whole. */
export function archiveSlices(q: Queryable, archive: { id: number; size: number }): AsyncGenerator<Buffer> {
  return byteaSlices(q, 'SELECT substring(binarydata from $1 for $2) AS b FROM ad_archive WHERE ad_archive_id = $3', [archive.id], 0, archive.size);
}
