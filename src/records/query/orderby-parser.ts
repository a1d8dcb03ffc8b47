/**
 * `$orderby` parser: a comma list of `Column [asc|desc]` (direction case-insensitive,
 * ascending when omitted). `parseOrderBy` answers 400 for a bad entry; `parseOrderByLenient`
 * leaves bad entries out, as the original does, and names them.
 */
import { badRequest } from '../../errors.js';
import { checkLength, quote } from './common.js';

export interface OrderItem {
  column: string;
  direction: 'asc' | 'desc';
}

const ITEM = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+([A-Za-z]+))?$/;
const TITLE = 'Invalid $orderby';

export function parseOrderBy(text: string): OrderItem[] {
  checkLength(text, TITLE);
  if (text.trim() === '') throw badRequest(TITLE, 'The option is empty');
  const items: OrderItem[] = [];
  const parts = text.split(',');
  parts.forEach((part, index) => {
    const item = part.trim();
    if (item === '') throw badRequest(TITLE, `Empty item at position ${index + 1} of the list`);
    const m = ITEM.exec(item);
    if (!m) throw badRequest(TITLE, `Invalid item ${quote(item)}: expected a column name optionally followed by asc or desc`);
    const dir = (m[2] ?? 'asc').toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') {
      throw badRequest(TITLE, `Invalid direction ${quote(m[2]!)} in item ${quote(item)}: expected asc or desc`);
    }
    items.push({ column: m[1]!, direction: dir });
  });
  return items;
}

/** The entries that parse, and the text of those that do not (the original ignored them silently). */
export function parseOrderByLenient(text: string): { items: OrderItem[]; ignored: string[] } {
  checkLength(text, TITLE);
  const items: OrderItem[] = [];
  const ignored: string[] = [];
  for (const part of text.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    try {
      items.push(...parseOrderBy(entry));
    } catch {
      ignored.push(entry);
    }
  }
  return { items, ignored };
}
