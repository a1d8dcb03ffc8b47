import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { validationError } from '../records/write/write-errors.js';
import { yes } from './build.js';

/**
 * An included (INCLUDE) index column is stored in the index as the table holds it, so PostgreSQL
 * takes table columns only there: an index column with an expression (ColumnSQL) cannot be
 * included. Writes that ask for one are refused; such a row that reaches the dictionary another
 * way leaves its index out (see build.ts).
 */
export function registerIndexColumnRules(events: ModelEvents): void {
  const check = (e: ModelEvent): void => {
    const expression = e.row.columnsql;
    if (yes(e.row.isincluded) && typeof expression === 'string' && expression.trim() !== '') {
      throw validationError('An included index column must be a column of the table: an expression (ColumnSQL) can only be a key column (IsIncluded = N)');
    }
  };
  events.on('before-new', 'AD_IndexColumn', check);
  events.on('before-change', 'AD_IndexColumn', check);
}
