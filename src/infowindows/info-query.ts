import type { AuthContext } from '../auth/context.js';
import { readPredicate } from '../access/access.js';
import { ident, SqlBuilder } from '../db/sql.js';
import { columnKind, IMPLICIT_LOOKUP_TABLE, type ColumnKind } from '../dictionary/display-type.js';
import type { Dictionary, LookupTarget, Reference, Table } from '../dictionary/model.js';
import { badRequest } from '../errors.js';
import type { OrderItem } from '../records/query/orderby-parser.js';
import { identifierSql } from '../records/read/select-list.js';
import { parseTemporal } from '../records/format.js';
import { bindContext } from '../sql-fragments/context-variables.js';
import { fromTables } from '../sql-fragments/fragment-check.js';
import { assertFromAccess } from '../sql-fragments/fragment-access.js';
import type { InfoColumnDef, InfoWindowDef } from './info-window.js';
import type { InfoParameter, Scalar } from './info-parameters.js';

/** One property of the records an info window answers. */
export interface InfoOutput {
  name: string;
  label: string;
  kind: ColumnKind;
  /** Result column of the value, and of the lookup's identifier when it has one. */
  alias: string;
  identAlias: string | null;
  list: Reference | null;
}

export interface InfoQuery {
  page: { text: string; values: unknown[] };
  count: { text: string; values: unknown[] };
  outputs: InfoOutput[];
}

export interface InfoQueryOptions {
  parameters: InfoParameter[];
  orderBy?: OrderItem[];
  page: number;
  pageSize: number;
}

const PARAMS = 'Invalid $parameters';
const ORDER = 'Invalid $orderBy';

/** A column's SQL expression: its select clause without a trailing "AS name". */
export function columnExpr(c: InfoColumnDef): string {
  return c.selectClause.replace(/\s+AS\s+"?[A-Za-z_][A-Za-z0-9_]*"?\s*$/i, '').trim();
}

/** Where a lookup column of an info window points: its table reference, the implicit table of its type, or <Name>_ID's table. */
export function infoLookup(dict: Dictionary, c: InfoColumnDef): { target: Table; lookup: LookupTarget } | null {
  let lookup: LookupTarget | null = null;
  if (c.referenceValueId !== null) lookup = dict.references.get(c.referenceValueId)?.table ?? null;
  if (!lookup) {
    const name = IMPLICIT_LOOKUP_TABLE[c.referenceId] ?? c.columnName.replace(/_ID$/i, '');
    const t = dict.byName.get(name.toLowerCase());
    if (t?.keyColumn) lookup = { tableName: t.name, keyColumn: t.keyColumn.name, displayColumn: null, whereClause: null };
  }
  const target = lookup ? dict.byName.get(lookup.tableName.toLowerCase()) : undefined;
  return target && lookup ? { target, lookup } : null;
}

/** A request value as a typed placeholder for a column of `kind` (400 when it cannot be one). */
function typedParam(sql: SqlBuilder, kind: ColumnKind, v: Scalar, column: string, textKey = false): string {
  const wrong = (what: string) => badRequest(PARAMS, `The value of ${column} must be ${what}`);
  switch (kind) {
    case 'boolean': {
      const t = String(v).toLowerCase();
      if (t === 'true' || t === 'y') return sql.param('Y');
      if (t === 'false' || t === 'n') return sql.param('N');
      throw wrong('true or false');
    }
    case 'integer':
    case 'record-id':
    case 'foreign-key': {
      const t = String(v).trim();
      if (textKey && String(v).length <= 200) return `${sql.param(String(v))}::text`;
      if (/^-?\d{1,15}$/.test(t)) return `${sql.param(Number(t))}::bigint`;
      throw wrong('an id');
    }
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,20}(\.\d{1,12})?$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isFinite(n)) throw wrong('a number');
      return `${sql.param(String(n))}::numeric`;
    }
    case 'date':
    case 'datetime':
    case 'timestamptz': {
      const t = typeof v === 'string' ? parseTemporal(v) : null;
      if (!t) throw wrong('a date (YYYY-MM-DD) or a date and time');
      return `${sql.param(t)}::${kind === 'date' ? 'date' : kind === 'timestamptz' ? 'timestamptz' : 'timestamp'}`;
    }
    default:
      if (String(v).length > 1000) throw wrong('at most 1000 characters long');
      return `${sql.param(String(v))}::text`;
  }
}

