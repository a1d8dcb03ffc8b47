import { DOCUMENT_TYPE_RULES, documentTypeMisfit } from '../document-types.js';
import { docTypeOf } from './common.js';
import { refuse, type DocumentContext } from './document-type.js';

/**
 * Before a document is prepared: its document type must be one of its table's and side's (see
 * DOCUMENT_TYPE_RULES), whatever wrote the row; a document without a type is refused too.
 */
export async function requireDocumentTypeOfTable(d: DocumentContext): Promise<void> {
  const rule = DOCUMENT_TYPE_RULES.get(d.table.dbName);
  if (!rule) return;
  const dt = await docTypeOf(d);
  if (!dt) throw refuse('the document has no document type');
  const misfit = documentTypeMisfit(d.table.name, rule, dt, { ...d.row, ...d.changes });
  if (misfit) throw refuse(misfit);
}
