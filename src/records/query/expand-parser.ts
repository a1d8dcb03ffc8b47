/**
 * `$expand` parser.
 *
 *   expand  := item (',' item)*                       commas inside ( ) or '…' do not split
 *   item    := Name ['.' Column] ['(' options ')']
 *   options := option (SEP option)*                   SEP is ';' unless REST_EXPAND_SEPARATOR says otherwise
 *   option  := $select=… | $filter=… | $orderby=… | $top=n | $skip=n | $expand=… | label=…
 *
 * Whitespace around items, options and option names is ignored; option names are
 * case-insensitive. A nested `$expand` uses the same separator. Unknown and repeated options,
 * empty names or options, unbalanced parentheses and unterminated quotes are 400s titled
 * "Invalid $expand"; positions in details are 0-based offsets in the whole `$expand` text,
 * except for errors inside an option value ($filter, label, …), which the detail prefixes with
 * the item path and option name and whose positions are offsets in that option's value.
 *
 * Which names are detail tables and which are foreign-key columns (master expansion, where
 * only $select is allowed) is decided by the planner, which knows the dictionary.
 */
import { badRequest, type ApiError } from '../../errors.js';
import { MAX_NESTING_DEPTH, MAX_QUERY_LENGTH, quote, rethrowAs } from './common.js';
import type { FilterNode } from './filter-ast.js';
import { parseFilter } from './filter-parser.js';
import { parseOrderBy, type OrderItem } from './orderby-parser.js';
import { parseSelect } from './select-parser.js';

export interface ExpandOptions {
  select?: string[];
  filter?: FilterNode;
  orderby?: OrderItem[];
  top?: number;
  skip?: number;
  expand?: ExpandItem[];
  /** `label=…`: a filter over the label table. */
  label?: FilterNode;
}

export interface ExpandItem {
  /** Table name (detail) or foreign-key column name (master), as written. */
  name: string;
  /** The `.Column` of `Name.Column`: the child's linking column, as written. */
  column?: string;
  options: ExpandOptions;
  /** The item's source text, trimmed (used for sql-command-<name> keys). */
  raw: string;
}

const TITLE = 'Invalid $expand';
const ITEM_HEAD = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?$/;
const NON_NEGATIVE = /^\d+$/;

const fail = (detail: string): ApiError => badRequest(TITLE, detail);

interface Segment {
  text: string;
  /** Absolute offset of text[0] in the whole $expand text. */
  start: number;
}

/**
 * Split `text` on `sep` where it occurs outside quotes and outside parentheses, checking
 * that parentheses balance and quotes terminate. `base` is the absolute offset of text[0].
 */
function splitTopLevel(text: string, base: number, sep: string): Segment[] {
  const segments: Segment[] = [];
  const open: number[] = [];
  let segStart = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      const q = i;
      i++;
      while (i < text.length && text[i] !== "'") i++;
      if (i >= text.length) throw fail(`Unterminated string starting at position ${base + q}`);
      i++; // '' (an escaped quote) is simply two adjacent strings here
      continue;
    }
    if (c === '(') {
      open.push(i);
      if (open.length > MAX_NESTING_DEPTH) {
        throw fail(`Parentheses nested too deeply (more than ${MAX_NESTING_DEPTH} levels) at position ${base + i}`);
      }
    } else if (c === ')') {
      if (open.length === 0) throw fail(`Unbalanced ')' at position ${base + i}`);
      open.pop();
    } else if (open.length === 0 && text.startsWith(sep, i)) {
      segments.push({ text: text.slice(segStart, i), start: base + segStart });
      i += sep.length;
      segStart = i;
      continue;
    }
    i++;
  }
  if (open.length > 0) throw fail(`Unclosed '(' at position ${base + open[0]!}`);
  segments.push({ text: text.slice(segStart), start: base + segStart });
  return segments;
}

/** Trim a segment, keeping its absolute start. */
function trimSegment(s: Segment): Segment {
  const lead = s.text.length - s.text.trimStart().length;
  return { text: s.text.trim(), start: s.start + lead };
}

