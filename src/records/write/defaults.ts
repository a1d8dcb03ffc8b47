import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Column } from '../../dictionary/model.js';
import { isoNow } from './clock-text.js';

type Row = Record<string, unknown>;

const nowText = (): string => isoNow().slice(0, 19).replace('T', ' ');
const todayText = (): string => `${isoNow().slice(0, 10)} 00:00:00`;

/** Login-context values a default may name with @#Name@. */
export function sessionValue(auth: AuthContext, name: string): unknown {
  switch (name.replace(/^#/, '').toLowerCase()) {
    case 'ad_client_id':
      return auth.clientId;
    case 'ad_org_id':
      return auth.orgId;
    case 'ad_user_id':
    case 'salesrep_id':
      return auth.userId;
    case 'ad_role_id':
      return auth.roleId;
    case 'm_warehouse_id':
      return auth.warehouseId || null;
    case 'ad_language':
      return auth.language;
    case 'date':
      return todayText();
    default:
      return undefined;
  }
}

/** A variable's value: the record's own columns, then its parent's, then the login context. */
function variable(name: string, row: Row, parent: Row | null, auth: AuthContext): unknown {
  if (!name.startsWith('#')) {
    const own = row[name.toLowerCase()];
    if (own !== undefined && own !== null) return own;
    const fromParent = parent?.[name.toLowerCase()];
    if (fromParent !== undefined && fromParent !== null) return fromParent;
  }
  const s = sessionValue(auth, name);
  return s === undefined ? null : s;
}

function literal(text: string, col: Column, textKey: boolean): unknown {
  const unquoted = /^'(.*)'$/s.exec(text)?.[1] ?? /^"(.*)"$/s.exec(text)?.[1] ?? text;
  if (textKey) return unquoted;
  if (col.kind === 'integer' || col.kind === 'foreign-key' || col.kind === 'record-id' || col.kind === 'number') {
    const n = Number(unquoted);
    return unquoted !== '' && Number.isFinite(n) ? n : null;
  }
  if (col.kind === 'boolean') return unquoted === 'Y' || unquoted === 'true' ? 'Y' : unquoted === 'N' || unquoted === 'false' ? 'N' : null;
  return unquoted;
}

/** One alternative of a default, parsed: a query, SYSDATE, a @variable@ or a literal. */
type Alternative = { kind: 'sql'; text: string } | { kind: 'sysdate' } | { kind: 'variable'; name: string } | { kind: 'literal'; text: string };

/** A default's alternatives, parsed once per default text. */
const ALTERNATIVES = new Map<string, readonly Alternative[]>();

function parseAlternative(alt: string): Alternative {
  if (alt.startsWith('@SQL=')) return { kind: 'sql', text: alt };
  if (/^sysdate$/i.test(alt)) return { kind: 'sysdate' };
  if (/^@#?\w+@$/.test(alt)) return { kind: 'variable', name: alt.slice(1, -1).toLowerCase() };
  return { kind: 'literal', text: alt };
}

function alternativesOf(text: string): readonly Alternative[] {
  let alts = ALTERNATIVES.get(text);
  if (!alts) {
    alts = (text.startsWith('@SQL=') ? [text] : text.split(';').map((t) => t.trim()).filter(Boolean)).map(parseAlternative);
    ALTERNATIVES.set(text, alts);
  }
  return alts;
}

/** The value of one alternative that needs no query. */
function alternativeValue(alt: Exclude<Alternative, { kind: 'sql' }>, col: Column, row: Row, parent: Row | null, auth: AuthContext, textKey: boolean): unknown {
  if (alt.kind === 'sysdate') return col.kind === 'date' ? todayText() : nowText();
  if (alt.kind === 'variable') {
    const value = variable(alt.name, row, parent, auth);
    if (value !== null && (col.kind === 'date' || col.kind === 'datetime') && typeof value === 'string' && value.length === 10) return `${value} 00:00:00`;
    return value;
  }
  return literal(alt.text, col, textKey);
}

const given = (value: unknown): boolean => value !== null && value !== undefined && value !== '';

/** A default's value in the column's type. */
function typed(value: unknown, col: Column, textKey: boolean): unknown {
  if (textKey) return String(value);
  if (col.kind === 'integer' || col.kind === 'foreign-key' || col.kind === 'record-id') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return value;
}

/** What defaultWithoutQuery answers when the default must run a query (evaluateDefault then). */
export const NEEDS_QUERY: unique symbol = Symbol('the default needs a query');

/**
 * A column's default when no query is needed to know it (most are literals, variables or
 * SYSDATE): new records of many lines evaluate it per line and column, so it stays synchronous.
 */
export function defaultWithoutQuery(col: Column, row: Row, parent: Row | null, auth: AuthContext, textKey = false): unknown {
  const text = col.defaultValue?.trim();
  if (!text) return null;
  for (const alt of alternativesOf(text)) {
    if (alt.kind === 'sql') return NEEDS_QUERY;
    const value = alternativeValue(alt, col, row, parent, auth, textKey);
    if (given(value)) return typed(value, col, textKey);
  }
  return null;
}

/**
 * Evaluates a column's dictionary default for a new record: alternatives separated by ';'
 * are tried in order until one gives a value. Forms: @SQL=<query> (run with @variables@ as
 * parameters), @Variable@ / @#Variable@, SYSDATE, and literals.
 */
export async function evaluateDefault(q: Queryable, col: Column, row: Row, parent: Row | null, auth: AuthContext, textKey = false): Promise<unknown> {
  const text = col.defaultValue?.trim();
  if (!text) return null;
  for (const alt of alternativesOf(text)) {
    let value: unknown;
    if (alt.kind === 'sql') {
      const params: unknown[] = [];
      const sql = alt.text.slice(5).replace(/@(#?\w+)@/g, (_m, name: string) => {
        params.push(variable(name, row, parent, auth));
        return `$${params.length}`;
      });
      const { rows } = await q.query<Record<string, unknown>>(sql, params);
      const first = rows[0];
      value = first ? (Object.values(first)[0] ?? null) : null;
    } else value = alternativeValue(alt, col, row, parent, auth, textKey);
    if (given(value)) return typed(value, col, textKey);
  }
  return null;
}
