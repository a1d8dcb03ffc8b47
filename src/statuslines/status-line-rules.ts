import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { assertPlannable } from '../sql-fragments/plannable.js';
import { checkSavedNames } from '../sql-fragments/fragment-access.js';
import { statusLineStatement } from './status-line.js';

/** A status line's statement is checked when saved: one read-only SELECT that the database can plan. */
async function checkStatusLine(e: ModelEvent): Promise<void> {
  const text = e.row.sqlstatement;
  if (typeof text !== 'string' || text.trim() === '') return;
  await assertPlannable(e.tx, 'SQLStatement', () => {
    checkSavedNames(e, text, 'SQLStatement');
    return statusLineStatement(text, e.auth);
  });
}

export function registerStatusLineRules(events: ModelEvents): void {
  events.on('before-new', 'AD_StatusLine', checkStatusLine);
  events.on('before-change', 'AD_StatusLine', checkStatusLine);
}
