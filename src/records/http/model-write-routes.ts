import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { answerOnce } from '../../idempotency/answer-once.js';
import { entityTag, ifMatchOf } from '../versions/row-version.js';
import { createOperation, deleteOperation, updateOperation } from '../write/write-operations.js';
import { ref } from '../../openapi/answer-schemas.js';
import { deleted } from '../../openapi/route-schema.js';

type Params = { table: string; id: string };

/** POST /models/{table}, PUT and DELETE /models/{table}/{id} (with If-Match: only at that version): one transaction per request, which also keeps the answer to an Idempotency-Key. */
export async function modelWriteRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.post<{ Params: Params }>('/api/v1/models/:table', { schema: { summary: 'Create a record (details nested as arrays under their table names)', status: 201, body: ref('Record'), answer: ref('Record'), example: { Name: 'Joe Block', Value: 'JoeB' } } }, (req, reply) => answerOnce(s.db, req, reply, (tx) => createOperation(s, req.auth, tx, req.params.table, req.body)));
  app.put<{ Params: Params }>('/api/v1/models/:table/:id', { schema: { summary: 'Update a record', body: ref('Record'), answer: ref('Record'), example: { Description: 'A changed description' } } }, (req, reply) =>
    answerOnce(s.db, req, reply, async (tx) => {
      const r = await updateOperation(s, req.auth, tx, req.params.table, req.params.id, req.body, ifMatchOf(req.headers));
      return r.version ? { ...r, headers: { ETag: entityTag(r.version) } } : r;
    }),
  );
  app.delete<{ Params: Params }>('/api/v1/models/:table/:id', { schema: { summary: 'Delete a record', ...deleted } }, async (req, reply) => {
    const r = await s.db.tx((tx) => deleteOperation(s, req.auth, tx, req.params.table, req.params.id, ifMatchOf(req.headers)));
    return reply.code(r.status).send(r.body);
  });
}
