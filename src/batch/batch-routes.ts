import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { badRequest } from '../errors.js';
import { toApiError } from '../http/errors.js';
import type { Services } from '../services.js';
import { createOperation, deleteOperation, updateOperation, type OperationResult } from '../records/write/write-operations.js';
import { runProcessInTransaction } from '../processes/process-routes.js';
import { BatchItemError, parseBatchBody, parseBatchItem, resolveReferences } from './batch-request.js';
import { Type, type Static } from '@sinclair/typebox';
import { Open } from '../openapi/answer-schemas.js';
import { OBJECT, documented } from '../openapi/route-schema.js';
import { failingAs } from '../http/schema-validation.js';

/** The query of a batch: transaction true (the default) or false, in any case. */
const BATCH_QUERY = failingAs(
  Type.Object({ transaction: Type.Optional(Type.String({ pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' })), locale: Type.Optional(Type.String()) }),
  'Invalid query',
  'transaction must be true or false',
);
type BatchQuery = Static<typeof BATCH_QUERY>;

export interface BatchResult {
  status: string;
  statusCode: number;
  body: unknown;
}

const result = (statusCode: number, body: unknown): BatchResult => ({ status: STATUS_CODES[statusCode] ?? 'Unknown', statusCode, body });

async function runItem(s: Services, auth: AuthContext, tx: Tx, raw: unknown, done: BatchResult[]): Promise<OperationResult> {
  const item = parseBatchItem(raw, done);
  const body = resolveReferences(item.body ?? {}, done);
  if (item.process !== undefined) return { status: 200, body: (await runProcessInTransaction(s, auth, tx, item.process, body)) as unknown as OperationResult['body'] };
  switch (item.method) {
    case 'POST':
      return createOperation(s, auth, tx, item.table, body);
    case 'PUT':
      return updateOperation(s, auth, tx, item.table, item.id!, body, item.ifMatch);
    case 'DELETE':
      return deleteOperation(s, auth, tx, item.table, item.id!, item.ifMatch);
  }
}

function failure(e: unknown): BatchResult {
  if (e instanceof BatchItemError) return result(e.statusCode, e.message);
  const api = toApiError(e);
  return result(api.status, api.toBody());
}

/** Thrown inside the shared transaction to roll it back after the first failed entry. */
class StopBatch extends Error {}

/**
 * POST /api/v1/batch. transaction=true (default): one transaction, stop and roll back at the
 * first failure, answer 400 with the results so far. transaction=false: one transaction per
 * entry, all entries run, answer 200.
 */
export async function batchRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.post('/api/v1/batch', { schema: { summary: 'Several writes in one request', description: 'Entries {method: POST, PUT or DELETE, path, body}; the answer lists each entry\'s result (400 with the results so far when an entry fails in one transaction).', body: documented(Type.Array(Open({ method: Type.String(), path: Type.String(), body: Type.Optional(OBJECT), headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'headers of the entry: If-Match (a stale entry fails with statusCode 412)' })) }))), answer: Type.Array(Type.Object({ status: Type.String({ description: 'reason phrase' }), statusCode: Type.Integer(), body: Type.Optional(Type.Unknown()) })), querystring: BATCH_QUERY, example: [{ method: 'POST', path: 'v1/models/c_bpartner', body: { Name: 'Joe Block', Value: 'JoeB' } }] }, config: { queryParameters: ['transaction', 'locale'] } }, async (req, reply) => {
    const flag = ((req.query as BatchQuery).transaction ?? 'true').toLowerCase();
    const entries = parseBatchBody(req.body);
    const results: BatchResult[] = [];
    if (flag === 'false') {
      for (const raw of entries) {
        try {
          const r = await s.db.tx((tx) => runItem(s, req.auth, tx, raw, results));
          results.push(result(r.status, r.body));
        } catch (e) {
          results.push(failure(e));
        }
      }
      return reply.code(200).send(results);
    }
    try {
      await s.db.tx(async (tx) => {
        for (const raw of entries) {
          try {
            const r = await tx.savepoint((sp) => runItem(s, req.auth, sp, raw, results));
            results.push(result(r.status, r.body));
          } catch (e) {
            results.push(failure(e));
            throw new StopBatch();
          }
        }
      });
    } catch (e) {
      if (!(e instanceof StopBatch)) throw e;
      return reply.code(400).send(results);
    }
    return reply.code(200).send(results);
  });
}
