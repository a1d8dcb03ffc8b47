import type { FastifyInstance } from 'fastify';

/**
 * Reads JSON request bodies as Fastify does, except that an empty one is no body. Clients of the
 * API commonly send `Content-Type: application/json` on every request, GET and DELETE included;
 * such a request then gets the answer it would get without the header, and a route that needs a
 * body says so itself.
 */
export function readJsonBodies(app: FastifyInstance): void {
  // Fastify's own parser, with its defences against __proto__ and constructor.prototype keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(req, text, done);
  });
}
