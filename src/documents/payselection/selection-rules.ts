import { ApiError } from '../../errors.js';
import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { refreshSelectionTotal } from './selection.js';

const selectionId = (e: ModelEvent): number => Number(e.row.c_payselection_id ?? e.old?.c_payselection_id);

/** Lines of a processed selection (its payments prepared) no longer change, as the original's processed lines. */
async function refuseProcessed(e: ModelEvent): Promise<void> {
  const { rows } = await e.tx.query<{ processed: string }>(`SELECT processed FROM c_payselection WHERE c_payselection_id = $1`, [selectionId(e)]);
  if (rows[0]?.processed === 'Y') {
    throw new ApiError(400, 'Validation Errors', 'The payment selection is processed: its lines cannot change');
  }
}

/** A line's difference is what it leaves open (the original's MPaySelectionLine.beforeSave). */
function lineDifference(e: ModelEvent): void {
  const n = (c: string) => Number(e.row[c] ?? 0);
  e.row.differenceamt = Math.round((n('openamt') - n('payamt') - n('discountamt') - n('writeoffamt')) * 100) / 100;
}

/** Payment selections: lines keep their difference and the selection's total; a processed selection's lines stay. */
export function registerPaySelectionRules(events: ModelEvents): void {
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, 'c_payselectionline', refuseProcessed);
  for (const type of ['before-new', 'before-change'] as const) events.on(type, 'c_payselectionline', lineDifference);
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, 'c_payselectionline', (e: ModelEvent) => refreshSelectionTotal(e, selectionId(e)));
}
