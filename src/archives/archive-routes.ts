import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Table } from '../dictionary/model.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { archiveSlices, listArchives, readArchive } from './archive-store.js';
import { base64JsonStream } from '../http/base64-json-stream.js';
import { readableRecord } from './record-key.js';
import { pieceStream } from '../http/byte-stream.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';
import { FILE } from '../openapi/route-schema.js';

type Params = { table: string; id: string; archiveId: string };

/**
 * GET /models/{table}/{id}/archives and .../archives/{archiveId}: the archives of a record the
 * caller may read, most recent first; one archive as its bytes with its MIME type, or {data} in
 * base64 with `json`. Read-only: AD_Archive cannot be written through /models either.
 */
export async function archiveRoutes(app: FastifyInstance, s: Services): Promise<void> {
  registerArchiveRules(s.events);
  const record = async (req: FastifyRequest<{ Params: Params }>) => {
    const table = tableFromPath(s, req.params.table);
    return { table, id: (await readableRecord(s.db, req.auth, table, req.params.id)).id };
  };
  app.get<{ Params: Params }>('/api/v1/models/:table/:id/archives', { schema: { summary: 'Archived documents of a record', answer: listOf('archives', ref('DictionaryRow')), example: { archives: [{ id: 1000000, Name: 'Order 80000' }] } } }, async (req) => {
    const { table, id } = await record(req);
    return archiveList(s, req.auth, table, id);
  });
  app.get<{ Params: Params }>('/api/v1/models/:table/:id/archives/:archiveId', { ...ARCHIVE_FILE_OPTIONS, schema: { summary: 'An archived document (json=true: base64 in JSON)', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'JVBERi0xLjcK...' } } }, async (req, reply) => {
    const { table, id } = await record(req);
    return archiveFile(s, req, reply, table, id, req.params.archiveId);
  });
}

/** The query parameters the archive file endpoints read. */
export const ARCHIVE_FILE_OPTIONS = { config: { queryParameters: ['json', 'locale'] } };

/** {archives: [...]} of a record the caller may read (under /models or /views). */
export async function archiveList(s: Services, auth: AuthContext, table: Table, recordId: number): Promise<{ archives: unknown[] }> {
  return { archives: await listArchives(s.db, auth, table.id, recordId) };
}

/** One archive of a record the caller may read: its bytes with its MIME type, or {data} with `json`. */
export async function archiveFile(s: Services, req: FastifyRequest, reply: FastifyReply, table: Table, recordId: number, archiveIdText: string): Promise<unknown> {
  if (!/^\d{1,15}$/.test(archiveIdText)) throw badRequest('Request Error', `Wrong archive id ${archiveIdText}`);
  const archive = await readArchive(s.db, req.auth, table.id, recordId, Number(archiveIdText));
  if (!archive) throw notFound('Archive not found', `No archive ${archiveIdText} for ${table.name} ${recordId}`);
  const json = (req.query as Record<string, unknown>).json;
  if (typeof json === 'string' && json !== '') return reply.type('application/json').send(base64JsonStream({}, 'data', archiveSlices(s.db, archive)));
  reply.type(archive.contentType).header('Content-Length', String(archive.size));
  if (archive.name) reply.header('Content-Disposition', `inline; filename="${archive.name.replace(/["\\\r\n]/g, '_')}"`);
  return reply.send(pieceStream(archiveSlices(s.db, archive)));
}

/** Archives are written by the service (reports, printed documents) only. */
export function registerArchiveRules(events: Services['events']): void {
  const refuse = async (): Promise<void> => {
    throw forbidden('Access denied', 'Archives are read-only through the API');
  };
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, 'ad_archive', refuse);
}