/** Index of the ')' matching the '(' at `openAt` (the text is known to balance). */
function matchingParen(text: string, openAt: number): number {
  let depth = 0;
  for (let i = openAt; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      i++;
      while (i < text.length && text[i] !== "'") i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function parseItems(text: string, base: number, sep: string, path: string[]): ExpandItem[] {
  const items: ExpandItem[] = [];
  for (const raw of splitTopLevel(text, base, ',')) {
    const seg = trimSegment(raw);
    if (seg.text === '') {
      throw fail(`${where(path)}Empty item at position ${seg.start}`);
    }
    items.push(parseItem(seg, sep, path));
  }
  return items;
}

const where = (path: string[]): string => (path.length ? `In ${path.join(' > ')}: ` : '');

function parseItem(seg: Segment, sep: string, path: string[]): ExpandItem {
  const text = seg.text;
  const paren = text.indexOf('(');
  const head = (paren < 0 ? text : text.slice(0, paren)).trim();
  if (head === '') throw fail(`${where(path)}Missing table or column name at position ${seg.start}`);
  const m = ITEM_HEAD.exec(head);
  if (!m) throw fail(`${where(path)}Invalid name ${quote(head)} at position ${seg.start}`);
  const item: ExpandItem = { name: m[1]!, options: {}, raw: text };
  if (m[2] !== undefined) item.column = m[2];
  if (paren >= 0) {
    const close = matchingParen(text, paren);
    if (close !== text.length - 1) {
      // close < 0 cannot happen for balanced input; treat it like trailing text anyway.
      const after = close < 0 ? paren : close + 1;
      throw fail(`${where(path)}Unexpected text ${quote(text.slice(after))} at position ${seg.start + after} after the options of ${head}`);
    }
    const inner = { text: text.slice(paren + 1, close), start: seg.start + paren + 1 };
    item.options = parseOptions(inner, sep, [...path, head]);
  }
  return item;
}

type OptionName = keyof ExpandOptions;

const OPTION_NAMES = new Map<string, OptionName>([
  ['$select', 'select'],
  ['$filter', 'filter'],
  ['$orderby', 'orderby'],
  ['$top', 'top'],
  ['$skip', 'skip'],
  ['$expand', 'expand'],
  ['label', 'label'],
]);

function parseOptions(inner: Segment, sep: string, path: string[]): ExpandOptions {
  if (inner.text.trim() === '') throw fail(`${where(path)}Empty option list at position ${inner.start}`);
  const options: ExpandOptions = {};
  const seen = new Set<OptionName>();
  for (const raw of splitTopLevel(inner.text, inner.start, sep)) {
    const seg = trimSegment(raw);
    if (seg.text === '') throw fail(`${where(path)}Empty option at position ${seg.start}`);
    const eq = seg.text.indexOf('=');
    if (eq < 0) throw fail(`${where(path)}Option ${quote(seg.text)} at position ${seg.start} is not of the form name=value`);
    const written = seg.text.slice(0, eq).trim();
    const key = OPTION_NAMES.get(written.toLowerCase());
    if (key === undefined) {
      throw fail(`${where(path)}Unknown option ${quote(written)} at position ${seg.start}`);
    }
    if (seen.has(key)) throw fail(`${where(path)}Repeated option ${quote(written)} at position ${seg.start}`);
    seen.add(key);
    const valueText = seg.text.slice(eq + 1);
    const lead = valueText.length - valueText.trimStart().length;
    const value = { text: valueText.trim(), start: seg.start + eq + 1 + lead };
    if (key === 'expand') {
      // Errors of a nested $expand carry their own path prefix and absolute positions.
      if (value.text === '') throw fail(`${where(path)}${written}: Empty value at position ${value.start}`);
      options.expand = parseItems(value.text, value.start, sep, path);
      continue;
    }
    const prefix = `${where(path)}${written}: `;
    try {
      switch (key) {
        case 'select':
          options.select = parseSelect(value.text);
          break;
        case 'filter':
          options.filter = parseFilter(value.text);
          break;
        case 'label':
          options.label = parseFilter(value.text, 'label');
          break;
        case 'orderby':
          options.orderby = parseOrderBy(value.text);
          break;
        case 'top':
        case 'skip': {
          if (!NON_NEGATIVE.test(value.text) || !Number.isSafeInteger(Number(value.text))) {
            throw fail(`${quote(value.text)} is not a non-negative integer`);
          }
          options[key] = Number(value.text);
          break;
        }
      }
    } catch (e) {
      rethrowAs(e, TITLE, prefix);
    }
  }
  return options;
}

/**
 * Parse an `$expand` option. `separator` separates the options inside an item's
 * parentheses (SysConfig REST_EXPAND_SEPARATOR, ';' by default); it must be non-empty and
 * must not contain parentheses, quotes, '=' or ','.
 */
export function parseExpand(text: string, separator = ';'): ExpandItem[] {
  if (typeof separator !== 'string' || separator === '' || /[()'=,]/.test(separator)) {
    throw fail(`Unusable option separator ${quote(String(separator))}`);
  }
  if (typeof text !== 'string') throw fail('The option is missing');
  if (text.length > MAX_QUERY_LENGTH) {
    throw fail(`The option is too long (${text.length} characters, at most ${MAX_QUERY_LENGTH})`);
  }
  if (text.trim() === '') throw fail('The option is empty');
  return parseItems(text, 0, separator, []);
}
