import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a request id comes in and goes back in (proxies and clients set it to follow a call across services). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id a client may choose: short, and of characters that cannot forge a log line or a header
 * (no spaces, quotes or control characters). Anything else is replaced by a generated one.
 */
const ACCEPTED_ID = /^[A-Za-z0-9._:@+/=-]{1,128}$/;

/** The id of a request: the caller's X-Request-Id when it is acceptable, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}
