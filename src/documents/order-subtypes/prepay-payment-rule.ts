import type { ModelEvent } from '../../events/model-events.js';
import { documentTypeRow } from '../document-types.js';
import { idOf, invalid } from '../row-values.js';

/**
 * A prepay order is paid before it ships: the payment rule cash (paid on delivery) is refused for
 * it, as the original's order validation (IDEMPIERE-4318). Checked after the header's defaults.
 */
export async function prepayNotCash(e: ModelEvent): Promise<void> {
  if (e.row.paymentrule !== 'B') return;
  if (e.type === 'before-change' && !e.changed.has('paymentrule') && !e.changed.has('c_doctypetarget_id')) return;
  const id = idOf(e.row.c_doctypetarget_id);
  const dt = id === null ? null : await documentTypeRow(e.tx, e.memo, id);
  if (dt?.docsubtypeso === 'PR') throw invalid('A prepay order cannot be paid in cash: choose another payment rule (column PaymentRule)');
}
