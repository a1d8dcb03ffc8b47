import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { RouteMethods } from './route-methods.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** Maps a database error to a client error where the input is at fault; never leaks SQL text. */
function fromDatabaseError(e: { code?: string }): ApiError | null {
  switch (e.code) {
    case '23505':
      return new ApiError(409, 'Duplicate record', 'A record with the same unique values already exists');
    case '23503':
      return new ApiError(400, 'Invalid reference', 'A referenced record does not exist');
    case '23502':
      return new ApiError(400, 'Validation Errors', 'A mandatory value is missing');
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22001':
    case '22021':
    case '22P05':
      return new ApiError(400, 'Invalid value', 'A value has the wrong format or is out of range');
    case '57014':
      return new ApiError(503, 'Query timeout', 'The query took too long and was cancelled');
    default:
      return null;
  }
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError & { code?: string; statusCode?: number };
  const db = fromDatabaseError(e);
  if (db) return db;
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError(415, 'Unsupported Media Type', e.message);
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'Payload Too Large', 'The request body is too large');
    if (e.code?.startsWith('FST_ERR_CTP') || e instanceof SyntaxError) return new ApiError(400, 'Invalid JSON', 'The request body is not valid JSON');
    if (e.validation) return new ApiError(400, 'Bad Request', e.message);
    return new ApiError(e.statusCode, 'Bad Request', e.message);
  }
  return new ApiError(500, 'Internal Server Error', 'An unexpected error occurred; it has been logged');
}

/** A server error names the request's id, so that whoever reports it can point at its log lines. */
export function namingRequest(err: ApiError, requestId: string): ApiError {
  if (err.status < 500 || err.detail.includes(requestId)) return err;
  const detail = err.detail ? `${err.detail} (request id ${requestId})` : `Request id ${requestId}`;
  return new ApiError(err.status, err.title, detail, err.headers);
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  const api = namingRequest(err, reply.request.id);
  // Also here: errors the framework raises before routing skip the hook that sets it.
  reply.header(REQUEST_ID_HEADER, reply.request.id);
  for (const [k, v] of Object.entries(api.headers)) reply.header(k, v);
  return reply.code(api.status).type('application/json; charset=utf-8').send(api.toBody());
}

export function registerErrorHandlers(app: FastifyInstance, routes?: RouteMethods): void {
  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const api = toApiError(err);
    if (api.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.debug({ err: api.message }, 'request rejected');
    return sendError(reply, api);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = routes?.allowed(path) ?? [];
    if (allowed.length && !allowed.includes(req.method)) {
      return sendError(reply, new ApiError(405, 'Method Not Allowed', `${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { Allow: allowed.join(', ') }));
    }
    return sendError(reply, new ApiError(404, 'Not Found', `No resource matches ${req.method} ${path}`));
  });
}
