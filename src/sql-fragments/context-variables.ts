import type { AuthContext } from '../auth/context.js';
import type { SqlBuilder } from '../db/sql.js';
import { sessionContext } from '../records/read/valrule-sql.js';

/** A @Variable@ of dictionary SQL, with the optional `#` (login) or `$` (accounting) prefix. */
const VARIABLE = /@([#$]?\w+)@/g;

/** The names of the @variables@ a dictionary SQL fragment uses. */
export function contextVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]!);
}

/**
 * Dictionary SQL (written by administrators, checked when saved) with each @Variable@ turned into
 * a parameter: values come from `extra` first, then from the caller's login context. A variable
 * without a value becomes NULL, which matches nothing, as the original's empty context does.
 */
export function bindContext(text: string, auth: AuthContext, sql: SqlBuilder, extra: Map<string, string> = new Map()): string {
  const session = sessionContext(auth);
  return text.replace(VARIABLE, (_m, name: string) => {
    const v = extra.get(name) ?? session.get(name) ?? session.get(`#${name}`) ?? null;
    // Ids are typed so that they compare with any numeric column; other values take the type their place gives them.
    return v !== null && /^-?\d{1,15}$/.test(v) ? `${sql.param(Number(v))}::bigint` : sql.param(v);
  });
}
