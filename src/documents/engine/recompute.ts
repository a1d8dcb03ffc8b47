import type { ModelEvent } from '../../events/model-events.js';
import { emitModelEvent } from '../../records/write/write-context.js';
import type { DocumentKind } from '../document-kinds.js';
import { recomputeDocument } from '../totals.js';
import type { DocumentContext } from './document-type.js';
import { docId } from './common.js';

/** Tax rows and totals of an order or invoice after an action changed its lines. */
export async function recomputeTotals(d: DocumentContext, kind: DocumentKind): Promise<void> {
  const { wc } = d;
  const e: ModelEvent = {
    type: 'after-change',
    table: d.table,
    row: d.row,
    old: d.row,
    changed: new Set(),
    tx: wc.tx,
    dict: wc.dict,
    auth: wc.auth,
    memo: wc.memo,
    defer: (key, work) => wc.deferred.add(key, work),
    raise: (type, table, row, old, changed) => emitModelEvent(wc, type, table, row, old, changed),
  };
  await recomputeDocument(e, kind, docId(d));
}
