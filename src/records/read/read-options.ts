import { badRequest } from '../../errors.js';
import type { FilterNode } from '../query/filter-ast.js';
import { parseFilter } from '../query/filter-parser.js';
import { parseOrderBy, type OrderItem } from '../query/orderby-parser.js';
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
}

const KNOWN = new Set(['$filter', '$orderby', '$select', '$expand', '$top', '$skip', '$valrule', '$context', 'label', 'showlabel', 'showsql', 'locale', '$report_type']);

export function parseReadOptions(query: Record<string, unknown>, maxTop: number, expandSeparator = ';'): ReadOptions {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const key = k.startsWith('$') ? k.toLowerCase() : k.toLowerCase();
    if (Array.isArray(v)) throw badRequest('Invalid query', `Query option ${k} is given more than once`);
    q[key] = String(v ?? '');
    if (!KNOWN.has(key) && k.startsWith('$')) throw badRequest('Invalid query', `Unknown query option: ${k}`);
  }
  const opts: ReadOptions = {
    top: parseTop(q.$top, maxTop, maxTop),
    skip: parseSkip(q.$skip),
    context: q.$context ? parseContext(q.$context) : new Map(),
    showSql: q.showsql === undefined ? false : q.showsql.toLowerCase() === 'nodata' ? 'nodata' : 'yes',
  };
  if (q.$filter !== undefined && q.$filter.trim() !== '') opts.filter = parseFilter(q.$filter);
  if (q.$orderby !== undefined && q.$orderby.trim() !== '') opts.orderby = parseOrderBy(q.$orderby);
  if (q.$select !== undefined && q.$select.trim() !== '') opts.select = parseSelect(q.$select);
  if (q.$expand !== undefined && q.$expand.trim() !== '') opts.expand = parseExpand(q.$expand, expandSeparator);
  if (q.$valrule !== undefined && q.$valrule.trim() !== '') opts.valrule = q.$valrule.trim();
  if (q.label !== undefined && q.label.trim() !== '') opts.label = parseFilter(q.label, 'label');
  if (q.showlabel !== undefined) opts.showLabel = q.showlabel.trim() === '' ? [] : parseSelect(q.showlabel);
  return opts;
}
