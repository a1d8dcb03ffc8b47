import type { AuthContext } from '../auth/context.js';
import { SqlBuilder } from '../db/sql.js';
import type { Db, Queryable } from '../db/types.js';
import { bindContext } from '../sql-fragments/context-variables.js';
import { checkFragment, FragmentError } from '../sql-fragments/fragment-check.js';
import { formatMessage } from './message-format.js';

/** How long a status line's statement may run. */
const TIMEOUT_MS = 30_000;

type Row = Record<string, unknown>;

/**
 * A status line's statement (dictionary SQL) made ready to run: checked as one read-only SELECT,
 * its @variables@ bound as parameters from the caller's context.
 */
export function statusLineStatement(sqlStatement: string, auth: AuthContext): { text: string; values: unknown[] } {
  const tokens = checkFragment(sqlStatement, 'SQLStatement');
  const first = tokens[0]?.text.toLowerCase();
  if (first !== 'select' && first !== 'with' && !(tokens[0]?.text === '(')) throw new FragmentError('SQLStatement: a status line runs one SELECT');
  const sql = new SqlBuilder();
  return { text: bindContext(sqlStatement, auth, sql), values: sql.values };
}

/** The values of the first row of a status line's statement, in column order (none when it has no row). */
async function firstRowValues(q: Queryable, text: string, values: unknown[]): Promise<unknown[]> {
  // json (not jsonb) keeps every column in order, also several without a name ("count" twice).
  const { rows } = await q.query<Row>(
    `SELECT (SELECT json_agg(e.value ORDER BY e.n) FROM json_each(to_json(s)) WITH ORDINALITY AS e(key, value, n)) AS r FROM (${text}) s LIMIT 1`,
    values,
  );
  const r = rows[0]?.r;
  if (!r) return [];
  return (typeof r === 'string' ? JSON.parse(r) : r) as unknown[];
}

/** The message of a status line: its template filled with the first row of its statement, run read-only. */
export async function statusLineMessage(db: Db, auth: AuthContext, line: { sqlStatement: string; template: string }): Promise<string> {
  const { text, values } = statusLineStatement(line.sqlStatement, auth);
  const args = await db.tx(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY');
    await tx.query(`SET LOCAL statement_timeout = ${TIMEOUT_MS}`);
    return firstRowValues(tx, text, values);
  });
  return formatMessage(line.template, args);
}
