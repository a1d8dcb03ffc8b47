import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Table } from '../dictionary/model.js';
import { writeArchive } from '../archives/archive-store.js';
import { readableRecord } from '../archives/record-key.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { ReportType } from '../processes/parameters.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { hasPrintForm, printDocument } from './document-print.js';

const TYPES: readonly ReportType[] = ['HTML', 'CSV', 'XLS', 'XLSX', 'PDF'];

/** A window of the path's slug (its name slugified) that the role may open, and the table of its first tab. */
async function windowTable(s: Services, auth: AuthContext, slug: string): Promise<Table> {
  const { rows } = await s.db.query<{ name: string; ad_window_id: number; ad_table_id: number | null; access: boolean }>(
    `SELECT w.name, w.ad_window_id,
            (SELECT t.ad_table_id FROM ad_tab t WHERE t.ad_window_id = w.ad_window_id AND t.isactive = 'Y' AND t.tablevel = 0 ORDER BY t.seqno LIMIT 1) AS ad_table_id,
            EXISTS (SELECT 1 FROM ad_window_access a WHERE a.ad_window_id = w.ad_window_id AND a.ad_role_id = $2 AND a.isactive = 'Y') AS access
       FROM ad_window w WHERE w.isactive = 'Y' AND w.ad_client_id IN (0, $1)`,
    [auth.clientId, auth.roleId],
  );
  const w = rows.find((r) => windowSlug(r.name) === slug.toLowerCase());
  if (!w) throw notFound('Invalid window', `No window found with slug: ${slug}`);
  if (!w.access) throw forbidden('Access denied', `Access denied for window: ${slug}`);
  const table = w.ad_table_id === null ? undefined : s.dictionary.current.byId.get(Number(w.ad_table_id));
  if (!table) throw notFound('No print format', `Window ${slug} has no table to print`);
  return table;
}

/** The slug of a window in paths ("Sales Order" -> "sales-order"). */
export const windowSlug = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Prints one record of a table with a form, archives the print, and answers the file (or {data, fileName} with json). */
export async function printRecord(s: Services, req: FastifyRequest, reply: FastifyReply, table: Table, idText: string): Promise<unknown> {
  const q = req.query as Record<string, unknown>;
  const raw = q.$report_type ?? q.report_type;
  const type = typeof raw === 'string' && raw !== '' ? (raw.toUpperCase() as ReportType) : null;
  if (type !== null && !TYPES.includes(type)) throw badRequest('Invalid query', `$report_type must be one of ${TYPES.join(', ')}`);
  if (!hasPrintForm(table)) throw notFound('No print format', `${table.name} records have no print format`);
  const record = await readableRecord(s.db, req.auth, table, idText);
  const printed = await s.db.tx(async (tx) => {
    const doc = await printDocument(tx, req.auth, table, record.id, type);
    await writeArchive(tx, req.auth, { name: doc.name, contentType: doc.file.contentType, data: doc.file.data, isReport: false, processId: null, tableId: table.id, recordId: record.id, bpartnerId: doc.bpartnerId });
    return doc;
  });
  if (typeof q.json === 'string' && q.json !== '') return { data: printed.file.data.toString('base64'), fileName: printed.name };
  reply.type(printed.file.contentType);
  reply.header('Content-Disposition', `inline; filename="${printed.name.replace(/["\\\r\n]/g, '_')}"`);
  return reply.send(printed.file.data);
}

/**
 * GET /models/{table}/{id}/print[?$report_type=PDF|HTML|CSV|XLS]: the printed form of a sales
 * order, invoice or shipment (PDF by default), as a file; the printed document is archived on
 * its record. GET /windows/{slug}/{id}/print prints the record of the window's first tab.
 */
export const PRINT_OPTIONS = { config: { queryParameters: ['$report_type', 'report_type', 'json', 'locale'] } };

export async function printRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const printOptions = PRINT_OPTIONS;
  app.get<{ Params: { table: string; id: string } }>('/api/v1/models/:table/:id/print', printOptions, async (req, reply) => printRecord(s, req, reply, tableFromPath(s, req.params.table), req.params.id));
  app.get<{ Params: { slug: string; id: string } }>('/api/v1/windows/:slug/:id/print', printOptions, async (req, reply) => printRecord(s, req, reply, await windowTable(s, req.auth, req.params.slug), req.params.id));
}
