import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Column } from '../../dictionary/model.js';
import { isoNow } from './clock-text.js';

type Row = Record<string, unknown>;

const nowText = (): string => isoNow().slice(0, 19).replace('T', ' ');
const todayText = (): string => `${isoNow().slice(0, 10)} 00:00:00`;

/** Login-context values a default may name with @#Name@. */
export function sessionValue(auth: AuthContext, name: string): unknown {
  return loginValue(auth, sessionKey(name));
}

/** The name of a login-context value as sessionValue looks it up. */
const sessionKey = (name: string): string => name.replace(/^#/, '').toLowerCase();

function loginValue(auth: AuthContext, key: string): unknown {
  switch (key) {
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

/**
 * One alternative of a column's default made ready for new rows of its table: a literal is typed
 * once, a variable's name and login-context key are worked out once (see defaultPlan).
 */
type PlannedAlternative =
  | { kind: 'value'; value: unknown }
  | { kind: 'sysdate'; date: boolean }
  | { kind: 'variable'; name: string; own: boolean; key: string; dateLike: boolean };

interface PlannedDefault {
  col: Column;
  textKey: boolean;
  alternatives: readonly PlannedAlternative[];
}

/** The defaults of a table's new rows, when none of them needs a query (null otherwise). */
export type DefaultPlan = readonly PlannedDefault[] | null;

function planAlternative(alt: Exclude<Alternative, { kind: 'sql' }>, col: Column, textKey: boolean): PlannedAlternative | null {
  if (alt.kind === 'sysdate') return { kind: 'sysdate', date: col.kind === 'date' };
  if (alt.kind === 'variable') return { kind: 'variable', name: alt.name, own: !alt.name.startsWith('#'), key: sessionKey(alt.name), dateLike: col.kind === 'date' || col.kind === 'datetime' };
  // A literal gives the same value on every row; one that gives none is passed over, as defaultWithoutQuery does.
  const value = literal(alt.text, col, textKey);
  return given(value) ? { kind: 'value', value: typed(value, col, textKey) } : null;
}

/**
 * The defaults of `columns` planned once (a statement of a thousand lines applies them to each):
 * null when one of them needs a query, which defaultWithoutQuery and evaluateDefault then run.
 */
export function defaultPlan(columns: readonly Column[], textKeyOf: (col: Column) => boolean): DefaultPlan {
  const plan: PlannedDefault[] = [];
  for (const col of columns) {
    const text = col.defaultValue?.trim();
    if (!text) continue;
    const textKey = textKeyOf(col);
    const alternatives: PlannedAlternative[] = [];
    for (const alt of alternativesOf(text)) {
      if (alt.kind === 'sql') return null;
      const planned = planAlternative(alt, col, textKey);
      if (planned) alternatives.push(planned);
    }
    plan.push({ col, textKey, alternatives });
  }
  return plan;
}

/** A planned default's value for a row, as defaultWithoutQuery gives it (null when none). */
function plannedValue(p: PlannedDefault, row: Row, parent: Row | null, auth: AuthContext): unknown {
  for (const alt of p.alternatives) {
    let value: unknown;
    if (alt.kind === 'value') return alt.value;
    if (alt.kind === 'sysdate') value = alt.date ? todayText() : nowText();
    else {
      value = null;
      if (alt.own) {
        const own = row[alt.name];
        if (own !== undefined && own !== null) value = own;
        else {
          const fromParent = parent?.[alt.name];
          if (fromParent !== undefined && fromParent !== null) value = fromParent;
        }
      }
      if (value === null) value = loginValue(auth, alt.key) ?? null;
      if (value !== null && alt.dateLike && typeof value === 'string' && value.length === 10) value = `${value} 00:00:00`;
    }
    if (given(value)) return typed(value, p.col, p.textKey);
  }
  return null;
}

/**
 * Fills the empty columns of a new row with their planned defaults, in the passes of the
 * record engine (a default naming another column sees that column's own default).
 */
export function applyPlannedDefaults(plan: readonly PlannedDefault[], row: Row, parent: Row | null, auth: AuthContext): void {
  // The first pass takes the columns the row leaves empty; each later one those still without a value.
  let pending = plan;
  for (let pass = 0; pass < 4 && pending.length; pass++) {
    const still: PlannedDefault[] = [];
    let tried = 0;
    for (const p of pending) {
      const current = row[p.col.dbName];
      if (current !== undefined && current !== null) continue;
      tried++;
      const v = plannedValue(p, row, parent, auth);
      if (v !== null && v !== undefined) row[p.col.dbName] = v;
      else still.push(p);
    }
    if (still.length === tried) break;
    pending = still;
  }
}
