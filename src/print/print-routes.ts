import type { FastifyInstance } from 'fastify';
import { writeArchive } from '../archives/archive-store.js';
import { readableRecord } from '../archives/record-key.js';
import { badRequest, notFound } from '../errors.js';
import type { ReportType } from '../processes/parameters.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { Services } from '../services.js';
import { hasPrintForm, printDocument } from './document-print.js';

const TYPES: readonly ReportType[] = ['HTML', 'CSV', 'XLS', 'XLSX', 'PDF'];

/**
 * GET /models/{table}/{id}/print[?$report_type=PDF|HTML|CSV|XLS]: the printed form of a sales
 * order, invoice or shipment (PDF by default), as a file; the printed document is archived on
 * its record. `json` answers {data} in base64 instead.
 */
export async function printRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get<{ Params: { table: string; id: string } }>('/api/v1/models/:table/:id/print', async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    const q = req.query as Record<string, unknown>;
    const raw = q.$report_type ?? q.report_type;
    const type = typeof raw === 'string' && raw !== '' ? (raw.toUpperCase() as ReportType) : null;
    if (type !== null && !TYPES.includes(type)) throw badRequest('Invalid query', `$report_type must be one of ${TYPES.join(', ')}`);
    if (!hasPrintForm(table)) throw notFound('No print format', `${table.name} records have no print format`);
    const record = await readableRecord(s.db, req.auth, table, req.params.id);
    const printed = await s.db.tx(async (tx) => {
      const doc = await printDocument(tx, req.auth, table, record.id, type);
      await writeArchive(tx, req.auth, { name: doc.name, contentType: doc.file.contentType, data: doc.file.data, isReport: false, processId: null, tableId: table.id, recordId: record.id, bpartnerId: doc.bpartnerId });
      return doc;
    });
    if (typeof q.json === 'string' && q.json !== '') return { data: printed.file.data.toString('base64'), fileName: printed.name };
    reply.type(printed.file.contentType);
    reply.header('Content-Disposition', `inline; filename="${printed.name.replace(/["\\\r\n]/g, '_')}"`);
    return reply.send(printed.file.data);
  });
}
