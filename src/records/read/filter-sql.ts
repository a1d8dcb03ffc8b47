import { ident, type SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { Column, Table } from '../../dictionary/model.js';
import type { FilterNode, Operand, CompareOp } from '../query/filter-ast.js';
import { parseTemporal } from '../format.js';
import { resolveQueryColumn } from './resolve-column.js';

const TITLE = 'Invalid $filter';
const SQL_OP: Record<CompareOp, string> = { eq: '=', neq: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

interface Ctx {
  table: Table;
  alias: string;
  sql: SqlBuilder;
  title: string;
}

/** A column operand, possibly wrapped in tolower/toupper; returns its SQL and the column typing it. */
function columnExpr(op: Operand, ctx: Ctx): { text: string; column: Column; fn: boolean } | null {
  if (op.kind === 'column') {
    const column = resolveQueryColumn(ctx.table, op.name, ctx.title);
    if (column.columnSql) return { text: `(${column.columnSql})`, column, fn: false };
    return { text: `${ident(ctx.alias)}.${ident(column.dbName)}`, column, fn: false };
  }
  if (op.kind === 'call') {
    const inner = columnExpr(op.arg, ctx);
    if (!inner) throw badRequest(ctx.title, `${op.name}() takes a column`);
    const f = op.name === 'tolower' ? 'lower' : 'upper';
    return { text: `${f}(${inner.text}::text)`, column: inner.column, fn: true };
  }
  return null;
}

const literalText = (op: Operand): string =>
  op.kind === 'string' ? `'${op.value}'` : op.kind === 'number' ? op.raw : op.kind === 'boolean' ? String(op.value) : op.kind === 'null' ? 'null' : '';

/** Converts a literal to the parameter value for a column, or rejects it with a 400. */
function typedValue(op: Operand, column: Column, asText: boolean, title: string): unknown {
  const bad = (why: string) => badRequest(title, `${why} for column ${column.name}: ${literalText(op)}`);
  if (asText) {
    if (op.kind !== 'string') throw bad('Expected a quoted string');
    return op.value;
  }
  switch (column.kind) {
    case 'integer':
    case 'foreign-key':
    case 'record-id':
    case 'image':
      if (op.kind === 'number' && Number.isInteger(op.value)) return op.value;
      if (op.kind === 'string' && /^-?\d+$/.test(op.value.trim())) return Number(op.value);
      throw bad('Expected an integer');
    case 'number':
      if (op.kind === 'number') return op.raw;
      if (op.kind === 'string' && /^-?\d+(\.\d+)?$/.test(op.value.trim())) return op.value.trim();
      throw bad('Expected a number');
    case 'boolean':
      if (op.kind === 'boolean') return op.value ? 'Y' : 'N';
      if (op.kind === 'string' && /^(y|n|true|false)$/i.test(op.value)) return /^(y|true)$/i.test(op.value) ? 'Y' : 'N';
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
  switch (column.kind) {
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
      return `${p}::text`;
  }
}

function compare(node: Extract<FilterNode, { kind: 'compare' }>, ctx: Ctx): string {
  let left = columnExpr(node.left, ctx);
  let right = columnExpr(node.right, ctx);
  let op = node.op;
  let literal = node.right;
  if (!left && right) {
    // 'value' op column: mirror it so the column drives the typing.
    left = right;
    right = null;
    literal = node.left;
    op = ({ gt: 'lt', lt: 'gt', ge: 'le', le: 'ge', eq: 'eq', neq: 'neq' } as const)[op];
  }
  if (!left) throw badRequest(ctx.title, 'A comparison needs a column on at least one side');
  if (right) return `${left.text} ${SQL_OP[op]} ${right.text}`;
  if (literal.kind === 'null') {
    if (op === 'eq') return `${left.text} IS NULL`;
    if (op === 'neq') return `${left.text} IS NOT NULL`;
    throw badRequest(ctx.title, `Operator ${op} cannot be used with null`);
  }
  const value = typedValue(literal, left.column, left.fn, ctx.title);
  return `${left.text} ${SQL_OP[op]} ${placeholder(value, left.column, left.fn, ctx)}`;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function method(node: Extract<FilterNode, { kind: 'method' }>, ctx: Ctx): string {
  const target = columnExpr(node.target, ctx);
  if (!target) throw badRequest(ctx.title, `${node.name}() takes a column as its first argument`);
  if (node.value.kind !== 'string') throw badRequest(ctx.title, `${node.name}() takes a quoted string as its second argument`);
  const v = escapeLike(node.value.value);
  const pattern = node.name === 'contains' ? `%${v}%` : node.name === 'startswith' ? `${v}%` : `%${v}`;
  const text = target.fn ? target.text : `${target.text}::text`;
  return `${text} LIKE ${ctx.sql.param(pattern)} ESCAPE '\\'`;
}

function inList(node: Extract<FilterNode, { kind: 'in' }>, ctx: Ctx): string {
  const left = columnExpr(node.left, ctx);
  if (!left) throw badRequest(ctx.title, 'in needs a column on its left');
  if (node.values.length === 0) return 'FALSE';
  const items = node.values.map((v) => {
    if (v.kind === 'column' || v.kind === 'call') throw badRequest(ctx.title, 'in takes a list of values');
    if (v.kind === 'null') throw badRequest(ctx.title, 'in cannot hold null; use eq null');
    return placeholder(typedValue(v, left.column, left.fn, ctx.title), left.column, left.fn, ctx);
  });
  return `${left.text} IN (${items.join(', ')})`;
}

/** Renders a filter tree as a parameterised SQL condition over one table alias. */
export function filterToSql(node: FilterNode, table: Table, alias: string, sql: SqlBuilder, title = TITLE): string {
  const ctx: Ctx = { table, alias, sql, title };
  const walk = (n: FilterNode): string => {
    switch (n.kind) {
      case 'and':
        return `(${walk(n.left)} AND ${walk(n.right)})`;
      case 'or':
        return `(${walk(n.left)} OR ${walk(n.right)})`;
      case 'not':
        return `NOT (${walk(n.expr)})`;
      case 'compare':
        return compare(n, ctx);
      case 'in':
        return inList(n, ctx);
      case 'method':
        return method(n, ctx);
    }
  };
  return walk(node);
}

/** Whether a filter names IsActive (then list reads stop adding their own active-only rule). */
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
      return op(node.left);
    case 'method':
      return op(node.target);
  }
}
