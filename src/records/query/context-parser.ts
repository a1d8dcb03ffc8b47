/**
 * `$context` parser: `Name:Value,Name:Value`, the context a validation rule sees.
 * Names: letters, digits and underscores, optionally starting with '#' (e.g. #AD_Client_ID).
 * Values: letters, digits, whitespace, '-', '.', '_' only (possibly empty). They are bound as
 * SQL parameters later, but are kept strict anyway (the original allowed only [A-Za-z0-9\s-]).
 * Names and values are trimmed. A repeated name: the last value wins.
 */
import { badRequest } from '../../errors.js';
import { checkLength, quote } from './common.js';

const TITLE = 'Invalid $context';
const NAME = /^#?[A-Za-z0-9_]+$/;
const VALUE = /^[A-Za-z0-9\s\-._]*$/;

export function parseContext(text: string): Map<string, string> {
  checkLength(text, TITLE);
  if (text.trim() === '') throw badRequest(TITLE, 'The option is empty');
  const result = new Map<string, string>();
  text.split(',').forEach((part, index) => {
    const item = part.trim();
    if (item === '') throw badRequest(TITLE, `Empty item at position ${index + 1} of the list`);
    const colon = item.indexOf(':');
    if (colon < 0) throw badRequest(TITLE, `Item ${quote(item)} is not of the form Name:Value`);
    const name = item.slice(0, colon).trim();
    const value = item.slice(colon + 1).trim();
    if (!NAME.test(name)) throw badRequest(TITLE, `Invalid context name ${quote(name)} in item ${quote(item)}`);
    if (!VALUE.test(value)) {
      throw badRequest(TITLE, `Invalid value for ${name}: ${quote(value)} (only letters, digits, spaces, '-', '.' and '_' are allowed)`);
    }
    result.delete(name); // keep insertion order of the last occurrence
    result.set(name, value);
  });
  return result;
}
