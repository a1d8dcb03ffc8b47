import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { registerErrorHandlers, namingRequest } from '../../src/http/errors.js';
import { requestIdOf } from '../../src/http/request-id.js';
import { ApiError } from '../../src/errors.js';
import { loggablePath } from '../../src/http/access-log.js';

/** An app with the service's error handling, request ids and a logger whose lines the test reads. */
function appWithFailure(fail: () => never) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger, genReqId: requestIdOf });
  registerErrorHandlers(app);
  app.get('/fails', async () => fail());
  return { app, lines };
}

describe('server errors name the request', () => {
  it('a failure becomes a 500 whose detail and log line carry the request id, and nothing of the failure itself', async () => {
    const { app, lines } = appWithFailure(() => {
      throw new TypeError('secret internal state');
    });
    const r = await app.inject({ method: 'GET', url: '/fails', headers: { 'x-request-id': 'incident-7' } });
    assert.equal(r.statusCode, 500);
    const body = r.json();
    assert.deepEqual(Object.keys(body), ['title', 'status', 'detail']);
    assert.match(body.detail, /request id incident-7/);
    assert.doesNotMatch(r.body, /secret internal state/);
    const logged = lines.find((l) => l.msg === 'request failed');
    assert.ok(logged, 'the failure is logged');
    assert.equal(logged.reqId, 'incident-7');
    assert.match(JSON.stringify(logged.err), /secret internal state/);
  });

  it('a generated id is named when the caller sent none; a 503 names it too, a 4xx does not', async () => {
    const { app } = appWithFailure(() => {
      throw new ApiError(503, 'Query timeout', 'The query took too long and was cancelled');
    });
    const r = await app.inject({ method: 'GET', url: '/fails' });
    assert.equal(r.statusCode, 503);
    const id = /request id ([0-9a-f-]{36})\)$/.exec(r.json().detail)?.[1];
    assert.ok(id, r.body);
    assert.equal(namingRequest(new ApiError(404, 'Not Found', 'nothing'), 'x').detail, 'nothing');
    assert.equal(namingRequest(new ApiError(501, 'Not Implemented'), 'x').detail, 'Request id x');
  });
});

describe('paths in the access log', () => {
  it('keeps the query but the values of credentials', () => {
    assert.equal(loggablePath('/api/v1/models/c_order'), '/api/v1/models/c_order');
    assert.equal(loggablePath('/api/v1/health?key=abc&db=true'), '/api/v1/health?key=[redacted]&db=true');
    assert.equal(loggablePath('/x?$filter=Name%20eq%20%27a%27&Password=p&refresh%5Ftoken=t'), '/x?$filter=Name%20eq%20%27a%27&Password=[redacted]&refresh%5Ftoken=[redacted]');
    assert.equal(loggablePath('/x?flag&X-ID-SIGNATURE=abc'), '/x?flag&X-ID-SIGNATURE=[redacted]');
  });
});
