import type { DocumentKind } from '../document-kinds.js';
import { modelEventOf } from '../../records/write/write-context.js';
import { recomputeDocument } from '../totals.js';
import type { DocumentContext } from './document-type.js';
import { docId } from './common.js';

/** Tax rows and totals of an order or invoice after an action changed its lines. */
export async function recomputeTotals(d: DocumentContext, kind: DocumentKind): Promise<void> {
  await recomputeDocument(modelEventOf(d.wc, 'after-change', d.table, d.row, d.row, new Set()), kind, docId(d));
}
