import type { Queryable, Tx } from '../db/types.js';
import { isApiError } from '../errors.js';
import { validationError } from '../records/write/write-errors.js';
import { FragmentError } from './fragment-check.js';

/**
 * The save-time check of dictionary SQL: builds the statement the saved row will run (refused with
 * 400 when a fragment breaks the lexical rules) and has the database explain it inside a savepoint
 * (parsed and planned, never run), so that a clause that does not fit is refused when saved.
 */
export async function assertPlannable(tx: Tx, what: string, build: () => { text: string; values: unknown[] }): Promise<void> {
  let statement;
  try {
    statement = build();
  } catch (e) {
    if (e instanceof FragmentError) throw validationError(e.message);
    if (isApiError(e)) throw validationError(e.detail || e.title);
    throw e;
  }
  try {
    await tx.savepoint((sp: Queryable) => sp.query(`EXPLAIN ${statement.text}`, statement.values));
  } catch (e) {
    throw validationError(`${what} does not form a valid query: ${(e as { message?: string }).message ?? 'invalid SQL'}`);
  }
}
