import { ApiError } from '../browser/token-session.js';

/** What the page says of a failed call: the error body's title and detail. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.title && err.title !== err.message ? `${err.title}: ${err.message}` : err.message;
  return (err as Error).message;
}
