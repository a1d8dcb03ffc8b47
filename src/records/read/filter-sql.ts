import { ident, type SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { hasTextKey } from '../reference-key.js';
import type { ColumnKind } from '../../dictionary/display-type.js';
import type { FilterNode, Operand, CompareOp } from '../query/filter-ast.js';
import { parseTemporal } from '../format.js';
import { findQueryColumn, resolveQueryColumn } from './resolve-column.js';
import { sqlType } from '../../dictionary/ddl.js';

const TITLE = 'Invalid $filter';
const SQL_OP: Record<CompareOp, string> = { eq: '=', neq: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };
const MIRROR: Record<CompareOp, CompareOp> = { gt: 'lt', lt: 'gt', ge: 'le', le: 'ge', eq: 'eq', neq: 'neq' };

export interface FilterSqlOptions {
  /**
   * Write `startswith(col,'p')` as the range `col >= 'p' AND col < 'p\u{…}'`, which a plain
   * b-tree index serves. Only valid when the database compares text byte-wise (C collation).
   */
  prefixRange?: boolean;
  /** Title of the 400 errors ("Invalid $filter", "Invalid label"). */
  title?: string;
  /** The dictionary, to type references whose keys are text (EntityType, AD_Language). */
  dict?: Dictionary;
}

interface Ctx {
  table: Table;
  alias: string;
  sql: SqlBuilder;
  title: string;
  prefixRange: boolean;
  dict: Dictionary | undefined;
}

interface ColumnSql {
  text: string;
  column: Column;
  /** Wrapped in tolower/toupper: the expression is text whatever the column is. */
  fn: boolean;
}

/** How values of a column kind compare: columns of different families cannot be compared. */
type Family = 'text' | 'numeric' | 'boolean' | 'temporal' | 'binary';

/** The kind a column's values compare as: a reference with text keys compares as text. */
function valueKind(column: Column, ctx: Ctx): ColumnKind {
  return column.kind === 'foreign-key' && ctx.dict && hasTextKey(ctx.dict, column) ? 'string' : column.kind;
}

function family(kind: ColumnKind): Family {
  switch (kind) {
    case 'integer':
    case 'number':
    case 'foreign-key':
    case 'record-id':
    case 'image':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'datetime':
    case 'time':
    case 'timestamptz':
      return 'temporal';
    case 'binary':
      return 'binary';
    default:
      return 'text';
  }
}

/** Kinds whose stored type has no comparison with a text parameter: compared as their text. */
const TEXT_COMPARED = new Set<ColumnKind>(['json', 'binary']);

/** A column operand, possibly wrapped in tolower/toupper; returns its SQL and the column typing it. */
function columnExpr(op: Operand, ctx: Ctx): ColumnSql | null {
  if (op.kind === 'column') {
    const column = resolveQueryColumn(ctx.table, op.name, ctx.title);
    const base = column.columnSql ? `(${column.columnSql})` : `${ident(ctx.alias)}.${ident(column.dbName)}`;
    if (TEXT_COMPARED.has(column.kind)) return { text: `${base}::text`, column, fn: true };
    return { text: base, column, fn: false };
  }
  if (op.kind === 'call') {
    const inner = columnExpr(op.arg, ctx);
    if (!inner) throw badRequest(ctx.title, `${op.name}() takes a column`);
    const f = op.name === 'tolower' ? 'lower' : 'upper';
    return { text: `${f}(${inner.text}::text)`, column: inner.column, fn: true };
  }
  return null;
}

const literalText = (op: Operand): string => {
  const s = op.kind === 'string' ? `'${op.value}'` : op.kind === 'number' ? op.raw : op.kind === 'boolean' ? String(op.value) : op.kind === 'null' ? 'null' : '';
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
};

const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;

/** Converts a literal to the parameter value for a column, or rejects it with a 400. */
function typedValue(op: Operand, column: Column, asText: boolean, ctx: Ctx): unknown {
  const title = ctx.title;
  const bad = (why: string) => badRequest(title, `${why} for column ${column.name}: ${literalText(op)}`);
  if (asText) {
    if (op.kind !== 'string') throw bad('Expected a quoted string');
    return op.value;
  }
  switch (valueKind(column, ctx)) {
    case 'integer':
    case 'foreign-key':
    case 'record-id':
    case 'image':
      if (op.kind === 'number' && INTEGER.test(op.raw)) return Number(op.raw);
      if (op.kind === 'string' && INTEGER.test(op.value.trim())) return Number(op.value.trim());
      throw bad('Expected an integer');
    case 'number':
      if (op.kind === 'number' && DECIMAL.test(op.raw)) return op.raw;
      if (op.kind === 'string' && DECIMAL.test(op.value.trim())) return op.value.trim();
      throw bad('Expected a number');
    case 'boolean':
      if (op.kind === 'boolean') return op.value ? 'Y' : 'N';
      if (op.kind === 'string' && /^(y|n|true|false)$/i.test(op.value.trim())) return /^(y|true)$/i.test(op.value.trim()) ? 'Y' : 'N';
      throw bad('Expected true or false');
    case 'date':
    case 'datetime':
    case 'time':
    case 'timestamptz': {
      if (op.kind !== 'string') throw bad('Expected a quoted date');
      const v = parseTemporal(op.value);
      if (!v) throw bad('Invalid date');
      return v;
    }
    default:
      if (op.kind !== 'string') {
        throw badRequest(title, `String values must be put between single quotes. ColumnName: ${column.name}`);
      }
      return op.value;
  }
}

function placeholder(value: unknown, column: Column, asText: boolean, ctx: Ctx): string {
  const p = ctx.sql.param(value);
  if (asText) return `${p}::text`;
  switch (valueKind(column, ctx)) {
    case 'date':
    case 'datetime':
    case 'time':
      return `${p}::timestamp`;
    case 'timestamptz':
      return `${p}::timestamptz`;
    case 'number':
      return `${p}::numeric`;
    case 'integer':
    case 'foreign-key':
    case 'record-id':
    case 'image':
      return `${p}::bigint`;
    default:
      // A char(1) column (Yes-No, one-letter lists) compared with text would be cast to text,
      // which hides the column's statistics from the planner: compare it as char instead.
      return !column.columnSql && sqlType(column) === 'char(1)' ? `${p}::bpchar` : `${p}::text`;
  }
}

/** A bare Y or N: a Yes-No value when it faces a Yes-No column and no column has that name. */
const YES_NO_WORD = /^[YN]$/i;

/**
 * The operand as the planner reads it. An unquoted `Y` or `N` is a column name to the parser; the
 * original binds it as true / false when the column it is compared with is Yes-No
 * (`IsSelfService eq Y`), so it is one here too, unless the table has a column of that name.
 */
function yesNoWordAsValue(op: Operand, facing: Column | undefined, ctx: Ctx): Operand {
  if (op.kind !== 'column' || !YES_NO_WORD.test(op.name) || !facing || ctx.table.byName.has(op.name.toLowerCase())) return op;
  return valueKind(facing, ctx) === 'boolean' ? { kind: 'boolean', value: op.name.toUpperCase() === 'Y' } : op;
}

/** The column a plain (unwrapped) column operand names, if it names a filterable one. */
const plainColumn = (op: Operand, ctx: Ctx): Column | undefined => (op.kind === 'column' ? findQueryColumn(ctx.table, op.name) : undefined);

function compare(node: Extract<FilterNode, { kind: 'compare' }>, ctx: Ctx): string {
  const leftOp = yesNoWordAsValue(node.left, plainColumn(node.right, ctx), ctx);
  const rightOp = yesNoWordAsValue(node.right, plainColumn(node.left, ctx), ctx);
  let left = columnExpr(leftOp, ctx);
  let right = columnExpr(rightOp, ctx);
  let op = node.op;
  let literal = rightOp;
  if (!left && right) {
    // 'value' op column: mirror it so the column drives the typing.
    left = right;
    right = null;
    literal = leftOp;
    op = MIRROR[op];
  }
  if (!left) throw badRequest(ctx.title, 'A comparison needs a column on at least one side');
  if (right) {
    if (left.fn || right.fn) return `${left.fn ? left.text : `${left.text}::text`} ${SQL_OP[op]} ${right.fn ? right.text : `${right.text}::text`}`;
    if (family(valueKind(left.column, ctx)) !== family(valueKind(right.column, ctx))) {
      throw badRequest(ctx.title, `Columns ${left.column.name} and ${right.column.name} have different types and cannot be compared`);
    }
    return `${left.text} ${SQL_OP[op]} ${right.text}`;
  }
  if (literal.kind === 'null') {
    if (op === 'eq') return `${left.text} IS NULL`;
    if (op === 'neq') return `${left.text} IS NOT NULL`;
    throw badRequest(ctx.title, `Operator ${op} cannot be used with null`);
  }
  if (literal.kind === 'call') throw badRequest(ctx.title, `${literal.name}() takes a column`);
  const value = typedValue(literal, left.column, left.fn, ctx);
  return `${left.text} ${SQL_OP[op]} ${placeholder(value, left.column, left.fn, ctx)}`;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The smallest string above every string starting with `prefix` (C collation), or null. */
export function prefixUpperBound(prefix: string): string | null {
  const chars = [...prefix];
  const last = chars.pop();
  if (last === undefined) return null;
  const cp = last.codePointAt(0)!;
  // Stay clear of surrogates and the top of the code space; LIKE serves those rare prefixes.
  if (cp >= 0xd7ff) return null;
  return chars.join('') + String.fromCodePoint(cp + 1);
}

function method(node: Extract<FilterNode, { kind: 'method' }>, ctx: Ctx): string {
  const target = columnExpr(node.target, ctx);
  if (!target) throw badRequest(ctx.title, `${node.name}() takes a column as its first argument`);
  if (node.value.kind !== 'string') throw badRequest(ctx.title, `${node.name}() takes a quoted string as its second argument`);
  const text = target.fn ? target.text : `${target.text}::text`;
  if (node.name === 'startswith' && ctx.prefixRange) {
    const hi = prefixUpperBound(node.value.value);
    if (hi !== null && !node.value.value.includes('\u0000')) {
      return `(${text} >= ${ctx.sql.param(node.value.value)}::text AND ${text} < ${ctx.sql.param(hi)}::text)`;
    }
  }
  const v = escapeLike(node.value.value);
  const pattern = node.name === 'contains' ? `%${v}%` : node.name === 'startswith' ? `${v}%` : `%${v}`;
  return `${text} LIKE ${ctx.sql.param(pattern)} ESCAPE '\\'`;
}

function inList(node: Extract<FilterNode, { kind: 'in' }>, ctx: Ctx): string {
  const left = columnExpr(node.left, ctx);
  if (!left) throw badRequest(ctx.title, 'in needs a column on its left');
  const items = node.values.map((value) => {
    const v = left.fn ? value : yesNoWordAsValue(value, left.column, ctx);
    if (v.kind === 'column' || v.kind === 'call') throw badRequest(ctx.title, 'in takes a list of values');
    if (v.kind === 'null') throw badRequest(ctx.title, 'in cannot hold null; use eq null');
    return placeholder(typedValue(v, left.column, left.fn, ctx), left.column, left.fn, ctx);
  });
  return `${left.text} IN (${items.join(', ')})`;
}

/** The database stores no NUL character in text: a value holding one can match nothing and is refused. */
function checkText(op: Operand, ctx: Ctx): void {
  if (op.kind === 'string' && op.value.includes('\u0000')) throw badRequest(ctx.title, 'Text values cannot contain the NUL character');
  if (op.kind === 'call') checkText(op.arg, ctx);
}

/** Renders a filter tree as a parameterised SQL condition over one table alias. */
export function filterToSql(node: FilterNode, table: Table, alias: string, sql: SqlBuilder, o: FilterSqlOptions | string = {}): string {
  const opts = typeof o === 'string' ? { title: o } : o;
  const ctx: Ctx = { table, alias, sql, title: opts.title ?? TITLE, prefixRange: opts.prefixRange ?? false, dict: opts.dict };
  const walk = (n: FilterNode): string => {
    switch (n.kind) {
      case 'and':
        return `(${walk(n.left)} AND ${walk(n.right)})`;
      case 'or':
        return `(${walk(n.left)} OR ${walk(n.right)})`;
      case 'not':
        return `NOT (${walk(n.expr)})`;
      case 'compare':
        checkText(n.left, ctx);
        checkText(n.right, ctx);
        return compare(n, ctx);
      case 'in':
        n.values.forEach((v) => checkText(v, ctx));
        return inList(n, ctx);
      case 'method':
        checkText(n.value, ctx);
        return method(n, ctx);
    }
  };
  return walk(node);
}

/** Whether a filter names a column (list reads stop adding their own active-only rule when it names IsActive). */
export function mentionsColumn(node: FilterNode | undefined, name: string): boolean {
  if (!node) return false;
  const op = (o: Operand): boolean => (o.kind === 'column' ? o.name.toLowerCase() === name : o.kind === 'call' ? op(o.arg) : false);
  switch (node.kind) {
    case 'and':
    case 'or':
      return mentionsColumn(node.left, name) || mentionsColumn(node.right, name);
    case 'not':
      return mentionsColumn(node.expr, name);
    case 'compare':
      return op(node.left) || op(node.right);
    case 'in':
      return op(node.left) || node.values.some(op);
    case 'method':
      return op(node.target) || op(node.value);
  }
}
