import { assertWritableRow } from '../../access/access.js';
import type { Queryable } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import type { ProcessCall } from '../../processes/runner.js';
import { loadForWrite } from '../../records/write/persist.js';
import { createWriteContext, type WriteContext } from '../../records/write/write-context.js';

export interface SelectionRun {
  wc: WriteContext;
  selection: Row;
  id: number;
}

/**
 * The payment selection a process runs on (its record), locked and writable by the caller; 400
 * when the process runs on something else.
 */
export async function selectionOf(c: ProcessCall): Promise<SelectionRun> {
  const dict = c.s.dictionary.current;
  const table = dict.byName.get('c_payselection')!;
  if (!c.record || c.record.table !== table) throw badRequest('Invalid parameter', `${c.def.name} runs on a payment selection (record-id with model-name c_payselection)`);
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const selection = await loadForWrite(wc, table, String(c.record.id));
  assertWritableRow(c.auth, table, Number(selection.ad_client_id), Number(selection.ad_org_id), 'update');
  return { wc, selection, id: c.record.id };
}

/** A Yes/No parameter, else its default. */
export function flag(c: ProcessCall, name: string, otherwise: boolean): boolean {
  const v = c.param(name)?.value;
  return typeof v === 'boolean' ? v : typeof v === 'string' ? v === 'Y' || v === 'true' : otherwise;
}

/** An id parameter, or null. */
export function idParam(c: ProcessCall, name: string): number | null {
  const v = c.param(name)?.value;
  return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

/** A text parameter (a list value), or null. */
export function textParam(c: ProcessCall, name: string): string | null {
  const v = c.param(name)?.value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** The selection's total follows its active lines' pay amounts (the original's line after-save). */
export async function refreshSelectionTotal(wc: { tx: Queryable }, selectionId: number): Promise<void> {
  await wc.tx.query(
    `UPDATE c_payselection s SET totalamt = COALESCE((SELECT sum(l.payamt) FROM c_payselectionline l WHERE l.c_payselection_id = s.c_payselection_id AND l.isactive = 'Y'), 0)
      WHERE s.c_payselection_id = $1`,
    [selectionId],
  );
}
