import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Table } from '../dictionary/model.js';
import { readableRecord } from '../archives/record-key.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { ReportType, RunRequest } from '../processes/parameters.js';
import { processById } from '../processes/process-definition.js';
import { processImplementations } from '../processes/process-routes.js';
import { runProcess, type ProcessResult } from '../processes/runner.js';
import type { ReadContext } from '../records/read/read-context.js';
import { getRecord } from '../records/read/reader.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import { loadScreenAccess } from '../screens/screen-access.js';
import { tabScope } from '../screens/tab-records.js';
import type { Services } from '../services.js';
import { tablePrintProcess } from './print-processes.js';
import { printTab, zoomWindowSlug } from './print-window.js';
import { ref } from '../openapi/answer-schemas.js';
import { processInfoExample } from '../openapi/route-schema.js';

const TYPES: readonly ReportType[] = ['HTML', 'CSV', 'XLS', 'XLSX', 'PDF'];

/** `$report_type` (or `report_type`): PDF when absent; 400 for a type no renderer writes. */
function reportTypeOf(req: FastifyRequest): ReportType | null {
  const q = req.query as Record<string, unknown>;
  const raw = q.$report_type ?? q.report_type;
  if (raw === undefined || raw === '') return null;
  const type = typeof raw === 'string' ? (raw.toUpperCase() as ReportType) : null;
  if (type === null || !TYPES.includes(type)) throw badRequest('Invalid query', `$report_type must be one of ${TYPES.join(', ')}`);
  return type;
}

/**
 * Runs the print process of a tab on one of its records, as POST /processes runs a process with
 * record-id and table-id: an AD_PInstance is recorded, and the answer is the run's result.
 */
async function runPrint(s: Services, auth: AuthContext, processId: number, table: Table, recordId: number, reportType: ReportType | null): Promise<ProcessResult> {
  const def = await processById(s.db, processId);
  const request: RunRequest = { params: new Map(), reportType, isSummary: false, printFormatId: null, recordId, tableId: table.id, modelName: null, notificationType: null };
  return runProcess({ s, auth, def, request, record: { table, id: recordId }, impls: processImplementations(s) });
}

const readContext = (s: Services, req: FastifyRequest): ReadContext => ({ dict: s.dictionary.current, auth: req.auth, q: s.db });

/**
 * Prints a record of a table (GET /models/{table}/{id}/print, and /views through its table): the
 * record is read with the caller's access rules (400, 404, 403 as a read), then printed by the
 * print process of the window it opens in, for a role that may open that window.
 */
export async function printModelRecord(s: Services, req: FastifyRequest, table: Table, idText: string): Promise<ProcessResult> {
  const reportType = reportTypeOf(req);
  const record = await readableRecord(s.db, req.auth, table, idText);
  const rc = readContext(s, req);
  const slug = await zoomWindowSlug(rc, table, record.row);
  const access = await loadScreenAccess(s.db, req.auth);
  if (slug === null) {
    // A document no window shows (a payment, a journal) prints by its table's print process, for a role given that process.
    const processId = tablePrintProcess(table.dbName);
    if (processId === null) throw notFound('Window not found', `No window shows ${table.name} records`);
    if (!access.processes.has(processId)) throw forbidden('Access denied', `Access denied for the print process of ${table.name}`);
    return runPrint(s, req.auth, processId, table, record.id, reportType);
  }
  const { processId } = await printTab(rc, access, slug, null);
  return runPrint(s, req.auth, processId, table, record.id, reportType);
}

/** Prints a record of a window's header tab, or of one of its tabs: the record must be one the tab shows. */
async function printWindowRecord(s: Services, req: FastifyRequest, windowSlug: string, tabSlug: string | null, idText: string): Promise<ProcessResult> {
  const reportType = reportTypeOf(req);
  const rc = readContext(s, req);
  const { tab, processId } = await printTab(rc, await loadScreenAccess(s.db, req.auth), windowSlug, tabSlug);
  const { record } = await getRecord(rc, tab.table, idText, { select: [], showSql: false }, tabScope(tab));
  if (typeof record.id !== 'number') throw notFound('Record not found', `${tab.table.name} records have no single key`);
  return runPrint(s, req.auth, processId, tab.table, record.id, reportType);
}

/** The query parameters the print routes read. */
export const PRINT_OPTIONS = { config: { queryParameters: ['$report_type', 'report_type', 'locale'] } };

/**
 * GET /models/{table}/{id}/print, GET /windows/{slug}/{id}/print and
 * GET /windows/{slug}/tabs/{tab}/{id}/print[?$report_type=PDF|HTML|CSV|XLS|XLSX]: runs the print
 * process of the window's tab on the record and answers the process result, the printed file
 * base64 in it (PDF in reportFile, archived on the record; other types in exportFile).
 */
export async function printRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get<{ Params: { table: string; id: string } }>('/api/v1/models/:table/:id/print', { ...PRINT_OPTIONS, schema: { summary: 'Print a record with its print format (report_type PDF, HTML, CSV, XLS)', answer: ref('ProcessInfo'), example: processInfoExample } }, async (req) => printModelRecord(s, req, tableFromPath(s, req.params.table), req.params.id));
  app.get<{ Params: { slug: string; id: string } }>('/api/v1/windows/:slug/:id/print', { ...PRINT_OPTIONS, schema: { summary: 'Print a header record of a window', answer: ref('ProcessInfo'), example: processInfoExample } }, async (req) => printWindowRecord(s, req, req.params.slug, null, req.params.id));
  app.get<{ Params: { slug: string; tab: string; id: string } }>('/api/v1/windows/:slug/tabs/:tab/:id/print', { ...PRINT_OPTIONS, schema: { summary: 'Print a record of a tab', answer: ref('ProcessInfo'), example: processInfoExample } }, async (req) =>
    printWindowRecord(s, req, req.params.slug, req.params.tab, req.params.id),
  );
}
