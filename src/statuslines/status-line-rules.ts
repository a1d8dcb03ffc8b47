import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import type { Queryable } from '../db/types.js';
import { validationError } from '../records/write/write-errors.js';
import { FragmentError } from '../sql-fragments/fragment-check.js';
import { statusLineStatement } from './status-line.js';

/** A status line's statement is checked when saved: one read-only SELECT that the database can plan. */
async function checkStatusLine(e: ModelEvent): Promise<void> {
  const text = e.row.sqlstatement;
  if (typeof text !== 'string' || text.trim() === '') return;
  let statement;
  try {
    statement = statusLineStatement(text, e.auth);
  } catch (err) {
    if (err instanceof FragmentError) throw validationError(err.message);
    throw err;
  }
  try {
    await e.tx.savepoint((sp: Queryable) => sp.query(`EXPLAIN ${statement.text}`, statement.values));
  } catch (err) {
    throw validationError(`SQLStatement does not form a valid query: ${(err as { message?: string }).message ?? 'invalid SQL'}`);
  }
}

export function registerStatusLineRules(events: ModelEvents): void {
  events.on('before-new', 'AD_StatusLine', checkStatusLine);
  events.on('before-change', 'AD_StatusLine', checkStatusLine);
}
