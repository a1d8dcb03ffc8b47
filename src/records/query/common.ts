/**
 * Shared lexical helpers of the query-option parsers. Everything here is pure: no I/O.
 */
import { ApiError, badRequest } from '../../errors.js';

/** Longest accepted text of any single query option (longer → 400). */
export const MAX_QUERY_LENGTH = 8000;

/** Deepest accepted nesting of parentheses, `not` and function calls (deeper → 400). */
export const MAX_NESTING_DEPTH = 64;

/** A plain identifier: letter or underscore, then letters, digits or underscores (ASCII). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const isIdentifier = (s: string): boolean => IDENTIFIER.test(s);

/** Quote a piece of user input for an error detail, cutting very long text short. */
export function quote(text: string, max = 40): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return `'${shown}'`;
}

/** Reject over-long input with a 400 carrying the given title. */
export function checkLength(text: string, title: string): void {
  if (text.length > MAX_QUERY_LENGTH) {
    throw badRequest(title, `Text is too long (${text.length} characters, at most ${MAX_QUERY_LENGTH})`);
  }
}

/** Re-throw an error of a nested parser under another title, prefixing its detail. */
export function rethrowAs(e: unknown, title: string, prefix: string): never {
  if (e instanceof ApiError) throw badRequest(title, `${prefix}${e.detail}`);
  throw e;
}
