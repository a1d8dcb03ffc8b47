import type { SqlBuilder } from '../../db/sql.js';
import type { ProcessCall } from '../../processes/runner.js';

/** A date parameter as YYYY-MM-DD, or null when not given. */
export function dateParam(c: ProcessCall, name: string, end: 'value' | 'to' = 'value'): string | null {
  const p = c.param(name);
  const v = end === 'value' ? p?.value : p?.to;
  return typeof v === 'string' ? v.slice(0, 10) : null;
}

/** A Yes-No parameter, or null when not given. */
export function flagParam(c: ProcessCall, name: string): boolean | null {
  const v = c.param(name)?.value;
  return typeof v === 'boolean' ? v : v === 'Y' ? true : v === 'N' ? false : null;
}

/** A record id parameter (the first of a multiple selection), or null when not given. */
export function idParam(c: ProcessCall, name: string): number | null {
  const v = c.param(name)?.value;
  if (Array.isArray(v)) return v.length ? Number(v[0]) : null;
  return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

/** Conditions for the id parameters given: each [parameter, column expression] pair narrows to that id. */
export function idConditions(c: ProcessCall, sql: SqlBuilder, pairs: readonly (readonly [string, string])[]): string[] {
  const out: string[] = [];
  for (const [param, expr] of pairs) {
    const id = idParam(c, param);
    if (id !== null) out.push(`${expr} = ${sql.param(id)}`);
  }
  return out;
}
