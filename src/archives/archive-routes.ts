import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, notFound } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { listArchives, readArchive } from './archive-store.js';
import { readableRecord } from './record-key.js';

type Params = { table: string; id: string; archiveId: string };

/**
 * GET /models/{table}/{id}/archives and .../archives/{archiveId}: the archives of a record the
 * caller may read, most recent first; one archive as its bytes with its MIME type, or {data} in
 * base64 with `json`. Read-only: AD_Archive cannot be written through /models either.
 */
export async function archiveRoutes(app: FastifyInstance, s: Services): Promise<void> {
  registerArchiveRules(s.events);
  app.get<{ Params: Params }>('/api/v1/models/:table/:id/archives', async (req) => {
    const table = tableFromPath(s, req.params.table);
    const record = await readableRecord(s.db, req.auth, table, req.params.id);
    return { archives: await listArchives(s.db, req.auth, table.id, record.id) };
  });

  app.get<{ Params: Params }>('/api/v1/models/:table/:id/archives/:archiveId', { config: { queryParameters: ['json', 'locale'] } }, async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    const record = await readableRecord(s.db, req.auth, table, req.params.id);
    if (!/^\d{1,15}$/.test(req.params.archiveId)) throw badRequest('Request Error', `Wrong archive id ${req.params.archiveId}`);
    const archive = await readArchive(s.db, req.auth, table.id, record.id, Number(req.params.archiveId));
    if (!archive) throw notFound('Archive not found', `No archive ${req.params.archiveId} for ${table.name} ${req.params.id}`);
    const json = (req.query as Record<string, unknown>).json;
    if (typeof json === 'string' && json !== '') return { data: archive.data.toString('base64') };
    reply.type(archive.contentType);
    if (archive.name) reply.header('Content-Disposition', `inline; filename="${archive.name.replace(/["\\\r\n]/g, '_')}"`);
    return reply.send(archive.data);
  });
}

/** Archives are written by the service (reports, printed documents) only. */
export function registerArchiveRules(events: Services['events']): void {
  const refuse = async (): Promise<void> => {
    throw forbidden('Access denied', 'Archives are read-only through the API');
  };
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, 'ad_archive', refuse);
}
