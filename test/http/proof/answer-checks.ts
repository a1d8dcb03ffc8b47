/**
 * What every answer of the service must be, whatever the input: never a 5xx, never SQL text, a
 * database message or a stack trace, and on every 4xx the spec's error body {title, status, detail}.
 */

/** Text of SQL or of the database in an error answer (a statement, a driver message, a catalog name). */
export const SQL_TEXT = /\bSELECT\s[^]{0,200}?\bFROM\s|\bFROM\s+[a-z_"]+\s+WHERE\b|syntax error|relation "|column "|\bpg_[a-z]+|violates .* constraint|invalid input syntax/gi;

/**
 * In a successful answer rows may hold SQL as data (a validation rule's code, a column's SQL), so
 * only what a failed statement or a crashed handler would show counts there.
 */
export const DATABASE_MESSAGE = /syntax error at or near|relation "[^"]+" does not exist|column "[^"]+" does not exist|invalid input syntax for|violates (?:foreign key|not-null|unique|check) constraint|current transaction is aborted/gi;

/** A JavaScript stack frame ("    at fn (file.js:1:2)") or a Node error class name leaking. */
export const STACK_TEXT = /\n\s+at [^\n]+:\d+:\d+\)?|\bat (?:async )?[A-Za-z_.$<>]+ \((?:file:|node:|\/)[^)]*\)|TypeError: |ReferenceError: |RangeError: /;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/**
 * A batch's refusal is the spec's array of results, one {status, statusCode, body} per entry, as
 * the original answers it (the body of a refused entry is the original's message text).
 */
function isBatchResults(body: unknown): boolean {
  return Array.isArray(body) && body.length > 0 && body.every((r) => r && typeof r === 'object' && typeof r.status === 'string' && Number.isInteger(r.statusCode) && 'body' in r);
}

/** Matches of `pattern` in `text` that are not an echo of the request's own text (a refusal may quote it). */
function leaked(pattern: RegExp, text: string, input: string): boolean {
  const echo = input.toLowerCase();
  return [...text.matchAll(pattern)].some((m) => !echo.includes(m[0].toLowerCase()));
}

/**
 * The problems of one answer (empty when it is fine). `input` is the request's text (path decoded
 * and body), whose own words an answer may quote; `batch` when it answers POST /api/v1/batch.
 */
export function answerProblems(a: Answer, input = '', batch = false): string[] {
  const problems: string[] = [];
  if (a.status >= 500) problems.push(`status ${a.status}`);
  const type = a.headers.get('content-type') ?? '';
  // Binary answers (files, zips, PDFs, spreadsheets) are not text to search.
  const textual = type === '' || /json|text|yaml|xml|html|csv/i.test(type);
  if (textual) {
    if (STACK_TEXT.test(a.text)) problems.push('stack trace');
    if (leaked(a.status >= 400 ? SQL_TEXT : DATABASE_MESSAGE, a.text, input)) problems.push('SQL text');
  }
  if (a.status >= 400 && a.status < 500 && !(batch && isBatchResults(a.body))) {
    const b = a.body as { title?: unknown; status?: unknown; detail?: unknown } | null;
    if (!b || typeof b !== 'object') problems.push('4xx without a JSON error body');
    else {
      if (typeof b.title !== 'string' || b.title === '') problems.push('4xx without a title');
      if (b.status !== a.status) problems.push(`4xx body status ${String(b.status)}`);
      if (typeof b.detail !== 'string') problems.push('4xx without a detail');
    }
  }
  return problems;
}
