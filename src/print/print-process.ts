import type { ProcessCall, ProcessOutcome } from '../processes/runner.js';
import { printDocument } from './document-print.js';
import { DOCUMENT_PRINT_PROCESSES } from './print-processes.js';

/**
 * A run of a document print process: the form of the run's record in the requested report type.
 * As in the original, a PDF is the run's report (`reportFile`, archived on the document as its
 * printed copy) and HTML, CSV and spreadsheets are its export (`exportFile`, not archived).
 */
export async function documentPrint(c: ProcessCall): Promise<ProcessOutcome> {
  const table = c.s.dictionary.current.byName.get(DOCUMENT_PRINT_PROCESSES.get(c.def.id) ?? '');
  if (!table) return { summary: `${c.def.name} has no printed form on this server`, isError: true };
  if (!c.record) return { summary: `${c.def.name} prints one ${table.name} record: record-id names it`, isError: true };
  if (c.record.table.id !== table.id) return { summary: `${c.def.name} prints ${table.name} records, not ${c.record.table.name} records`, isError: true };
  const doc = await printDocument(c.tx, c.auth, table, c.record.id, c.request.reportType);
  const file = { name: doc.name, contentType: doc.file.contentType, data: doc.file.data };
  if ((c.request.reportType ?? 'PDF') === 'PDF') return { summary: doc.title, report: { ...file, archive: { isReport: false, bpartnerId: doc.bpartnerId } } };
  return { summary: doc.title, export: file };
}
