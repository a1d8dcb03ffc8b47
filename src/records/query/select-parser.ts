/**
 * `$select` parser: comma-separated column names, whitespace trimmed, duplicates removed
 * case-insensitively (the first spelling is kept). Whether the columns exist is checked later.
 */
import { badRequest } from '../../errors.js';
import { checkLength, isIdentifier, quote } from './common.js';

const TITLE = 'Invalid $select';

export function parseSelect(text: string): string[] {
  checkLength(text, TITLE);
  if (text.trim() === '') throw badRequest(TITLE, 'The option is empty');
  const seen = new Set<string>();
  const columns: string[] = [];
  text.split(',').forEach((part, index) => {
    const name = part.trim();
    if (name === '') throw badRequest(TITLE, `Empty column name at position ${index + 1} of the list`);
    if (!isIdentifier(name)) throw badRequest(TITLE, `Invalid column name ${quote(name)}`);
    const key = name.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      columns.push(name);
    }
  });
  return columns;
}
