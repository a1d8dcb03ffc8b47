import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { readContext, staleReads } from '../records/http/models-routes.js';
import { findReference } from './find-reference.js';
import { readReference } from './reference-read.js';
import { ref } from '../openapi/answer-schemas.js';

/** GET /references/{refID} and its second spelling /reference/{id}: id, UUID or (URL-encoded) name. */
export async function referenceRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const handler = async (req: { params: { id: string } } & Parameters<typeof readContext>[1]) => {
    const rc = readContext(s, req);
    return staleReads(s, req).connection(async (q) => readReference({ ...rc, q }, await findReference(q, req.params.id)));
  };
  app.get<{ Params: { id: string } }>('/api/v1/references/:id', { schema: { summary: 'A reference (list or table) by id or UUID', answer: ref('DictionaryRow'), example: { id: 319, Name: '_YesNo', 'model-name': 'ad_reference' } } }, (req) => handler(req));
  app.get<{ Params: { id: string } }>('/api/v1/reference/:id', { schema: { summary: 'A reference (list or table) by id or UUID (the original\'s singular path)', answer: ref('DictionaryRow'), example: { id: 319, Name: '_YesNo', 'model-name': 'ad_reference' } } }, (req) => handler(req));
}