const TEXT_KINDS = new Set<ColumnKind>(['string', 'list', 'button']);
const OPERATORS = new Set(['=', '!=', '<', '<=', '>', '>=']);

/** The condition one `$parameters` entry adds: the column's query function and operator applied, or a range. */
function parameterCondition(dict: Dictionary, sql: SqlBuilder, auth: AuthContext, c: InfoColumnDef, p: InfoParameter): string | null {
  const base = columnExpr(c);
  if (base === '0' || base === '') return null;
  const kind = columnKind(c.referenceId, c.columnName);
  const key = kind === 'foreign-key' ? infoLookup(dict, c) : null;
  const textKey = !!key && (key.target.byName.get(key.lookup.keyColumn.toLowerCase())?.kind ?? 'integer') !== 'integer';
  const typed = (v: Scalar) => typedParam(sql, kind, v, c.columnName, textKey);
  let expr = `(${bindContext(base, auth, sql)})`;
  let upper = false;
  if (c.queryFunction) {
    const fn = bindContext(c.queryFunction, auth, sql);
    expr = fn.includes('?') ? fn.replace('?', expr) : `${fn}(${expr})`;
    upper = /^\s*upper\s*\(/i.test(expr);
  }
  const wrap = (placeholder: string) => (upper ? `UPPER(${placeholder})` : placeholder);
  if (typeof p.value === 'object') {
    const parts: string[] = [];
    if (p.value.from !== null) parts.push(`${expr} >= ${wrap(typed(p.value.from))}`);
    if (p.value.to !== null) parts.push(`${expr} <= ${wrap(typed(p.value.to))}`);
    return `(${parts.join(' AND ')})`;
  }
  const op = c.queryOperator ?? '=';
  if (op === 'Like' || op === 'LIKE') {
    // "Like" matches a prefix, "LIKE" (Full Like) anywhere, as the original's info windows do.
    let text = String(p.value);
    if (op === 'LIKE' && !text.startsWith('%')) text = `%${text}`;
    if (!text.endsWith('%')) text = `${text}%`;
    if (text.length > 1000) throw badRequest(PARAMS, `The value of ${c.columnName} must be at most 1000 characters long`);
    const target = TEXT_KINDS.has(kind) ? expr : `(${expr})::text`;
    return `${target} LIKE ${wrap(`${sql.param(text)}::text`)}`;
  }
  return `${expr} ${OPERATORS.has(op) ? op : '='} ${wrap(typed(p.value))}`;
}

function findColumn(w: InfoWindowDef, name: string): InfoColumnDef | undefined {
  const lower = name.toLowerCase();
  return w.columns.find((c) => c.columnName.toLowerCase() === lower);
}

/**
 * The statements of one page of an info window: its FROM clause, its key and displayed columns
 * (lookups with their identifiers), its WHERE clause, access rules on every table the FROM clause
 * names, active rows of its table, and the request's conditions and order. Only dictionary SQL
 * reaches the text; request values are parameters and request column names pick columns.
 */
export function planInfoQuery(dict: Dictionary, auth: AuthContext, w: InfoWindowDef, o: InfoQueryOptions): InfoQuery {
  const sql = new SqlBuilder();
  const tables = fromTables(w.fromClause);
  assertFromAccess(dict, auth, tables);
  const main = tables.find((t) => t.table === w.table.dbName) ?? tables[0];
  if (!main) throw badRequest('Invalid info window', `The info window ${w.name} has no table to read`);
  const mainAlias = ident(main.alias);
  const from = bindContext(w.fromClause, auth, sql);

  const items: string[] = [];
  const outputs: InfoOutput[] = [];
  const key = w.table.keyColumn;
  const keyExpr = key ? `${mainAlias}.${ident(key.dbName)}` : null;
  if (key && keyExpr) {
    items.push(`${keyExpr} AS "c0"`);
    outputs.push({ name: key.name, label: key.label, kind: 'integer', alias: 'c0', identAlias: null, list: null });
  }
  w.columns.forEach((c, i) => {
    if (!c.isDisplayed) return;
    const base = columnExpr(c);
    if (c.referenceId === 13 && keyExpr && base.toLowerCase() === `${main.alias}.${key!.dbName}`) return;
    if (base === '') return;
    const kind = columnKind(c.referenceId, c.columnName);
    const alias = `c${i + 1}`;
    const expr = `(${bindContext(base, auth, sql)})`;
    items.push(`${expr} AS "${alias}"`);
    let identAlias: string | null = null;
    if (kind === 'foreign-key') {
      const l = infoLookup(dict, c);
      const ident = l && identifierSql(dict, l.target, l.lookup.keyColumn, expr, l.lookup.displayColumn);
      if (ident) {
        identAlias = `${alias}$i`;
        items.push(`${ident} AS "${identAlias}"`);
      }
    }
    const list = kind === 'list' && c.referenceValueId !== null ? (dict.references.get(c.referenceValueId) ?? null) : null;
    outputs.push({ name: c.columnName, label: c.name, kind, alias, identAlias, list });
  });

  const where: string[] = [];
  if (w.whereClause) where.push(`(${bindContext(w.whereClause, auth, sql)})`);
  for (const t of tables) {
    const table = dict.byName.get(t.table);
    if (table) where.push(readPredicate(auth, table, t.alias, sql));
  }
  if (w.table.byName.has('isactive')) where.push(`${mainAlias}."isactive" = 'Y'`);
  for (const p of o.parameters) {
    const c = findColumn(w, p.column);
    if (!c) throw badRequest(PARAMS, `${p.column} is not a column of the info window ${w.name}`);
    const cond = parameterCondition(dict, sql, auth, c, p);
    if (cond) where.push(cond);
  }
  const distinct = w.isDistinct ? 'DISTINCT ' : '';
  const body = `SELECT ${distinct}${items.join(', ')} FROM ${from} WHERE ${where.length ? where.join(' AND ') : 'TRUE'}`;
  const count = { text: `SELECT count(*) AS n FROM (${body}) q`, values: [...sql.values] };

  const order: string[] = [];
  for (const item of o.orderBy ?? []) {
    const c = findColumn(w, item.column);
    const out = c ? outputs.find((x) => x.name === c.columnName) : key && item.column.toLowerCase() === key.name.toLowerCase() ? outputs[0] : undefined;
    if (!c && !out) throw badRequest(ORDER, `${item.column} is not a column of the info window ${w.name}`);
    const dir = item.direction.toUpperCase();
    if (w.isDistinct || !c) {
      if (!out) throw badRequest(ORDER, `${item.column} is not shown by the info window ${w.name}, so its rows cannot be ordered by it`);
      order.push(`"${out.alias}" ${dir}`);
    } else order.push(`(${bindContext(columnExpr(c), auth, sql)}) ${dir}`);
  }
  if (!o.orderBy?.length && w.orderByClause && !w.isDistinct) order.push(bindContext(w.orderByClause, auth, sql));
  if (outputs.length) order.push(`"${outputs[0]!.alias}"`);
  const offset = (o.page - 1) * o.pageSize;
  // One row more than a page tells whether another page follows.
  const page = { text: `${body}${order.length ? ` ORDER BY ${order.join(', ')}` : ''} LIMIT ${sql.param(o.pageSize + 1)} OFFSET ${sql.param(offset)}`, values: sql.values };
  return { page, count, outputs };
}
