import { badRequest } from '../../errors.js';
import type { FilterNode } from '../query/filter-ast.js';
import { parseFilter } from '../query/filter-parser.js';
import { parseOrderByLenient, type OrderItem } from '../query/orderby-parser.js';
import { parseSelect } from '../query/select-parser.js';
import { parseExpand, type ExpandItem } from '../query/expand-parser.js';
import { parseContext } from '../query/context-parser.js';
import { parseSkip, parseTop } from '../query/paging.js';

export type ShowSql = false | 'yes' | 'nodata';

/** The read options of one request, parsed (pure) from its query string. */
export interface ReadOptions {
  filter?: FilterNode;
  orderby?: OrderItem[];
  select?: string[];
  expand?: ExpandItem[];
  top: number;
  skip: number;
  valrule?: string;
  context: Map<string, string>;
  label?: FilterNode;
  /** undefined: no labels; [] : Name and Description objects; [one]: values; [several]: objects. */
  showLabel?: string[];
  showSql: ShowSql;
  /** The text of `$rowcount`, read with the Prefer header by the route (see count-preference). */
  rowcount?: string;
  /** Exact (the default) or the planner's estimate above `estimateAbove` rows. */
  count?: { mode: 'exact' | 'estimated'; estimateAbove: number };
  /** Parts of options left out as the original leaves them out (`$orderby=<entry>`), for the caller to report. */
  ignored: string[];
}

export function parseReadOptions(query: Record<string, unknown>, maxTop: number, expandSeparator = ';'): ReadOptions {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    // Unknown parameters are not this parser's concern: the HTTP layer reports them as ignored.
    const key = k.toLowerCase();
    if (Array.isArray(v)) throw badRequest('Invalid query', `Query option ${k} is given more than once`);
    q[key] = String(v ?? '');
  }
  const opts: ReadOptions = {
    top: parseTop(q.$top, maxTop, maxTop),
    skip: parseSkip(q.$skip),
    context: q.$context ? parseContext(q.$context) : new Map(),
    showSql: q.showsql === undefined ? false : q.showsql.toLowerCase() === 'nodata' ? 'nodata' : 'yes',
    ignored: [],
  };
  if (q.$filter !== undefined && q.$filter.trim() !== '') opts.filter = parseFilter(q.$filter);
  if (q.$orderby !== undefined && q.$orderby.trim() !== '') {
    const { items, ignored } = parseOrderByLenient(q.$orderby);
    if (items.length) opts.orderby = items;
    opts.ignored.push(...ignored.map((e) => `$orderby=${e}`));
  }
  if (q.$select !== undefined && q.$select.trim() !== '') opts.select = parseSelect(q.$select);
  if (q.$expand !== undefined && q.$expand.trim() !== '') opts.expand = parseExpand(q.$expand, expandSeparator);
  if (q.$rowcount !== undefined) opts.rowcount = q.$rowcount;
  if (q.$valrule !== undefined && q.$valrule.trim() !== '') opts.valrule = q.$valrule.trim();
  if (q.label !== undefined && q.label.trim() !== '') opts.label = parseFilter(q.label, 'label');
  if (q.showlabel !== undefined) opts.showLabel = q.showlabel.trim() === '' ? [] : parseSelect(q.showlabel);
  return opts;
}
