import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { sendError } from './errors.js';

/**
 * Errors the framework raises before a route runs (a path that does not percent-decode) get the
 * spec's error body like every other error.
 */
export function frameworkErrors(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const api =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError(400, 'Bad Request', 'The request path is not valid: it holds an invalid percent-encoding')
      : new ApiError(error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400, 'Bad Request', 'The request could not be read');
  void sendError(reply, api);
}

/** Status of a connection-level error Node reports before Fastify sees a request. */
function clientErrorStatus(code: string | undefined): number {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    default:
      return 400;
  }
}

const CLIENT_ERROR_DETAIL: Record<number, string> = {
  408: 'The request was not received in time',
  431: 'The request headers are too large',
  400: 'The request is not valid HTTP',
};

/**
 * A request Node's HTTP parser rejects (malformed, headers too large, not received within the
 * request timeout) is answered with the spec's error body and the connection closed.
 */
export function clientErrors(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err.code);
  const body = JSON.stringify({ title: STATUS_CODES[status] ?? 'Bad Request', status, detail: CLIENT_ERROR_DETAIL[status] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
