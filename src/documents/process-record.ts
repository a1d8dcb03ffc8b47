import { assertWritableRow } from '../access/access.js';
import { badRequest } from '../errors.js';
import type { Row } from '../events/model-events.js';
import type { ProcessCall } from '../processes/runner.js';
import { loadForWrite } from '../records/write/persist.js';
import { createWriteContext, type WriteContext } from '../records/write/write-context.js';

export interface ProcessRecord {
  wc: WriteContext;
  row: Row;
  id: number;
}

/**
 * The record a process runs on, which must be of `tableName`: locked and writable by the caller
 * (400 when the process runs on something else), with a write context for what the process writes.
 */
export async function processRecordOf(c: ProcessCall, tableName: string, what: string): Promise<ProcessRecord> {
  const dict = c.s.dictionary.current;
  const table = dict.byName.get(tableName)!;
  if (!c.record || c.record.table !== table) throw badRequest('Invalid parameter', `${c.def.name} runs on ${what} (record-id with model-name ${tableName})`);
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const row = await loadForWrite(wc, table, String(c.record.id));
  assertWritableRow(c.auth, table, Number(row.ad_client_id), Number(row.ad_org_id), 'update');
  return { wc, row, id: c.record.id };
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

/** A stored date or timestamp as YYYY-MM-DD, whether the driver gives text or a Date. */
export const dayText = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v ?? '')).slice(0, 10);
