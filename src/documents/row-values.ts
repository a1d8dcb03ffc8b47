import { defaultRecordOf } from '../records/write/default-record.js';
import type { Column } from '../dictionary/model.js';
import { ApiError } from '../errors.js';
import type { ModelEvent } from '../events/model-events.js';

/** A refused document write: 400 with the original's title and a detail naming the column. */
export const invalid = (detail: string): ApiError => new ApiError(400, 'Validation Errors', detail);

/** An id, amount or date that is not there: null, blank, or zero (the original's "no record"). */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'string') return v.trim() === '' || /^[+-]?0*(\.0*)?$/.test(v.trim());
  return false;
}

/** Equality of stored values: numbers by value, text without padding. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return String(a).trim() === String(b).trim();
}

export const todayDate = (): string => `${new Date().toISOString().slice(0, 10)} 00:00:00`;

export const nowTimestamp = (): string => new Date().toISOString().replace('T', ' ').slice(0, 23);

/** The literal of a column's dictionary default ('B', '5'), when the default is a plain literal. */
function literalDefault(col: Column): string | null {
  const text = col.defaultValue?.trim();
  if (!text || text.includes('@') || text.includes(';') || /^sysdate$/i.test(text)) return null;
  return /^'(.*)'$/s.exec(text)?.[1] ?? /^"(.*)"$/s.exec(text)?.[1] ?? text;
}

/** Mandatory columns the record engine fills from the login when a new record leaves them empty. */
const LOGIN_VALUES: Record<string, (e: ModelEvent) => number> = {
  salesrep_id: (e) => e.auth.userId,
  m_warehouse_id: (e) => e.auth.warehouseId,
};

/**
 * Whether a value of a new row is one the defaults put there rather than a choice of the caller.
 * Before before-new the record engine gives empty columns their dictionary default (PaymentRule
 * 'B') and mandatory ones a stand-in (the login user or warehouse, the referenced table's default
 * record); a document rule with better knowledge (the partner's terms, the product's unit)
 * replaces such values. A value the request gave itself (ModelEvent.given) is never a default,
 * even when it equals one.
 */
export async function isDefaulted(e: ModelEvent, column: string): Promise<boolean> {
  if (e.type !== 'before-new' || e.given?.has(column)) return false;
  const col = e.table.byName.get(column);
  const v = e.row[column];
  if (!col || v === null || v === undefined) return false;
  const literal = literalDefault(col);
  if (literal !== null && sameValue(v, literal)) return true;
  if (!col.isMandatory) return false;
  const login = LOGIN_VALUES[column];
  if (login) return sameValue(v, login(e));
  if (col.kind === 'foreign-key' && col.lookup) return sameValue(v, await defaultRecordOf(e, col, Number(e.row.ad_client_id ?? e.auth.clientId)));
  return false;
}

/**
 * Sets a column to the value a document rule derives, when the row leaves it empty or holds only
 * a default (see isDefaulted). On changes, only an empty column is filled.
 */
export async function fillUnset(e: ModelEvent, column: string, desired: unknown): Promise<void> {
  if (desired === null || desired === undefined || !e.table.byName.has(column)) return;
  const v = e.row[column];
  if (sameValue(v, desired)) return;
  if (isEmptyValue(v) || (await isDefaulted(e, column))) e.row[column] = desired;
}

/** Sets a column when it is empty (null, blank or zero). */
export function fillEmpty(e: ModelEvent, column: string, value: unknown): void {
  if (value === null || value === undefined || !e.table.byName.has(column)) return;
  if (isEmptyValue(e.row[column])) e.row[column] = value;
}

/** A row value as a positive id, or null. */
export function idOf(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
