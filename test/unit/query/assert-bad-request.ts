import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors.js';

/**
 * Assert that `fn` throws a 400 ApiError with the given title and a detail matching
 * `detail` (a substring or a regular expression). Returns the error for further checks.
 */
export function assertBadRequest(fn: () => unknown, title: string, detail?: string | RegExp): ApiError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, 'expected an error, but the call succeeded');
  assert.ok(caught instanceof ApiError, `expected an ApiError, got ${String(caught)}`);
  assert.equal(caught.status, 400);
  assert.equal(caught.title, title);
  assert.ok(caught.detail.length > 0, 'the detail is empty');
  if (typeof detail === 'string') assert.ok(caught.detail.includes(detail), `detail ${JSON.stringify(caught.detail)} lacks ${JSON.stringify(detail)}`);
  else if (detail) assert.match(caught.detail, detail);
  return caught;
}
