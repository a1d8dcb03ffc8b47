/**
 * `$top` and `$skip`. Both must be non-negative decimal integers (surrounding whitespace
 * ignored); anything else is a 400.
 *
 * As in the original (ModelHelper), a `$top` of 0 or above the maximum (REST_MAX_RECORDS_SIZE,
 * 100 by default there) is not an error: it becomes the maximum.
 */
import { badRequest } from '../../errors.js';
import { quote } from './common.js';

const INTEGER = /^\d+$/;

/** Effective page size: `def` when absent; 0 or more than `max` → `max`. */
export function parseTop(text: string | undefined, max: number, def: number): number {
  const clamp = (n: number): number => (n <= 0 || n > max ? max : n);
  if (text === undefined) return clamp(def);
  const t = text.trim();
  if (!INTEGER.test(t)) throw badRequest('Invalid $top', `${quote(text)} is not a non-negative integer`);
  return clamp(Number(t));
}

/** Number of records to skip: 0 when absent. */
export function parseSkip(text: string | undefined): number {
  if (text === undefined) return 0;
  const t = text.trim();
  if (!INTEGER.test(t)) throw badRequest('Invalid $skip', `${quote(text)} is not a non-negative integer`);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw badRequest('Invalid $skip', `${quote(text)} is too large`);
  return n;
}
