import type { Column } from '../dictionary/model.js';
import { notFound } from '../errors.js';
import type { FilterNode, Operand } from '../records/query/filter-ast.js';
import type { ExpandItem } from '../records/query/expand-parser.js';
import type { OrderItem } from '../records/query/orderby-parser.js';
import type { Json, JsonObject } from '../records/serialize.js';
import { validationError } from '../records/write/write-errors.js';
import type { RestView, ViewColumn } from './view-model.js';

/** Keys a view body may carry besides properties (they describe the record, they do not set it). */
const META = new Set(['id', 'uid', 'model-name', 'view-name', 'doc-action', 'tablename', 'identifier']);

/** The view column a property name (or, failing that, a column name) names; undefined when none. */
export function viewColumnOf(view: RestView, name: string): ViewColumn | undefined {
  return view.columns.find((c) => c.name === name) ?? view.columns.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? view.columns.find((c) => c.column.name.toLowerCase() === name.toLowerCase());
}

/** Sets `value` at a dotted path of `out`, creating the objects on the way (pure). */
export function setPath(out: JsonObject, path: string, value: Json): void {
  const parts = path.split('.');
  let at = out;
  for (const p of parts.slice(0, -1)) {
    const next = at[p];
    if (!next || typeof next !== 'object' || Array.isArray(next)) at[p] = {};
    at = at[p] as JsonObject;
  }
  at[parts[parts.length - 1]!] = value;
}

/**
 * A record of the view's table (as the generic serializer writes it, keys by column name) in the
 * view's shape: id, uid, each view column under its property name (dotted names nested), then
 * model-name and view-name. Expanded details (arrays) keep their keys.
 */
export function toViewRecord(view: RestView, record: JsonObject, o: { viewName?: boolean; convert?: (col: ViewColumn, v: Json) => Json } = {}): JsonObject {
  const out: JsonObject = {};
  if (record.id !== undefined) out.id = record.id;
  if (record.uid !== undefined) out.uid = record.uid;
  for (const c of view.columns) {
    const v = record[c.column.name];
    if (v === undefined) continue;
    setPath(out, c.name, o.convert ? o.convert(c, v) : v);
  }
  for (const [k, v] of Object.entries(record)) if (Array.isArray(v)) out[k] = v;
  for (const k of Object.keys(record)) if (k.startsWith('sql-command')) out[k] = record[k]!;
  out['model-name'] = view.table.modelName;
  if (o.viewName !== false) out['view-name'] = view.name;
  return out;
}

/**
 * A view body as the record engine reads it: properties (nested objects flattened along dotted
 * names) become column names. An unknown property is a 400 naming it.
 */
export function fromViewBody(view: RestView, body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const walk = (obj: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (!prefix && META.has(k.toLowerCase())) {
        out[k] = v;
        continue;
      }
      const col = view.columns.find((c) => c.name === path) ?? (prefix ? undefined : viewColumnOf(view, path));
      if (col) {
        out[col.column.name] = v;
        continue;
      }
      const nests = view.columns.some((c) => c.name.startsWith(`${path}.`));
      if (nests && v && typeof v === 'object' && !Array.isArray(v)) {
        walk(v as Record<string, unknown>, path);
        continue;
      }
      throw validationError(`Property ${path} does not exist in view ${view.name}`);
    }
  };
  walk(body as Record<string, unknown>, '');
  return out;
}

function columnName(view: RestView, name: string, forFilter: boolean): string {
  const lower = name.toLowerCase();
  if (forFilter && (lower === 'id' || lower === 'uid')) return name;
  const col = viewColumnOf(view, name);
  if (!col) throw validationError(`Property ${name} does not exist in view ${view.name}`);
  return col.column.name;
}

/** A $filter over view properties turned into one over the table's columns (pure). */
export function mapFilter(view: RestView, node: FilterNode): FilterNode {
  const op = (o: Operand): Operand => {
    if (o.kind === 'column') return { kind: 'column', name: columnName(view, o.name, true) };
    if (o.kind === 'call') return { ...o, arg: op(o.arg) };
    return o;
  };
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, left: mapFilter(view, node.left), right: mapFilter(view, node.right) };
    case 'not':
      return { kind: 'not', expr: mapFilter(view, node.expr) };
    case 'compare':
      return { ...node, left: op(node.left), right: op(node.right) };
    case 'in':
      return { ...node, left: op(node.left), values: node.values.map(op) };
    case 'method':
      return { ...node, target: op(node.target), value: op(node.value) };
  }
}

export const mapOrder = (view: RestView, items: OrderItem[]): OrderItem[] => items.map((i) => ({ ...i, column: columnName(view, i.column, false) }));

/** A $select of view properties: the columns, or all the view's columns when none is named. */
export function mapSelect(view: RestView, select: string[] | undefined): string[] {
  if (!select) return view.columns.map((c) => c.column.name);
  return select.map((s) => columnName(view, s, false));
}

/** Master expansions may name a property; detail tables keep their names. */
export function mapExpand(view: RestView, items: ExpandItem[] | undefined): ExpandItem[] | undefined {
  return items?.map((i) => {
    const col = view.columns.find((c) => c.name === i.name);
    return col ? { ...i, name: col.column.name } : i;
  });
}

/** The view column behind a property path of `/views/{view}/{id}/{property}` (404 otherwise). */
export function propertyColumn(view: RestView, name: string): { viewColumn: ViewColumn; column: Column } {
  const c = viewColumnOf(view, name);
  if (!c) throw notFound('Invalid property name', `${name} is not a property of view ${view.name}`);
  return { viewColumn: c, column: c.column };
}

/**
 * `$select` and `$orderby` name view properties, dotted ones included, which the /models parsers
 * do not take: they are rewritten to column names first (pure; unknown names are left for the
 * parsers and the mapping to refuse).
 */
export function rewriteViewQuery(view: RestView, query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  const name = (n: string) => viewColumnOf(view, n)?.column.name ?? n;
  for (const [k, v] of Object.entries(query)) {
    if (typeof v !== 'string') continue;
    const key = k.toLowerCase();
    if (key === '$select') out[k] = v.split(',').map((p) => name(p.trim())).join(',');
    if (key === '$orderby')
      out[k] = v
        .split(',')
        .map((p) => {
          const [n, ...rest] = p.trim().split(/\s+/);
          return [name(n ?? ''), ...rest].join(' ');
        })
        .join(',');
  }
  return out;
}
