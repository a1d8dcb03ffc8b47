/**
 * How the row count of a list is asked for: exact (the default, as the spec defines it) or
 * estimated, through the header `Prefer: count=estimated` (as PostgREST reads it) or the query
 * option `$rowcount=estimated`. Pure: no I/O.
 */
import { badRequest } from '../../errors.js';
import { quote } from './common.js';

export type CountMode = 'exact' | 'estimated';

/** The count preference of a Prefer header (several headers may be joined by commas), if any. */
export function countPreference(prefer: string | string[] | undefined): CountMode | undefined {
  const texts = Array.isArray(prefer) ? prefer : prefer === undefined ? [] : [prefer];
  let found: CountMode | undefined;
  for (const text of texts) {
    for (const part of text.split(/[,;]/)) {
      const m = /^\s*count\s*=\s*"?([A-Za-z]+)"?\s*$/i.exec(part);
      // Preferences the server does not know are ignored (RFC 7240), `planned` included.
      if (m && (m[1]!.toLowerCase() === 'exact' || m[1]!.toLowerCase() === 'estimated')) found = m[1]!.toLowerCase() as CountMode;
    }
  }
  return found;
}

/** The count mode of a request: the query option wins over the header; exact when neither says. */
export function countMode(option: string | undefined, prefer: string | string[] | undefined): { mode: CountMode; preferred: boolean } {
  if (option !== undefined) {
    const v = option.trim().toLowerCase();
    if (v !== 'exact' && v !== 'estimated') throw badRequest('Invalid $rowcount', `${quote(option)} is not exact or estimated`);
    return { mode: v, preferred: false };
  }
  const p = countPreference(prefer);
  return { mode: p ?? 'exact', preferred: p !== undefined };
}

/**
 * The row count to report when an estimate is allowed: the planner's estimate when it is above
 * the threshold, never less than the rows the page has shown to exist; null means count exactly.
 */
export function estimatedCount(planRows: number, threshold: number, seen: number): number | null {
  if (!Number.isFinite(planRows) || planRows <= threshold) return null;
  return Math.max(Math.round(planRows), seen);
}
