import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id.js';

/** Query parameters whose values are credentials (tokens, keys, presigned signatures): never written to a log. */
const SECRET_PARAMETER = /token|key|secret|password|passwd|signature|credential|auth|session/i;

/** The request's path and query with the values of secret parameters replaced. */
export function loggablePath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      let name = part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a name that does not decode is tested as it came
      }
      return SECRET_PARAMETER.test(name) ? `${part.slice(0, eq)}=[redacted]` : part;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Bytes the connection had sent when the request arrived (a kept-alive connection carries several answers). */
    sentBefore?: number;
  }
}

const sentOnSocket = (req: FastifyRequest): number => req.raw.socket?.bytesWritten ?? 0;

/**
 * Returns the request id on every answer and writes one `info` line per request once its answer
 * is sent: method, path (secrets stripped), status, time, bytes sent (headers included), user,
 * role and, through the request's logger, the request id.
 */
export function logEveryRequest(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    req.sentBefore = sentOnSocket(req);
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    // Below info (benchmarks, LOG_LEVEL=warn) the line is not even put together.
    if ((req.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') === false) return done();
    const auth = req.auth as FastifyRequest['auth'] | undefined;
    req.log.info(
      {
        method: req.method,
        path: loggablePath(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        bytes: sentOnSocket(req) - (req.sentBefore ?? 0),
        user: auth?.userId ?? req.loginStep?.userId,
        role: auth?.roleId,
      },
      'request',
    );
    done();
  });
}
